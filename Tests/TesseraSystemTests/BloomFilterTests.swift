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

    @Test func aUnionHoldsTheMembersOfBothAndRefusesAnotherSize() {
        var albums = BloomFilter(expected: 1000), months = BloomFilter(expected: 1000)
        for number in 0..<500 { albums.insert("a\(number)") }
        for number in 0..<500 { months.insert("m\(number)") }
        #expect(!(0..<500).allSatisfy { albums.mayContain("m\($0)") }, "the test can tell them apart")
        let merged = albums.formUnion(months)
        #expect(merged)
        #expect((0..<500).allSatisfy { albums.mayContain("a\($0)") && albums.mayContain("m\($0)") })
        var other = BloomFilter(expected: 10)
        let refused = !other.formUnion(months)
        #expect(refused)
        #expect(!other.mayContain("m0"), "nothing added from a filter of another size")
    }
}
