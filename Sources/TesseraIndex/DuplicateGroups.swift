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
        serialNumber: String? = nil
    ) {
        (self.id, self.pathBytes, self.format, self.isVideo) = (id, pathBytes, format, isVideo)
        (self.width, self.height, self.bytes, self.mtimeNanoseconds) = (width, height, bytes, mtimeNanoseconds)
        (self.contentHash, self.perceptualHash) = (contentHash, perceptualHash)
        (self.capturedAt, self.make, self.model, self.placeholder) = (capturedAt, make, model, placeholder)
        (self.albumID, self.rating, self.exposureBias) = (albumID, rating, exposureBias)
        (self.burstIdentifier, self.serialNumber) = (burstIdentifier, serialNumber)
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

    /// The groups of two or more among `files`, largest first.
    ///
    /// Two photos whose bytes differ are the same picture when their hashes are at most
    /// `threshold` apart, nothing says they are different shots, and their `colours` (from
    /// `placeholder`, 8 × 8 RGB) differ by a mean of at most `colourLimit`. Groups join such
    /// pairs, each photo's nearest first, but never two photos that are different shots.
    public static func find(
        _ files: [ComparedFile], threshold: Int = threshold, colourLimit: Double,
        colours: (_ placeholder: [UInt8]) -> [Double]?
    ) -> [DuplicateGroup] {
        var sets = DisjointSets(count: files.count)
        var byContent: [String: Int] = [:]
        for (index, file) in files.enumerated() {
            if let first = byContent.updateValue(index, forKey: file.contentHash) { sets.union(first, index) }
        }
        let hashed = files.indices.filter { !files[$0].isVideo && files[$0].perceptualHash != nil }
        let near = NearHashes(hashed.map { files[$0].perceptualHash ?? 0 }, radius: threshold)
        // Never a group holding two different shots: a copy without metadata near two frames of
        // a burst joins the nearer, not both into one. Each photo's pairs nearest first, one
        // photo at a time (memory bounded by one photo's neighbours, however dense a cluster).
        var shots: [Int: [Int]] = [:]
        for index in files.indices where files[index].hasExif { shots[sets.find(index), default: []].append(index) }
        for (position, index) in hashed.enumerated() {
            var pairs: [(distance: Int, other: Int)] = []
            // Colours decoded where they are compared, and not kept: 1.5 kB a photo, they would
            // hold as much memory as the rest of a library's facts together.
            var own: [Double]?? = nil
            near.forEach(within: position) { other in
                let (a, b) = (files[index], files[hashed[other]])
                guard a.contentHash != b.contentHash, differentShots(a, b) == nil else { return }
                if own == nil { own = a.placeholder.flatMap(colours) }
                guard coloursAgree(own ?? nil, b.placeholder.flatMap(colours), limit: colourLimit) else { return }
                pairs.append((((a.perceptualHash ?? 0) ^ (b.perceptualHash ?? 0)).nonzeroBitCount, hashed[other]))
            }
            for pair in pairs.sorted(by: { ($0.distance, $0.other) < ($1.distance, $1.other) }) {
                let (first, second) = (sets.find(index), sets.find(pair.other))
                guard first != second else { continue }
                let (left, right) = (shots[first] ?? [], shots[second] ?? [])
                guard !left.contains(where: { x in right.contains { differentShots(files[x], files[$0]) != nil } })
                else {
                    continue
                }
                sets.union(first, second)
                (shots[first], shots[second]) = (nil, nil)
                if !(left + right).isEmpty { shots[sets.find(first)] = left + right }
            }
        }
        var members: [Int: [Int]] = [:]
        for index in files.indices { members[sets.find(index), default: []].append(index) }
        return members.values.filter { $0.count > 1 }
            .map { indices in group(indices.map { files[$0] }) }
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
        if let why = differentShots(a, b) { return no("different shots: \(why)") }
        let difference = colourDifference(a.placeholder.flatMap(colours), b.placeholder.flatMap(colours))
        let colour = difference.map { Wording.number($0, decimals: 1) }
        if let difference, difference > colourLimit {
            return no("colours \(colour ?? "") apart, beyond \(Wording.number(colourLimit, decimals: 0))")
        }
        return Verdict(
            rule: .samePicture,
            reason: "hashes \(distance) bits apart, nothing says they are different shots"
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
    private static func split(_ time: String) -> (Substring, Substring?) {
        guard let dot = time.firstIndex(of: ".") else { return (time[...], nil) }
        var fraction = time[time.index(after: dot)...].prefix { $0.isNumber }
        while fraction.last == "0" { fraction.removeLast() }
        return (time[..<dot], fraction.isEmpty ? nil : fraction)
    }

    private static func group(_ files: [ComparedFile]) -> DuplicateGroup {
        let rule: DuplicateGroup.Rule = Set(files.map(\.contentHash)).count == 1 ? .sameBytes : .samePicture
        let ordered = files.sorted { preferred($0, over: $1) }
        return DuplicateGroup(rule: rule, members: ordered, why: reason(ordered[0], ordered[1]))
    }

    /// The order of preference: the most pixels, an original's format, with its camera's
    /// metadata, the earliest file, then by path.
    static func preferred(_ a: ComparedFile, over b: ComparedFile) -> Bool {
        if a.pixels != b.pixels { return a.pixels > b.pixels }
        if rank(a.format) != rank(b.format) { return rank(a.format) < rank(b.format) }
        if a.hasExif != b.hasExif { return a.hasExif }
        if a.mtimeNanoseconds != b.mtimeNanoseconds { return a.mtimeNanoseconds < b.mtimeNanoseconds }
        return a.pathBytes.lexicographicallyPrecedes(b.pathBytes)
    }

    /// Cameras write RAW, then JPEG, HEIF or JPEG XL; PNG and WebP are mostly made later.
    private static func rank(_ format: ImageFormat) -> Int {
        switch format {
        case .raw: 0
        case .jpeg, .heif, .avif, .jxl: 1
        case .png: 2
        default: 3
        }
    }

    private static func reason(_ kept: ComparedFile, _ next: ComparedFile) -> String {
        if kept.pixels != next.pixels { return "the most pixels (\(kept.width ?? 0) × \(kept.height ?? 0))" }
        if rank(kept.format) != rank(next.format) { return "an original's format (\(kept.format.rawValue))" }
        if kept.hasExif != next.hasExif { return "it keeps the camera's metadata" }
        if kept.mtimeNanoseconds != next.mtimeNanoseconds { return "the earliest file" }
        return "the first by path"
    }
}

/// Union–find over `0..<count`, with path halving and union by size.
struct DisjointSets {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
    }

    mutating func find(_ element: Int) -> Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    mutating func union(_ a: Int, _ b: Int) {
        var (a, b) = (find(a), find(b))
        guard a != b else { return }
        if size[a] < size[b] { swap(&a, &b) }
        parent[b] = a
        size[a] += size[b]
    }
}

/// Hashes within a Hamming radius of one another, found by multi-index hashing (Norouzi,
/// Punjani and Fleet, 2012): each hash is split into four 16-bit bands, and two hashes at most
/// `radius` apart agree to within `radius / 4` bits in at least one band, so only the buckets
/// that near reach are read, not every pair.
struct NearHashes {
    static let bands = 4
    private let hashes: [UInt64]
    private let radius: Int
    /// Per band, the positions of the hashes sorted by that band's value, the hashes in the
    /// same order (read in runs, not looked up one by one across memory), and where each
    /// value's run starts (65,537 offsets).
    private var order: [[Int32]] = []
    private var sorted: [[UInt64]] = []
    private var starts: [[Int32]] = []
    /// The 16-bit masks of at most `radius / 4` bits.
    private let masks: [UInt16]

    init(_ hashes: [UInt64], radius: Int) {
        self.hashes = hashes
        self.radius = radius
        masks = Self.masks(within: radius / Self.bands)
        for band in 0..<Self.bands {
            var counts = [Int32](repeating: 0, count: 65_537)
            for hash in hashes { counts[Int(Self.value(hash, band)) + 1] += 1 }
            for value in 1..<counts.count { counts[value] += counts[value - 1] }
            var next = counts
            var positions = [Int32](repeating: 0, count: hashes.count)
            var inOrder = [UInt64](repeating: 0, count: hashes.count)
            for (position, hash) in hashes.enumerated() {
                let value = Int(Self.value(hash, band))
                positions[Int(next[value])] = Int32(position)
                inOrder[Int(next[value])] = hash
                next[value] += 1
            }
            order.append(positions)
            sorted.append(inOrder)
            starts.append(counts)
        }
    }

    /// The 16-bit masks of at most `bits` bits: what turns a band's value into its neighbours.
    static func masks(within bits: Int) -> [UInt16] {
        (0...UInt16.max).filter { $0.nonzeroBitCount <= bits }
    }

    static func value(_ hash: UInt64, _ band: Int) -> UInt16 {
        UInt16(truncatingIfNeeded: hash >> (16 * UInt64(band)))
    }

    /// Calls `body` once with each position after `position` whose hash is within the radius.
    func forEach(within position: Int, _ body: (Int) -> Void) {
        let hash = hashes[position]
        var seen = Set<Int32>()
        for band in 0..<Self.bands {
            let value = Self.value(hash, band)
            let (runs, inOrder, positions) = (starts[band], sorted[band], order[band])
            for mask in masks {
                let bucket = Int(value ^ mask)
                for slot in Int(runs[bucket])..<Int(runs[bucket + 1])
                where (inOrder[slot] ^ hash).nonzeroBitCount <= radius {
                    let other = positions[slot]
                    guard Int(other) > position, seen.insert(other).inserted else { continue }
                    body(Int(other))
                }
            }
        }
    }
}
