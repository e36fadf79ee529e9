import Foundation
import TesseraFacts

/// Files of one shot, or of one moment, that a front end shows as one (docs/DUPLICATES.md).
public struct Stack: Sendable, Equatable {
    public enum Kind: String, Sendable, Encodable {
        /// A camera's RAW file and the image it processed from it (JPEG, HEIF…), side by side.
        case rawPair = "raw-pair"
        /// Shots one camera took in a row, at most `StackGroups.burstGap` apart.
        case burst
        /// Shots one camera took in a row at stepped exposure compensations (auto exposure
        /// bracketing), for HDR or to pick the best exposed.
        case bracket
    }

    public var kind: Kind
    /// Its face first (what a front end shows), then the others.
    public var members: [ComparedFile]
    /// Why the first is the face.
    public var why: String
}

/// Stacks, decided from names and metadata; nothing is moved.
public enum StackGroups {
    /// The longest time between two shots of one burst or bracket, in seconds.
    public static let burstGap = 1.0

    /// The rule of a kind of stack, in words.
    public static func rule(_ kind: Stack.Kind) -> String {
        switch kind {
        case .rawPair: "a RAW and the images the camera made of it: one folder, one name"
        case .burst:
            "one camera's shots in one folder that share a burst identifier (Apple's BurstUUID, a phone's burst "
                + "names: Google, Sony, Motorola, Samsung), or timed to fractions of a second, each at most "
                + "\(burstGap) s after the last"
        case .bracket:
            "one camera's shots in one folder, each at most \(burstGap) s after the last, at exposure compensations "
                + "that all differ"
        }
    }

    /// What decides stacks, as the index records it: a change decides them all again.
    static let rules =
        "RAW pairs by name; bursts by BurstUUID or names (and Samsung's); brackets and bursts "
        + "\(burstGap) s apart at most"

    /// One shot: a RAW pair (the processed images, the preferred first, then the RAWs), or one file.
    struct Shot {
        var files: [ComparedFile]
        var face: ComparedFile { files[0] }
        var isPair: Bool { files.count > 1 }
    }

    /// The stacks of `files`, largest first; a file is in one stack at most.
    ///
    /// Brackets, then bursts, of shots (a RAW pair is one shot), then the RAW pairs in neither.
    ///
    /// `sharpness` measures a burst's frames when neither the camera nor a rating picked one
    /// (nil when it cannot: the face is then the first).
    public static func find(_ files: [ComparedFile], sharpness: (ComparedFile) -> Double? = { _ in nil }) -> [Stack] {
        var byName: [String: [ComparedFile]] = [:]
        for file in files where !file.isVideo {
            byName["\(file.albumID)/\(shotName(file.pathBytes))", default: []].append(file)
        }
        var shots: [Shot] = []
        for members in byName.values {
            let raws = members.filter { $0.format.traits.isRaw }.sorted {
                $0.pathBytes.lexicographicallyPrecedes($1.pathBytes)
            }
            let processed = members.filter { !$0.format.traits.isRaw }.sorted {
                DuplicateGroups.preferred($0, over: $1)
            }
            if !raws.isEmpty && !processed.isEmpty {
                shots.append(Shot(files: processed + raws))
            } else {
                shots += members.map { Shot(files: [$0]) }
            }
        }
        shots = pairedByInstant(shots)
        var stacks: [Stack] = []
        var taken = Set<Int64>()
        for run in namedBursts(shots) {
            taken.formUnion(run.map(\.face.id))
            stacks.append(stack(.burst, of: run, sharpness: sharpness))
        }
        for run in brackets(shots.filter { !taken.contains($0.face.id) }) {
            taken.formUnion(run.map(\.face.id))
            stacks.append(stack(.bracket, of: run))
        }
        for run in bursts(shots.filter { !taken.contains($0.face.id) }) {
            taken.formUnion(run.map(\.face.id))
            stacks.append(stack(.burst, of: run, sharpness: sharpness))
        }
        for shot in shots where shot.isPair && !taken.contains(shot.face.id) {
            stacks.append(
                Stack(
                    kind: .rawPair, members: shot.files,
                    why: "the \(shot.face.format.rawValue) the camera made from its RAW"))
        }
        return stacks.sorted { ($0.members.count, $1.members[0].id) > ($1.members.count, $0.members[0].id) }
    }

