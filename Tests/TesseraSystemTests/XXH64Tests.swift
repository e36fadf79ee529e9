import TesseraSystem
import TesseraTestSupport
import Testing

struct XXH64Tests {
    // Known answers from the xxHash reference implementation (seed 0).
    @Test(arguments: [
        ("", UInt64(0xEF46_DB37_51D8_E999)),
        ("a", 0xD24E_C4F1_A98C_6E5B),
        ("abc", 0x44BC_2CF5_AD77_0999),
        ("Nobody inspects the spammish repetition", 0xFBCE_A83C_8A37_8BF1),
    ])
    func knownAnswers(input: String, expected: UInt64) {
        #expect(XXH64.hash(Array(input.utf8)) == expected)
    }
}

extension XXH64Tests {
    /// A file hashed in steps of any size gives the one-shot value.
    @Test func hashingInPiecesEqualsHashingAtOnce() {
        var random = SplitMix(seed: 7)
        let data = (0..<5000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for length in [0, 1, 31, 32, 33, 100, 4999, 5000] {
            let whole = Array(data.prefix(length))
            var hasher = XXH64.Hasher()
            var offset = 0
            while offset < whole.count {
                let step = Int(random.next() % 70) + 1
                let end = min(whole.count, offset + step)
                whole[offset..<end].withUnsafeBytes { hasher.update($0) }
                offset = end
            }
            #expect(hasher.finalize() == XXH64.hash(whole), "length \(length)")
        }
    }
}
