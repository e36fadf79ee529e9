public import TesseraFacts
import TesseraSystem

/// What deciding copies and stacks needs of an indexed photo or video.
public struct ComparedFile: Sendable, Equatable {
    public var id: Int64
    /// Its folder's row (`album_id`).
    public var albumID: Int64
    public var pathBytes: [UInt8]
    public var format: ImageFormat
    public var isVideo: Bool
    /// Displayed width and height (turned by the orientation), when known.
    public var width: Int?
    public var height: Int?
    public var bytes: Int64
    public var mtimeNanoseconds: Int64
    /// The XXH64 of the file's content (`content_hash`).
    public var contentHash: String
    /// `phash`: what the photo shows; nil for a video, or a photo not hashed yet.
    public var perceptualHash: UInt64?
    /// `phash_detail`: the finer hash computed with it.
    public var detailHash: DetailHash?
    /// The capture wall clock (`captured_at`, seconds with their fraction when the camera wrote one).
    public var capturedAt: String?
    public var make: String?
    public var model: String?
    /// Its ThumbHash placeholder, whose colours a second look compares.
    public var placeholder: [UInt8]?
    /// XMP stars (0–5), when rated.
    public var rating: Int?
    /// Exposure compensation, in EV, when recorded.
    public var exposureBias: Double?
    /// What the frames of one burst share: Apple's BurstUUID (`burst_id`).
    public var burstIdentifier: String?
    /// The camera body's serial number (`camera_serial`).
    public var serialNumber: String?

    public init(
        id: Int64, pathBytes: [UInt8], format: ImageFormat, isVideo: Bool, width: Int?, height: Int?, bytes: Int64,
        mtimeNanoseconds: Int64, contentHash: String, perceptualHash: UInt64?, capturedAt: String?, make: String?,
        model: String?, placeholder: [UInt8]? = nil, albumID: Int64 = 0, rating: Int? = nil,
        exposureBias: Double? = nil, burstIdentifier: String? = nil,
        serialNumber: String? = nil, detailHash: DetailHash? = nil
    ) {
        (self.id, self.pathBytes, self.format, self.isVideo) = (id, pathBytes, format, isVideo)
        (self.width, self.height, self.bytes, self.mtimeNanoseconds) = (width, height, bytes, mtimeNanoseconds)
        (self.contentHash, self.perceptualHash) = (contentHash, perceptualHash)
        (self.capturedAt, self.make, self.model, self.placeholder) = (capturedAt, make, model, placeholder)
        (self.albumID, self.rating, self.exposureBias) = (albumID, rating, exposureBias)
        (self.burstIdentifier, self.serialNumber, self.detailHash) = (burstIdentifier, serialNumber, detailHash)
    }

    var pixels: Int { (width ?? 0) * (height ?? 0) }
    var hasExif: Bool { capturedAt != nil || make != nil || model != nil }
}

/// Files that are copies of one another: the same bytes, or the same picture (docs/DUPLICATES.md).
public struct DuplicateGroup: Sendable, Equatable {
    public enum Rule: String, Sendable, Encodable {
        /// Every file has the same bytes.
        case sameBytes = "same-bytes"
        /// The same picture: perceptual hashes at most `DuplicateGroups.threshold` apart, and
        /// nothing in their metadata that says they are different shots.
        case samePicture = "same-picture"
    }

    public var rule: Rule
    /// The one to keep first, then the others in the same order of preference.
    public var members: [ComparedFile]
    /// Why the first is the one to keep.
    public var why: String
}

/// Groups copies among indexed files; nothing is deleted or moved.
public enum DuplicateGroups {
    /// The largest perceptual-hash distance at which two photos can be the same picture: chosen
    /// on real photos and copies of them (docs/DUPLICATES.md): re-encoded, resized, converted
    /// and turned copies are within 2 bits (but near-black photos), 3 % crops mostly within 12,
    /// distinct photos mostly beyond 20.
    public static let threshold = 14

    /// The largest distance between any two photos of one group: copies of one picture are
    /// within it of one another (a 3 % crop is within 16 of a re-encoded copy), where a chain
    /// of look-alikes, each near the next, soon is not.
    public static let spread = 20

