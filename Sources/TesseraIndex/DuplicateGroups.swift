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
    /// pairs, the nearest first, but never two photos that are different shots, nor a RAW and
    /// an image made from it, nor two whose hashes are more than `spread` apart (or details
    /// more than `detailSpread`). Its cost grows with the files, not their pairs (`CopySets`).
    public static func find(
        _ files: [ComparedFile], threshold: Int = threshold, colourLimit: Double,
        colours: (_ placeholder: [UInt8]) -> [Double]?
    ) -> [DuplicateGroup] {
        CopySets.decide(CopyFacts.of(files), threshold: threshold, colourLimit: colourLimit) {
            files[$0].placeholder.flatMap(colours)
        }
        .sets.map { group($0.map { files[$0] }) }
        .sorted { ($0.members.count, $1.members[0].id) > ($1.members.count, $0.members[0].id) }
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
        if a.format.traits.isRaw != b.format.traits.isRaw {
            return no("a RAW and an image made from it are a stack, never copies")
        }
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
    static func colourDifference(_ a: [Double]?, _ b: [Double]?) -> Double? {
        guard let a, let b, a.count == b.count, !a.isEmpty else { return nil }
        return zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(a.count)
    }

    /// What in the metadata says two photos are different exposures, or not copies at all; nil
    /// when nothing does.
    ///
    /// They are when both name a camera and not the same one, or both say when they were taken
    /// and not the same instant (a burst, a bracket, two shots of one scene: a fraction of ".0"
    /// is a fraction, which a copy that lost it has not). A copy keeps its original's, or has
    /// none. A RAW and an image made from it are a stack, never copies.
    static func differentShots(_ a: ComparedFile, _ b: ComparedFile) -> String? {
        if a.format.traits.isRaw != b.format.traits.isRaw { return "a RAW and an image made from it" }
        if let ma = a.make, let mb = b.make, ma != mb { return "cameras \(ma) and \(mb)" }
        if let ma = a.model, let mb = b.model, ma != mb { return "cameras \(ma) and \(mb)" }
        guard let ta = a.capturedAt, let tb = b.capturedAt else { return nil }
        let (sa, fa) = split(ta), (sb, fb) = split(tb)
        // A copy may have lost the fraction of a second: only two fractions can differ.
        if sa != sb || (fa != nil && fb != nil && fa != fb) { return "taken at \(ta) and \(tb)" }
        return nil
    }

    /// A capture time's whole seconds, and its fraction without trailing zeros (nil when none;
    /// empty when zero).
    static func split(_ time: String) -> (Substring, Substring?) {
        guard let dot = time.firstIndex(of: ".") else { return (time[...], nil) }
        var fraction = time[time.index(after: dot)...].prefix { $0.isNumber }
        let written = !fraction.isEmpty
        while fraction.last == "0" { fraction.removeLast() }
        return (time[..<dot], written ? fraction : nil)
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
