/// A set that answers "perhaps" or "certainly not" in 10 bits per expected member: for
/// remembering millions of names where a wrong "perhaps" costs little and memory must stay
/// small.
///
/// Members are hashed twice with XXH64 and probed at `probes` positions (Kirsch and
/// Mitzenmacher's double hashing); with 10 bits and 7 probes per member, about one name in
/// 120 that was never added answers "perhaps". The same names give the same answers on
/// every run.
public struct BloomFilter: Sendable {
    private var words: [UInt64]
    private let bits: UInt64
    private static let probes: UInt64 = 7

    /// A filter for about `expected` members (more still work, with more wrong "perhaps").
    public init(expected: Int) {
        let count = max(1, (max(0, expected) * 10 + 63) / 64)
        words = [UInt64](repeating: 0, count: count)
        bits = UInt64(count) * 64
    }

    public mutating func insert(_ member: String) {
        let (first, second) = Self.hashes(member)
        for probe in 0..<Self.probes {
            let position = (first &+ probe &* second) % bits
            words[Int(position / 64)] |= 1 << (position % 64)
        }
    }

    /// False when `member` was certainly never inserted.
    public func mayContain(_ member: String) -> Bool {
        let (first, second) = Self.hashes(member)
        for probe in 0..<Self.probes {
            let position = (first &+ probe &* second) % bits
            if words[Int(position / 64)] & (1 << (position % 64)) == 0 { return false }
        }
        return true
    }

    private static func hashes(_ member: String) -> (UInt64, UInt64) {
        let bytes = Array(member.utf8)
        return (XXH64.hash(bytes), XXH64.hash(bytes, seed: 0x9E37_79B9_7F4A_7C15) | 1)
    }
}
