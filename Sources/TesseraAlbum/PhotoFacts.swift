import Foundation
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// What the viewer's panel says about a photo, in the order a person reads it.
struct PhotoFact: Equatable {
    var label: String
    var value: String
    /// The value is a guess (a date from a file name or a modification time).
    var guess: Bool

    init(_ label: String, _ value: String, guess: Bool = false) {
        self.label = label
        self.value = value
        self.guess = guess
    }

    /// Date and where it came from, camera, lens, exposure, size and format, people, place (the viewer
    /// adds the file name, which the data holds anyway); in a private zone, the town alone.
    static func facts(of photo: PhotoRecord, zones: [PrivateZone]) -> [PhotoFact] {
        var facts: [PhotoFact] = []
        if let captured = photo.capturedAt {
            facts.append(PhotoFact("Date", FriendlyDate.moment(captured, offset: photo.utcOffset)))
        }
        if let source = photo.dateSource {
            facts.append(PhotoFact("Date from", source.explanation, guess: source.isGuess))
        }
        if let camera = camera(photo) { facts.append(PhotoFact("Camera", camera)) }
        if let lens = photo.camera.lensModel, !lens.isEmpty { facts.append(PhotoFact("Lens", lens)) }
        let exposure = photo.camera.exposure
        if !exposure.isEmpty { facts.append(PhotoFact("Exposure", exposure)) }
        if let width = photo.displayWidth ?? photo.width, let height = photo.displayHeight ?? photo.height {
            let megapixels = Double(width) * Double(height) / 1_000_000
            // A scan of a few thousand pixels has no megapixels worth saying, nor has a video.
            let mp =
                megapixels >= 0.1 && Motion(photo)?.kind != .video
                ? " (\(Wording.number(megapixels, decimals: 1)) MP)" : ""
            facts.append(PhotoFact("Size", "\(width) × \(height) px\(mp), \(photo.format.rawValue.uppercased())"))
        }
        if let motion = Motion(photo) {
            let parts = [
                motion.duration.flatMap(Motion.clock), motion.codec?.uppercased(),
                photo.video?.frameRate.map { "\(Wording.number($0, decimals: 0)) fps" },
            ].compactMap { $0 }
            facts.append(PhotoFact(motion.kind == .video ? "Video" : "Motion", parts.joined(separator: ", ")))
        }
        if !photo.people.isEmpty { facts.append(PhotoFact("People", photo.people.joined(separator: ", "))) }
        // The place in words (the viewer adds the position, from `position`, linked to the site's map).
        if let place = photo.place {
            facts.append(PhotoFact("Place", hidden(photo, zones) ? place.town.text : place.text))
        }
        return facts
    }

    static func camera(_ photo: PhotoRecord) -> String? { photo.camera.name }

    /// The position the site shows, five decimals (a metre): none in a private zone.
    static func position(of photo: PhotoRecord, zones: [PrivateZone]) -> (latitude: String, longitude: String)? {
        guard let gps = photo.gps, gps.latitude.isFinite, gps.longitude.isFinite, !hidden(photo, zones) else {
            return nil
        }
        return (Wording.number(gps.latitude, decimals: 5), Wording.number(gps.longitude, decimals: 5))
    }

    /// In a private zone: the site shows no position and no place finer than the town.
    private static func hidden(_ photo: PhotoRecord, _ zones: [PrivateZone]) -> Bool {
        photo.gps.map { gps in zones.contains { $0.contains(gps) } } ?? false
    }
}
