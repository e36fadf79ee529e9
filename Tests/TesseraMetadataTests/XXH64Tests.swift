import TesseraMetadata
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
