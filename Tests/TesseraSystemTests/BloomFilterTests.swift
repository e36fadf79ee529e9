import Testing

@testable import TesseraSystem

@Suite struct BloomFilterTests {
    @Test func everyMemberIsFoundAndFewOthersAre() {
        var filter = BloomFilter(expected: 100_000)
        let members = (0..<100_000).map { "media/fit-1024/\($0 % 256)/\($0).jpg" }
        for member in members { filter.insert(member) }
        #expect(members.allSatisfy(filter.mayContain))
        let others = (0..<100_000).filter { filter.mayContain("media/fit-1024/\($0 % 256)/other-\($0).jpg") }.count
        // About 1 in 120 when the filter holds what it was made for.
        #expect(others < 1_200, "\(others) of 100,000 others answer perhaps")
    }

    @Test func anEmptyOrOverfullFilterStillNeverForgets() {
        #expect(!BloomFilter(expected: 0).mayContain("a"))
        var small = BloomFilter(expected: 1)
        for number in 0..<1000 { small.insert("\(number)") }
        #expect((0..<1000).allSatisfy { small.mayContain("\($0)") })
    }
}