    /// A bracket's or a burst's stack: its face's shot first, then the others' in time order.
    private static func stack(
        _ kind: Stack.Kind, of run: [Shot], sharpness: (ComparedFile) -> Double? = { _ in nil }
    ) -> Stack {
        var face = run[0]
        var why = "the first"
        if kind == .bracket {
            // The metered exposure: the compensation nearest 0.
            face = run.min { abs($0.face.exposureBias ?? 0) < abs($1.face.exposureBias ?? 0) } ?? face
            let bias = face.face.exposureBias ?? 0
            why = bias == 0 ? "the metered exposure (0 EV)" : "the nearest the metered exposure (\(bias) EV)"
        } else if let cover = run.first(where: { burstName($0.face.pathBytes)?.cover == true }) {
            face = cover
            why = "the one the camera picked (COVER)"
        } else if let best = run.max(by: { ($0.face.rating ?? 0) < ($1.face.rating ?? 0) }), (best.face.rating ?? 0) > 0
        {
            face = best
            why = "the best rated (\(best.face.rating ?? 0) stars)"
        } else if kind == .burst {
            let measured = run.map { sharpness($0.face) }
            if measured.allSatisfy({ $0 != nil }),
                let sharpest = measured.indices.max(by: {
                    (measured[$0] ?? 0) < (measured[$1] ?? 0)
                })
            {
                face = run[sharpest]
                why = "the sharpest"
            }
        }
        let others = run.filter { $0.face.id != face.face.id }
        return Stack(kind: kind, members: face.files + others.flatMap(\.files), why: why)
    }

    /// `shots` with each RAW alone paired with an image alone that the same camera took at the
    /// same instant, to the fraction of a second (a RAW and its JPEG under other names).
    static func pairedByInstant(_ shots: [Shot]) -> [Shot] {
        var processed: [String: Int] = [:]
        for (index, shot) in shots.enumerated() where !shot.isPair && !shot.face.format.traits.isRaw {
            if let key = instant(shot.face) { processed[key] = processed[key] ?? index }
        }
        var paired = Set<Int>()
        var pairs: [Shot] = []
        for (index, shot) in shots.enumerated() where !shot.isPair && shot.face.format.traits.isRaw {
            guard let key = instant(shot.face), let partner = processed[key], !paired.contains(partner),
                sameBody(shots[partner].face, shot.face)
            else { continue }
            paired.formUnion([index, partner])
            pairs.append(Shot(files: [shots[partner].face, shot.face]))
        }
        return pairs + shots.indices.filter { !paired.contains($0) }.map { shots[$0] }
    }

    /// A file's folder, camera and capture time, when the time has a fraction of a second.
    static func instant(_ file: ComparedFile) -> String? {
        guard let time = file.capturedAt, time.contains("."), file.make != nil || file.model != nil else { return nil }
        return "\(file.albumID)/\(file.make ?? "")/\(file.model ?? "")/\(time)"
    }

