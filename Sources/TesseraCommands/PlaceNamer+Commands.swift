import Foundation
import SystemPackage
import TesseraConfiguration
import TesseraFacts
import TesseraMetadata
import TesseraPlaces
import TesseraSystem

extension PlaceNamer {
    /// What names places for a command: the installed data and the configuration's corrections.
    static func installed(_ configuration: Configuration?) -> PlaceNamer {
        PlaceNamer(
            data: PlaceFinder.installed(
                environment: ProcessInfo.processInfo.environment, executable: CurrentProcess.executable),
            corrections: configuration?.placeCorrections ?? [], roots: configuration?.roots ?? [])
    }

    /// The place of the file at `path` (relative to the working folder, or absolute), as a scan names it.
    func place(of path: FilePath, position: GPSPosition?, words: LocationWords?) -> PlaceName? {
        let absolute = path.isAbsolute ? path : FilePath(FileManager.default.currentDirectoryPath).pushing(path)
        return place(
            PlaceEvidence(position: position, words: words, path: absolute.lexicallyNormalized().string))
    }

    /// How the place of the file at `path` was decided, for `explain`.
    func explanation(of path: FilePath, position: GPSPosition?, words: LocationWords?) -> FactExplanation {
        let place = place(of: path, position: position, words: words)
        let rule: String
        switch place?.source {
        case .correction?: rule = "a correction in the configuration (place_corrections)"
        case .words?: rule = "the photo's own words (XMP), completed from its position where they agree"
        case .gps?:
            rule =
                "named from the position by the place data (GeoNames): the most populous town that covers it, "
                + "else near the closest"
        case nil:
            if position != nil, case .failure(let error) = data {
                rule = "unknown: the place data \(error) (docs/PLACES.md)"
            } else {
                rule = position == nil ? "none: no position, no words, no correction" : "none near the position"
            }
        }
        var candidates: [FactExplanation.Candidate] = []
        if place?.source != .gps, let position, let named = try? data.get().name(position) {
            candidates.append(
                .init(
                    source: "the position's place", value: named.text,
                    outcome: place == nil ? "chosen" : "lower precedence"))
        }
        return FactExplanation(fact: "place", value: place?.text, rule: rule, candidates: candidates)
    }
}