    /// The largest detail-hash distance (of 255 bits) at which two photos can be the same
    /// picture, chosen on real photos and copies of them as `threshold` was (docs/DUPLICATES.md):
    /// re-encoded, resized, converted and turned copies are within 12, 3 % crops within 86,
    /// distinct photos at least 100 apart.
    public static let detailThreshold = 90

    /// The largest detail-hash distance between any two photos of one group, as `spread` is
    /// for the perceptual hash.
    public static let detailSpread = 100

    /// The groups of two or more among `files`, largest first.
    ///
    /// Two photos whose bytes differ are the same picture when their hashes are at most
    /// `threshold` apart (their detail hashes, when both have one, at most `detailThreshold`),
    /// nothing says they are different shots, and their `colours` (from
    /// `placeholder`, 8 × 8 RGB) differ by a mean of at most `colourLimit`. Groups join such
    /// pairs, each photo's nearest first, but never two photos that are different shots, nor
    /// two whose hashes are more than `spread` apart (or details more than `detailSpread`).
    public static func find(
        _ files: [ComparedFile], threshold: Int = threshold, colourLimit: Double,
        colours: (_ placeholder: [UInt8]) -> [Double]?
    ) -> [DuplicateGroup] {
        copySets(CopyFacts.of(files), threshold: threshold, colourLimit: colourLimit) {
            files[$0].placeholder.flatMap(colours)
        }
        .map { group($0.map { files[$0] }) }
        .sorted { ($0.members.count, $1.members[0].id) > ($1.members.count, $0.members[0].id) }
    }

    /// The sets of two or more files among `facts` (their positions) that `find` groups.
    ///
    /// `colours(position)` gives a file's colours; they are asked for only where two files
    /// would join. At most `pairLimit` near pairs are held at once: where a library has more
    /// (a dense cluster of look-alikes), its files are taken in spans, one pass over the
    /// hashes each.
    static func copySets(
        _ facts: [CopyFacts], threshold: Int = threshold, colourLimit: Double, pairLimit: Int = 4_000_000,
        colours: (_ position: Int) -> [Double]?
    ) -> [[Int]] {
        var sets = DisjointSets(count: facts.count)
        var previous: Int?
        for index in facts.indices.map({ Int32(truncatingIfNeeded: $0) })
            .sorted(by: { (facts[Int($0)].content, $0) < (facts[Int($1)].content, $1) }).lazy.map(Int.init)
        {
            if let previous, facts[previous].content == facts[index].content { sets.union(previous, index) }
            previous = index
        }
        // Never a set holding two different shots: a copy without metadata near two frames of
        // a burst joins the nearer, not both into one. So each set of two or more keeps its
        // files with metadata, and each file's pairs are taken nearest first, file by file.
        var shots: [Int: [Int]] = [:]
        // And its hashed files, so that no chain of near pairs (each within the threshold,
        // but the ends far apart) makes one group of look-alikes across a large library.
        var spanned: [Int: [Int]] = [:]
        for index in facts.indices where sets.size(of: index) > 1 {
            if facts[index].hasExif { shots[sets.find(index), default: []].append(index) }
            if facts[index].hashed { spanned[sets.find(index), default: []].append(index) }
        }
        let hashed = facts.indices.filter { facts[$0].hashed }.map { Int32(truncatingIfNeeded: $0) }
        let hashes = hashed.map { facts[Int($0)].perceptualHash }
        var (start, span) = (0, hashed.count)
        while start < hashed.count {
            let range = start..<min(hashed.count, start + span)
            var pairs: [NearPair] = []
            let complete = NearPairs.forEach(hashes, radius: threshold, firstIn: range) { a, b, distance in
                let (x, y) = (facts[Int(hashed[a])], facts[Int(hashed[b])])
                guard x.content != y.content, !x.differentShots(y), x.detailAgrees(y) else { return true }
                pairs.append(
                    NearPair(
                        a: Int32(truncatingIfNeeded: a), b: Int32(truncatingIfNeeded: b),
                        distance: Int32(truncatingIfNeeded: distance)))
                return pairs.count < pairLimit || range.count == 1
            }
            guard complete else {
                span = max(1, span / 2)
                continue
            }
            pairs.sort { ($0.a, $0.distance, $0.b) < ($1.a, $1.distance, $1.b) }
            var own: (index: Int, colours: [Double]?)?
            for pair in pairs {
                let (a, b) = (Int(hashed[Int(pair.a)]), Int(hashed[Int(pair.b)]))
                let (first, second) = (sets.find(a), sets.find(b))
                guard first != second else { continue }
                let ends = (spanned[first] ?? [first], spanned[second] ?? [second])
                guard !ends.0.contains(where: { x in ends.1.contains { facts[x].spreadApart(facts[$0]) } }) else {
                    continue
                }
                if own?.index != a { own = (a, colours(a)) }
                guard coloursAgree(own?.colours ?? nil, colours(b), limit: colourLimit) else { continue }
                let left = shots[first] ?? (sets.size(of: first) == 1 && facts[first].hasExif ? [first] : [])
                let right = shots[second] ?? (sets.size(of: second) == 1 && facts[second].hasExif ? [second] : [])
                guard !left.contains(where: { x in right.contains { facts[x].differentShots(facts[$0]) } }) else {
                    continue
                }
                sets.union(first, second)
                (shots[first], shots[second], spanned[first], spanned[second]) = (nil, nil, nil, nil)
                if !(left + right).isEmpty { shots[sets.find(first)] = left + right }
                spanned[sets.find(first)] = ends.0 + ends.1
            }
            start = range.upperBound
        }
        var members: [Int: [Int]] = [:]
        for index in facts.indices where sets.size(of: index) > 1 {
            members[sets.find(index), default: []].append(index)
        }
        return Array(members.values)
    }

