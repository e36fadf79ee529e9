import TesseraFacts
import TesseraTestSupport
import Testing

@testable import TesseraIndex

/// The rules of `DuplicateGroups`, apart from the photos they are measured on.
struct DuplicateGroupsTests {
    /// Multi-index hashing finds exactly the pairs a comparison of every pair finds.
    @Test func nearHashesFindEveryPairWithinTheRadiusAndNoOther() {
        var random = SplitMix(seed: 3)
        var hashes: [UInt64] = []
        for _ in 0..<400 {
            let base = random.next()
            hashes.append(base)
            // A neighbour with a few bits flipped, up to twice the radius.
            var near = base
            for _ in 0..<Int(random.next() % 29) { near ^= 1 << (random.next() % 64) }
            hashes.append(near)
        }
        for radius in [0, 3, 7, 14] {
            let index = NearHashes(hashes, radius: radius)
            var found = Set<[Int]>()
            for position in hashes.indices { index.forEach(within: position) { found.insert([position, $0]) } }
            var expected = Set<[Int]>()
            for a in hashes.indices {
                for b in hashes.indices where b > a && (hashes[a] ^ hashes[b]).nonzeroBitCount <= radius {
                    expected.insert([a, b])
                }
            }
            #expect(found == expected, "radius \(radius): \(found.count) found, \(expected.count) expected")
            #expect(radius < 7 || expected.count > 100)
        }
    }

    static func photo(
        _ id: Int64, hash: UInt64, content: String? = nil, at time: String? = nil, camera: String? = nil
    ) -> ComparedFile {
        ComparedFile(
            id: id, pathBytes: Array("/p/\(id).jpg".utf8), format: .jpeg, isVideo: false, width: 100, height: 100,
            bytes: 1, mtimeNanoseconds: id, contentHash: content ?? "c\(id)", perceptualHash: hash, capturedAt: time,
            make: camera, model: camera)
    }

    /// Near hashes make copies unless the metadata says the two are different shots; a copy
    /// without metadata goes with either.
    @Test func differentShotsAreNeverCopies() {
        let groups = {
            DuplicateGroups.find($0, colourLimit: 20) { _ in nil }.map { $0.members.map(\.id).sorted() }
        }
        let hash: UInt64 = 0x0F0F_1234_5678_9ABC
        // A burst: one camera, one second, two fractions.
        #expect(
            groups([
                Self.photo(1, hash: hash, at: "2024-05-01T10:00:00.10", camera: "A"),
                Self.photo(2, hash: hash ^ 1, at: "2024-05-01T10:00:00.20", camera: "A"),
            ]).isEmpty)
        // Two cameras, or two seconds.
        #expect(
            groups([Self.photo(1, hash: hash, camera: "A"), Self.photo(2, hash: hash, camera: "B")]).isEmpty)
        #expect(
            groups([
                Self.photo(1, hash: hash, at: "2024-05-01T10:00:00"),
                Self.photo(2, hash: hash, at: "2024-05-01T10:00:01"),
            ]).isEmpty)
        // A copy that lost the fraction (".500" is ".5"), or all its metadata, is the same picture.
        #expect(
            groups([
                Self.photo(1, hash: hash, at: "2024-05-01T10:00:00.500", camera: "A"),
                Self.photo(2, hash: hash ^ 3, at: "2024-05-01T10:00:00", camera: "A"),
                Self.photo(3, hash: hash ^ 0xFF, at: "2024-05-01T10:00:00.5"), Self.photo(4, hash: hash ^ 0xF00),
            ]) == [[1, 2, 3, 4]])
        // A copy without metadata near two frames of a burst joins the nearer, never both into one.
        #expect(
            groups([
                Self.photo(1, hash: hash, at: "2024-05-01T10:00:00.10", camera: "A"),
                Self.photo(2, hash: hash ^ 0b1111, at: "2024-05-01T10:00:00.20", camera: "A"),
                Self.photo(3, hash: hash ^ 0b1),
            ]) == [[1, 3]])
        // Past the threshold, nothing.
        #expect(groups([Self.photo(1, hash: hash), Self.photo(2, hash: hash ^ 0x7FFF)]).isEmpty)
        // The same bytes whatever the hashes.
        let same = DuplicateGroups.find(
            [Self.photo(1, hash: 0, content: "x"), Self.photo(2, hash: ~0, content: "x")], colourLimit: 20
        ) { _ in nil }
        #expect(same.map(\.rule) == [.sameBytes])
    }
}