    /// Whether two files of one camera model are of one body: their serial numbers agree where
    /// both have one.
    static func sameBody(_ a: ComparedFile, _ b: ComparedFile) -> Bool {
        guard let sa = a.serialNumber, let sb = b.serialNumber else { return true }
        return sa == sb
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

    /// Each camera's shots in each folder, in the order they were taken (by capture time, then
    /// by name: cameras number their files), that `when` can time.
    private static func timeline(
        _ shots: [Shot], when: (ComparedFile) -> Double?
    ) -> [[(instant: Double, shot: Shot)]] {
        var cameras: [String: [(instant: Double, shot: Shot)]] = [:]
        for shot in shots {
            guard let instant = when(shot.face) else { continue }
            let file = shot.face
            cameras["\(file.albumID)/\(file.make ?? "")/\(file.model ?? "")", default: []].append((instant, shot))
        }
        return cameras.values.map { taken in
            taken.sorted {
                $0.instant != $1.instant
                    ? $0.instant < $1.instant : $0.shot.face.pathBytes.lexicographicallyPrecedes($1.shot.face.pathBytes)
            }
        }
    }

    /// Bursts the camera named: the shots in one folder that share Apple's BurstUUID, or a
    /// Google camera's burst name, in the order they were taken.
    static func namedBursts(_ shots: [Shot]) -> [[Shot]] {
        var named: [String: [Shot]] = [:]
        for shot in shots {
            let file = shot.face
            guard let name = file.burstIdentifier.map({ "uuid " + $0 }) ?? burstName(file.pathBytes)?.key else {
                continue
            }
            named["\(file.albumID)/\(name)", default: []].append(shot)
        }
        return named.values.filter { $0.count > 1 }.map { run in
            run.sorted {
                let (a, b) = ($0.face.capturedAt.flatMap(seconds) ?? 0, $1.face.capturedAt.flatMap(seconds) ?? 0)
                return a != b ? a < b : $0.face.pathBytes.lexicographicallyPrecedes($1.face.pathBytes)
            }
        }
    }

    /// What a phone's name says of a burst: the part its frames share, and whether this is the
    /// frame it picked.
    ///
    /// Google's and Sony's `00001IMG_00001_BURST20200101120000123_COVER.jpg` share
    /// `BURST20200101120000123`; `IMG_20151025_160521_BURST002.jpg` (Google, Motorola) shares
    /// what comes before `_BURST` (its number counts the frames); Samsung's
    /// `20231207_101605_001.jpg` shares its date and time (its last number counts the frames).
    static func burstName(_ path: [UInt8]) -> (key: String, cover: Bool)? {
        let name = (path.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) } ?? "")
            .uppercased()
        guard let marker = name.range(of: "_BURST") else { return samsungBurst(name).map { ($0, false) } }
        let digits = name[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let key = digits.count >= 14 ? "BURST" + digits : String(name[..<marker.lowerBound])
        return (key, name.contains("_COVER"))
    }

    /// The date and time a Samsung burst's frame shares (`20231207_101605` of
    /// `20231207_101605_001.jpg`), when `name` is one: 8 digits, 6, 3 and an extension.
    private static func samsungBurst(_ name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        let fields = parts[0].split(separator: "_", omittingEmptySubsequences: false)
        guard fields.map(\.count) == [8, 6, 3], fields.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        return "SAMSUNG " + fields[0] + "_" + fields[1]
    }

    /// Exposure brackets: runs of one camera's shots, each within `burstGap` of the one before,
    /// whose exposure compensations all differ (auto exposure bracketing steps it; a value
    /// met again begins the next bracket), at least one of them not 0.
    static func brackets(_ shots: [Shot]) -> [[Shot]] {
        var runs: [[Shot]] = []
        for taken in timeline(shots, when: { $0.exposureBias == nil ? nil : $0.capturedAt.flatMap(seconds) }) {
            var run: [Shot] = []
            var last = -Double.infinity
            func close() {
                if run.count > 1, run.contains(where: { $0.face.exposureBias != 0 }) { runs.append(run) }
                run = []
            }
            for (instant, shot) in taken {
                if instant - last > burstGap || run.contains(where: { $0.face.exposureBias == shot.face.exposureBias })
                {
                    close()
                }
                run.append(shot)
                last = instant
            }
            close()
        }
        return runs
    }

    /// Bursts: runs of one camera's shots, each within `burstGap` of the one before.
    ///
    /// By capture times that have a fraction of a second (bursts are timed to it). Files of
    /// the very same instant alone are versions of one shot (an edit beside its original).
    static func bursts(_ shots: [Shot]) -> [[Shot]] {
        var runs: [[Shot]] = []
        let timed = { (file: ComparedFile) in
            file.capturedAt?.contains(".") == true ? file.capturedAt.flatMap(seconds) : nil
        }
        for taken in timeline(shots, when: timed) {
            var run: [(instant: Double, shot: Shot)] = []
            func close() {
                if let first = run.first, run.contains(where: { $0.instant != first.instant }) {
                    runs.append(run.map(\.shot))
                }
                run = []
            }
            for shot in taken {
                if let last = run.last, shot.instant - last.instant > burstGap { close() }
                run.append(shot)
            }
            close()
        }
        return runs
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