    /// Two files whose hashes are near (positions among the hashed), 12 bytes.
    private struct NearPair {
        var a: Int32
        var b: Int32
        var distance: Int32
    }

    /// Whether one file is a copy of another, by which rule, and why, in words.
    public struct Verdict: Sendable, Equatable {
        /// Nil: not a copy.
        public var rule: DuplicateGroup.Rule?
        public var reason: String
        /// Their perceptual hashes' distance in bits, when both have one.
        public var distance: Int?
    }

    /// How `a` is a copy of `b`, by the rules of `find` (directly, not through a third), or
    /// why it is not.
    public static func verdict(
        _ a: ComparedFile, _ b: ComparedFile, threshold: Int = threshold, colourLimit: Double,
        colours: (_ placeholder: [UInt8]) -> [Double]?
    ) -> Verdict {
        let distance = a.perceptualHash.flatMap { ha in b.perceptualHash.map { ($0 ^ ha).nonzeroBitCount } }
        func no(_ reason: String) -> Verdict { Verdict(rule: nil, reason: reason, distance: distance) }
        if a.contentHash == b.contentHash { return Verdict(rule: .sameBytes, reason: "the same bytes", distance: nil) }
        if a.isVideo || b.isVideo { return no("a video is a copy only of the same bytes") }
        guard let distance else { return no("no perceptual hash to compare yet") }
        guard distance <= threshold else { return no("hashes \(distance) bits apart, beyond \(threshold)") }
        if let why = differentShots(a, b) { return no("different shots: \(why)") }
        let detail = a.detailHash.flatMap { da in b.detailHash.map { da.distance(to: $0) } }
        if let detail, detail > detailThreshold {
            return no("hashes \(distance) bits apart, but their details \(detail) apart, beyond \(detailThreshold)")
        }
        let difference = colourDifference(a.placeholder.flatMap(colours), b.placeholder.flatMap(colours))
        let colour = difference.map { Wording.number($0, decimals: 1) }
        if let difference, difference > colourLimit {
            return no("colours \(colour ?? "") apart, beyond \(Wording.number(colourLimit, decimals: 0))")
        }
        return Verdict(
            rule: .samePicture,
            reason: "hashes \(distance) bits apart" + (detail.map { ", details \($0)" } ?? "")
                + ", nothing says they are different shots"
                + (colour.map { ", colours \($0) apart" } ?? ""),
            distance: distance)
    }

    /// The mean difference of two photos' colours (0–255); nil without both.
    private static func colourDifference(_ a: [Double]?, _ b: [Double]?) -> Double? {
        guard let a, let b, a.count == b.count, !a.isEmpty else { return nil }
        return zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(a.count)
    }

