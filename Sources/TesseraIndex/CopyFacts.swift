import TesseraFacts

/// What deciding copies compares of one file, in 80 bytes: a million files' facts fit in
/// 80 MB, where their rows would take a gigabyte.
struct CopyFacts: Sendable, Equatable {
    /// `phash`, when `hashed`.
    var perceptualHash: UInt64
    /// `phash_detail`, when `detailed`.
    var detail: DetailHash
    /// The content hash's value (its 16 hex digits read, else its digest).
    var content: UInt64
    /// The digest of the capture time's whole seconds (0: no capture time).
    var seconds: UInt64
    /// One more than the capture time's fraction in nanoseconds, exactly when it has at most 9
    /// digits (else a digest above 2³¹); 0: none (".0" is a fraction: the camera said zero).
    var fraction: UInt32
    /// The camera's make and model, numbered by `Names` (0: none).
    var make: UInt32
    var model: UInt32
    /// A photo with a perceptual hash (not a video, not a photo waiting for one).
    var hashed: Bool
    var detailed: Bool
    /// A camera RAW: never a copy of an image made from it (`ImageFormat.Traits.isRaw`).
    var raw: Bool

    /// Numbers for the names of cameras: a library has few.
    struct Names {
        private var numbers: [String: UInt32] = [:]

        mutating func number(_ name: String?) -> UInt32 {
            guard let name else { return 0 }
            if let known = numbers[name] { return known }
            let next = UInt32(truncatingIfNeeded: numbers.count + 1)
            numbers[name] = next
            return next
        }
    }

    /// The facts of `files`, in their order.
    static func of(_ files: [ComparedFile]) -> [CopyFacts] {
        var names = Names()
        return files.map { CopyFacts($0, names: &names) }
    }

    init(_ file: ComparedFile, names: inout Names) {
        self.init(
            isVideo: file.isVideo, perceptualHash: file.perceptualHash, detail: file.detailHash,
            contentHash: file.contentHash, capturedAt: file.capturedAt, make: file.make, model: file.model,
            raw: file.format.traits.isRaw, names: &names)
    }

    init(
        isVideo: Bool, perceptualHash: UInt64?, detail: DetailHash?, contentHash: String, capturedAt: String?,
        make: String?, model: String?, raw: Bool, names: inout Names
    ) {
        self.raw = raw
        self.perceptualHash = perceptualHash ?? 0
        hashed = !isVideo && perceptualHash != nil
        self.detail = detail ?? DetailHash(words: (0, 0, 0, 0))
        detailed = detail != nil
        content =
            contentHash.utf8.count == 16
            ? UInt64(contentHash, radix: 16) ?? Self.digest(contentHash[...]) : Self.digest(contentHash[...])
        let (whole, fraction) = capturedAt.map(DuplicateGroups.split) ?? ("", nil)
        seconds = capturedAt == nil ? 0 : Self.digest(whole)
        self.fraction = fraction.map(Self.nanoseconds) ?? 0
        self.make = names.number(make)
        self.model = names.number(model)
    }

    /// What its metadata says of the shot it is.
    var shot: ShotKey { ShotKey(make: make, model: model, seconds: seconds, fraction: fraction, raw: raw) }

    /// Whether the metadata says the two cannot be copies (`DuplicateGroups.differentShots`).
    func differentShots(_ other: CopyFacts) -> Bool { !shot.admits(other.shot) }

    /// Whether a second look at their details agrees (`DuplicateGroups.detailThreshold`);
    /// without both, no evidence either way.
    func detailAgrees(_ other: CopyFacts) -> Bool {
        !detailed || !other.detailed || detail.distance(to: other.detail) <= DuplicateGroups.detailThreshold
    }

    /// Whether the two may not be in one group: hashes more than `DuplicateGroups.spread` apart,
    /// or details more than `DuplicateGroups.detailSpread`.
    func spreadApart(_ other: CopyFacts) -> Bool {
        (perceptualHash ^ other.perceptualHash).nonzeroBitCount > DuplicateGroups.spread
            || (detailed && other.detailed && detail.distance(to: other.detail) > DuplicateGroups.detailSpread)
    }

    /// A fraction's digits (no trailing zeros; none for zero) as one more than its nanoseconds,
    /// never 0.
    private static func nanoseconds(_ digits: Substring) -> UInt32 {
        if digits.isEmpty { return 1 }
        guard digits.utf8.count <= 9, let value = UInt32(digits) else {
            return UInt32(truncatingIfNeeded: digest(digits)) | 0x8000_0000
        }
        return (digits.utf8.count..<9).reduce(value) { scaled, _ in scaled * 10 } + 1
    }

    /// FNV-1a of `text`'s UTF-8, never 0 (which stands for none): two different texts agree by
    /// chance once in 2⁶⁴, as rarely as two files' content hashes do.
    private static func digest(_ text: Substring) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash == 0 ? 1 : hash
    }
}
