import TesseraSystem
import Testing

/// The byte searches find what the standard library's generic ones find, at every offset.
struct ByteSearchTests {
    @Test func searchesAgreeWithTheStandardLibrary() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            // Few distinct bytes, so that partial matches are many.
            let bytes = { (count: Int) in (0..<count).map { _ in UInt8.random(in: 0...2, using: &random) } }
            let haystack = bytes(Int.random(in: 0...64, using: &random))
            let needle = bytes(Int.random(in: 1...4, using: &random))
            for start in 0...haystack.count {
                let expected = haystack[start...].firstRange(of: needle)?.lowerBound
                #expect(haystack.firstOffset(of: needle, from: start) == expected, "\(haystack) \(needle) \(start)")
            }
            #expect(haystack.firstOffset(of: needle[0]) == haystack.firstIndex(of: needle[0]))
        }
        #expect([1, 2, 3].firstOffset(of: [], from: 0) == nil)
        #expect([1, 2, 3].firstOffset(of: [3], from: 4) == nil)
        #expect([UInt8]().firstOffset(of: 0) == nil)
    }
}