    /// Whether two photos' colours differ by a mean of at most `limit`; without both, no
    /// evidence either way.
    private static func coloursAgree(_ a: [Double]?, _ b: [Double]?, limit: Double) -> Bool {
        colourDifference(a, b).map { $0 <= limit } ?? true
    }

    /// What in the metadata says two photos are different exposures; nil when nothing does.
    ///
    /// They are when both name a camera and not the same one, or both say when they were taken
    /// and not the same instant (a burst, a bracket, two shots of one scene). A copy keeps its
    /// original's, or has none.
    static func differentShots(_ a: ComparedFile, _ b: ComparedFile) -> String? {
        if let ma = a.make, let mb = b.make, ma != mb { return "cameras \(ma) and \(mb)" }
        if let ma = a.model, let mb = b.model, ma != mb { return "cameras \(ma) and \(mb)" }
        guard let ta = a.capturedAt, let tb = b.capturedAt else { return nil }
        let (sa, fa) = split(ta), (sb, fb) = split(tb)
        // A copy may have lost the fraction of a second: only two fractions can differ.
        if sa != sb || (fa != nil && fb != nil && fa != fb) { return "taken at \(ta) and \(tb)" }
        return nil
    }

    /// A capture time's whole seconds, and its fraction without trailing zeros (nil when none).
    static func split(_ time: String) -> (Substring, Substring?) {
        guard let dot = time.firstIndex(of: ".") else { return (time[...], nil) }
        var fraction = time[time.index(after: dot)...].prefix { $0.isNumber }
        while fraction.last == "0" { fraction.removeLast() }
        return (time[..<dot], fraction.isEmpty ? nil : fraction)
    }

    static func group(_ files: [ComparedFile]) -> DuplicateGroup {
        let rule: DuplicateGroup.Rule = Set(files.map(\.contentHash)).count == 1 ? .sameBytes : .samePicture
        let ordered = files.sorted { preferred($0, over: $1) }
        return DuplicateGroup(rule: rule, members: ordered, why: reason(ordered[0], ordered[1]))
    }

    /// The order of preference: the most pixels, an original's format, with its camera's
    /// metadata, the earliest file, then by path.
    static func preferred(_ a: ComparedFile, over b: ComparedFile) -> Bool {
        if a.pixels != b.pixels { return a.pixels > b.pixels }
        let (origin, otherOrigin) = (a.format.traits.origin, b.format.traits.origin)
        if origin != otherOrigin { return origin < otherOrigin }
        if a.hasExif != b.hasExif { return a.hasExif }
        if a.mtimeNanoseconds != b.mtimeNanoseconds { return a.mtimeNanoseconds < b.mtimeNanoseconds }
        return a.pathBytes.lexicographicallyPrecedes(b.pathBytes)
    }

    private static func reason(_ kept: ComparedFile, _ next: ComparedFile) -> String {
        if kept.pixels != next.pixels { return "the most pixels (\(kept.width ?? 0) × \(kept.height ?? 0))" }
        if kept.format.traits.origin != next.format.traits.origin {
            return "an original's format (\(kept.format.rawValue))"
        }
        if kept.hasExif != next.hasExif { return "it keeps the camera's metadata" }
        if kept.mtimeNanoseconds != next.mtimeNanoseconds { return "the earliest file" }
        return "the first by path"
    }
}

/// Union–find over `0..<count`, with path halving and union by size (8 bytes an element).
struct DisjointSets {
    private var parent: [Int32]
    private var sizes: [Int32]

    init(count: Int) {
        parent = (0..<count).map { Int32(truncatingIfNeeded: $0) }
        sizes = Array(repeating: 1, count: count)
    }

    mutating func find(_ element: Int) -> Int {
        var element = element
        while Int(parent[element]) != element {
            parent[element] = parent[Int(parent[element])]
            element = Int(parent[element])
        }
        return element
    }

    /// How many elements are in the set of `element`.
    mutating func size(of element: Int) -> Int { Int(sizes[find(element)]) }

    mutating func union(_ a: Int, _ b: Int) {
        var (a, b) = (find(a), find(b))
        guard a != b else { return }
        if sizes[a] < sizes[b] { swap(&a, &b) }
        parent[b] = Int32(truncatingIfNeeded: a)
        sizes[a] += sizes[b]
    }
}
