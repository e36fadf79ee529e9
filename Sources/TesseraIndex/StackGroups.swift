import Foundation
import TesseraFacts

/// Files of one shot, or of one moment, that a front end shows as one (docs/DUPLICATES.md).
public struct Stack: Sendable, Equatable {
    public enum Kind: String, Sendable, Encodable {
        /// A camera's RAW file and the image it processed from it (JPEG, HEIF…), side by side.
        case rawPair = "raw-pair"
        /// Shots one camera took in a row, at most `StackGroups.burstGap` apart.
        case burst
    }

    public var kind: Kind
    /// Its face first (what a front end shows), then the others.
    public var members: [ComparedFile]
    /// Why the first is the face.
    public var why: String
}

/// Stacks, decided from names and metadata; nothing is moved.
public enum StackGroups {
    /// The longest time between two shots of one burst, in seconds.
    public static let burstGap = 1.0

    /// The stacks of `files`: RAW pairs, then bursts (of the stills that are no RAW with a
    /// partner), each largest first.
    public static func find(_ files: [ComparedFile]) -> [Stack] {
        let stills = files.filter { !$0.isVideo }
        var pairs: [String: [ComparedFile]] = [:]
        for file in stills { pairs["\(file.albumID)/\(shotName(file.pathBytes))", default: []].append(file) }
        var stacks: [Stack] = []
        var paired = Set<Int64>()
        for members in pairs.values where members.contains(where: { $0.format == .raw }) {
            let processed = members.filter { $0.format != .raw }.sorted { DuplicateGroups.preferred($0, over: $1) }
            guard let face = processed.first else { continue }
            let raws = members.filter { $0.format == .raw }.sorted {
                $0.pathBytes.lexicographicallyPrecedes($1.pathBytes)
            }
            stacks.append(
                Stack(
                    kind: .rawPair, members: processed + raws,
                    why: "the \(face.format.rawValue) the camera made from its RAW"))
            paired.formUnion(raws.map(\.id))
        }
        stacks += bursts(stills.filter { !paired.contains($0.id) })
        return stacks.sorted { ($0.members.count, $1.members[0].id) > ($1.members.count, $0.members[0].id) }
    }

    /// A file's name without its extension, lower-cased, and without the part that numbers the
    /// files of one shot (Pixel's `PXL_….RAW-01.COVER.jpg` and `PXL_….RAW-02.ORIGINAL.dng`).
    static func shotName(_ path: [UInt8]) -> String {
        let name = path.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) } ?? ""
        var stem = name.lowercased()
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
        if let marker = stem.range(of: ".raw-") { stem = String(stem[..<marker.lowerBound]) }
        return stem
    }

    /// Runs of one camera's shots in one folder, each within `burstGap` of the one before, by
    /// capture times that have a fraction of a second (bursts are timed to it); the face is
    /// the best rated, else the first.
    static func bursts(_ stills: [ComparedFile]) -> [Stack] {
        var cameras: [String: [(instant: Double, file: ComparedFile)]] = [:]
        for file in stills {
            guard let time = file.capturedAt, time.contains("."), let instant = seconds(time) else { continue }
            cameras["\(file.albumID)/\(file.make ?? "")/\(file.model ?? "")", default: []].append((instant, file))
        }
        var stacks: [Stack] = []
        for shots in cameras.values {
            let ordered = shots.sorted { ($0.instant, $0.file.id) < ($1.instant, $1.file.id) }
            var run: [ComparedFile] = []
            var last = -Double.infinity
            func close() {
                if run.count > 1 {
                    let best = run.max { ($0.rating ?? 0) < ($1.rating ?? 0) } ?? run[0]
                    let face = (best.rating ?? 0) > 0 ? best : run[0]
                    stacks.append(
                        Stack(
                            kind: .burst, members: [face] + run.filter { $0.id != face.id },
                            why: face.id == run[0].id ? "the first" : "the best rated (\(face.rating ?? 0) stars)"))
                }
                run = []
            }
            for shot in ordered {
                if shot.instant - last > burstGap { close() }
                run.append(shot.file)
                last = shot.instant
            }
            close()
        }
        return stacks
    }

    /// Seconds since 0001-01-01 of a wall clock `YYYY-MM-DDTHH:MM:SS.fff` (its offset ignored:
    /// one camera's shots share it).
    static func seconds(_ time: String) -> Double? {
        let digits = time.split { !$0.isNumber }.prefix(7)
        guard digits.count >= 6 else { return nil }
        let numbers = digits.prefix(6).compactMap { Int($0) }
        // (a wall clock from a file: bounded before it is multiplied)
        guard numbers.count == 6, (0...9999).contains(numbers[0]), (1...12).contains(numbers[1]),
            (1...31).contains(numbers[2]), numbers[3...].allSatisfy({ (0...60).contains($0) })
        else { return nil }
        let fraction = digits.count == 7 ? Double("0." + digits[digits.startIndex + 6]) ?? 0 : 0
        // Days from the civil calendar (Howard Hinnant's days_from_civil).
        let (year, month, day) = (numbers[1] <= 2 ? numbers[0] - 1 : numbers[0], numbers[1], numbers[2])
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra
        return Double(days * 86_400 + numbers[3] * 3_600 + numbers[4] * 60 + numbers[5]) + fraction
    }
}
