import Testing

@testable import TesseraAlbum

/// What a build's pages refer to, in filters that grow with it: every member found, few
/// others, and nothing held before the first member.
struct GrowingFilterTests {
    @Test func everyMemberIsFoundAcrossFiltersAndFewOthersAre() {
        var filter = GrowingFilter()
        #expect(!filter.mayContain("media/fit-1024/00/a.jpg"))
        // Past the first three filters' room (64 Ki, 256 Ki, 1 Mi members): a fourth is made.
        let count = 1_500_000
        for number in 0..<count { filter.insert("media/fit-1024/\(number % 256)/\(number).jpg") }
        #expect((0..<count).allSatisfy { filter.mayContain("media/fit-1024/\($0 % 256)/\($0).jpg") })
        let others = (0..<100_000).filter { filter.mayContain("media/fit-1024/\($0 % 256)/other-\($0).jpg") }.count
        #expect(others < 4_000, "\(others) of 100,000 others answer perhaps")
    }
}
