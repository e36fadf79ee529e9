/// A 256-bit fingerprint of what a photo shows, finer than its 64-bit perceptual hash: the
/// second look that parts two different pictures whose coarse hashes are near by chance
/// (docs/DUPLICATES.md).
///
/// Bit `16 · v + u` stands for the DCT coefficient of vertical frequency `v` and horizontal `u`
/// (each 0–15); bit 0, the constant term, is always clear.
public struct DetailHash: Sendable, Hashable {
    /// The bits, 64 to a word, the lowest first.
    public let words: (UInt64, UInt64, UInt64, UInt64)

    /// How many bytes `bytes` holds.
    public static let byteCount = 32

    public init(words: (UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    /// The hash whose bits are `set` (each 0–255).
    public init(settingBits set: some Sequence<Int>) {
        var words = [UInt64](repeating: 0, count: 4)
        for bit in set where (0..<256).contains(bit) { words[bit / 64] |= 1 << UInt64(bit % 64) }
        self.words = (words[0], words[1], words[2], words[3])
    }

    /// The hash as `bytes` gives it; nil unless exactly `byteCount` bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        var words = [UInt64](repeating: 0, count: 4)
        for (index, byte) in bytes.enumerated() { words[index / 8] |= UInt64(byte) << UInt64(8 * (index % 8)) }
        self.words = (words[0], words[1], words[2], words[3])
    }

    /// Its 32 bytes, as the index keeps them: each word little-endian, the lowest first.
    public var bytes: [UInt8] {
        [words.0, words.1, words.2, words.3].flatMap { word in
            (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
        }
    }

    /// `bytes` in hexadecimal (64 digits), as SQLite's `hex(phash_detail)` gives them.
    public var hex: String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// How many bits two hashes differ in (0–256).
    public func distance(to other: DetailHash) -> Int {
        (words.0 ^ other.words.0).nonzeroBitCount + (words.1 ^ other.words.1).nonzeroBitCount
            + (words.2 ^ other.words.2).nonzeroBitCount + (words.3 ^ other.words.3).nonzeroBitCount
    }

    public static func == (a: DetailHash, b: DetailHash) -> Bool {
        a.words == b.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
