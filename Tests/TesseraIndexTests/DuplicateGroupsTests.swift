import TesseraFacts
import TesseraTestSupport
import Testing

@testable import TesseraIndex

/// The rules of `DuplicateGroups`, apart from the photos they are measured on.
struct DuplicateGroupsTests {
    /// Multi-index hashing finds exactly the pairs a comparison of every pair finds, each once.
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
            var found: [[Int]] = []
            var visited = 0
            NearPairs.forEach(hashes, radius: radius, visited: &visited) { a, b, distance in
                #expect(distance == (hashes[a] ^ hashes[b]).nonzeroBitCount)
                found.append([a, b])
            }
            var expected = Set<[Int]>()
            for a in hashes.indices {
                for b in hashes.indices where b > a && (hashes[a] ^ hashes[b]).nonzeroBitCount <= radius {
                    expected.insert([a, b])
                }
            }
            // Each pair once, whichever bands it is near in.
            #expect(found.count == Set(found).count, "radius \(radius): a pair given twice")
            #expect(Set(found) == expected, "radius \(radius): \(found.count) found, \(expected.count) expected")
            #expect(radius < 7 || expected.count > 100)
            // Only the buckets near one another are compared, not every pair.
            #expect(visited >= found.count && visited < hashes.count * hashes.count / 40)
        }
    }

    /// Some band of two hashes within the radius is within its tolerance: the tolerances sum to
    /// `radius − 3`, so no four bands can each differ by more.
    @Test func bandTolerancesAddUpToTheRadiusLessThree() {
        for radius in 0...40 {
            let tolerances = NearPairs.tolerances(radius: radius)
            #expect(tolerances.reduce(0, +) == radius - NearPairs.bands + 1)
            #expect(tolerances.max()! - tolerances.min()! <= 1)
        }
        #expect(NearPairs.tolerances(radius: 14) == [2, 3, 3, 3])
    }

    /// 3,000 copies of one picture (distinct bytes, one hash) and 500 frames of a timelapse of
    /// one still scene (one hash, a second apart) are decided with work in proportion to the
    /// files: the copies one set, no two frames together; the same with a few near hashes.
    @Test func copiesAndATimelapseCostInProportionToTheFiles() {
        for nearHashes in [1, 5] {
            var files: [ComparedFile] = []
            for id in 0..<3_000 {
                files.append(Self.photo(Int64(id), hash: 0xF0F0_1234_5678_9ABC ^ UInt64(id % nearHashes), camera: "A"))
            }
            for frame in 0..<500 {
                let time = "2024-05-01T10:\(String(100 + frame / 60).suffix(2)):\(String(100 + frame % 60).suffix(2))"
                files.append(
                    Self.photo(
                        Int64(10_000 + frame), hash: 0x0123_4567_0000_0000 ^ UInt64((frame % nearHashes) << 8), at: time
                    ))
            }
            // (and copies without metadata of a frame, which join one frame and nothing else)
            for copy in 0..<20 { files.append(Self.photo(Int64(20_000 + copy), hash: 0x0123_4567_0000_0000)) }
            let (sets, work) = CopySets.decide(
                CopyFacts.of(files), threshold: DuplicateGroups.threshold, colourLimit: 20
            ) {
                _ in nil
            }
            let groups = sets.map { Set($0.map { files[$0].id }) }.sorted { $0.count > $1.count }
            #expect(groups.map(\.count) == [3_000, 21], "\(nearHashes) hashes")
            #expect(groups.first?.subtracting(0..<3_000) == [])
            #expect(groups.last.map { $0.subtracting(20_000..<20_020).count == 1 } == true)
            // (each pair of the distinct hashes at most once in each band)
            #expect(work.hashPairs <= 4 * (2 * nearHashes) * (2 * nearHashes), "\(nearHashes) hashes: \(work)")
            #expect(work.lookups < 30 * files.count, "\(nearHashes) hashes: \(work)")
        }
    }

    /// A dense cluster of near hashes (every pair of 200 within the threshold) is decided with
    /// each hash's nearest kept once the pairs pass the limit held: every file in a group, none
    /// with more distinct hashes than a group stands for.
    @Test func aDenseClusterPastThePairLimitIsOneGroup() {
        var random = SplitMix(seed: 5)
        let base: UInt64 = 0x0F0F_1234_5678_9ABC
        let files = (0..<200).map { id in
            // (seven bits of the low byte flipped at most: any two within 14)
            Self.photo(Int64(id), hash: base ^ (random.next() & 0x7F))
        }
        let facts = CopyFacts.of(files)
        let (sets, work) = CopySets.decide(facts, threshold: DuplicateGroups.threshold, colourLimit: 20, pairLimit: 10)
        {
            _ in nil
        }
        #expect(sets.map(\.count).reduce(0, +) == 200)
        for set in sets { #expect(Set(set.map { files[$0].perceptualHash }).count <= CopySets.representativeLimit) }
        #expect(work.hashPairs >= 128 * 127 / 2)
    }

    /// Two frames of a burst a fraction of a second apart are different shots, ".0" included;
    /// a RAW and the JPEG made from it are never copies, whatever their hashes.
    @Test func burstFramesAndRawPairsAreNotCopies() {
        let groups = {
            DuplicateGroups.find($0, colourLimit: 20) { _ in nil }.map { $0.members.map(\.id).sorted() }
        }
        #expect(
            groups([
                Self.photo(1, hash: 7, at: "2024-05-01T10:00:00.000", camera: "A"),
                Self.photo(2, hash: 7, at: "2024-05-01T10:00:00.400", camera: "A"),
            ]).isEmpty)
        let raw = Self.photo(1, hash: 7, at: "2024-05-01T10:00:00", camera: "A", format: .raw)
        let jpeg = Self.photo(2, hash: 7, at: "2024-05-01T10:00:00", camera: "A")
        #expect(groups([raw, jpeg, Self.photo(3, hash: 7)]) == [[2, 3]])
        #expect(groups([raw, Self.photo(3, hash: 7, format: .raw), jpeg]) == [[1, 3]])
        let verdict = DuplicateGroups.verdict(raw, jpeg, colourLimit: 20) { _ in nil }
        #expect(verdict.rule == nil && verdict.reason == "a RAW and an image made from it are a stack, never copies")
    }

    /// The compact facts say two files are different shots exactly when their rows do.
    @Test func compactFactsTellDifferentShotsAsTheRowsDo() {
        let times = [
            nil, "2024-05-01T10:00:00", "2024-05-01T10:00:00.0", "2024-05-01T10:00:00.5", "2024-05-01T10:00:00.500",
            "2024-05-01T10:00:00.25",
            "2024-05-01T10:00:01",
        ]
        let cameras = [nil, "A", "B"]
        var files: [ComparedFile] = []
        for time in times {
            for camera in cameras {
                for format in [ImageFormat.jpeg, .raw] {
                    files.append(Self.photo(Int64(files.count), hash: 0, at: time, camera: camera, format: format))
                }
            }
        }
        // (a fraction of more than 9 digits too, and one that differs only past the 9th)
        files.append(Self.photo(100, hash: 0, at: "2024-05-01T10:00:00.1234567891", camera: "A"))
        files.append(Self.photo(101, hash: 0, at: "2024-05-01T10:00:00.1234567892", camera: "A"))
        files.append(Self.photo(102, hash: 0, at: "2024-05-01T10:00:00.05", camera: "A"))
        let facts = CopyFacts.of(files)
        for (a, x) in zip(files, facts) {
            for (b, y) in zip(files, facts) {
                #expect(
                    x.differentShots(y) == (DuplicateGroups.differentShots(a, b) != nil),
                    "\(a.capturedAt ?? "-") \(a.make ?? "-") against \(b.capturedAt ?? "-") \(b.make ?? "-")")
            }
        }
        let contents = CopyFacts.of([
            Self.photo(1, hash: 0, content: "x"), Self.photo(2, hash: 1, content: "x"), Self.photo(3, hash: 0),
            Self.photo(4, hash: 0, content: "00000000000000ab"), Self.photo(5, hash: 0, content: "ab"),
        ]).map(\.content)
        #expect(contents[0] == contents[1])
        #expect(Set(contents[1...]).count == 4)
    }

    static func photo(
        _ id: Int64, hash: UInt64, content: String? = nil, at time: String? = nil, camera: String? = nil,
        detail: DetailHash? = nil, format: ImageFormat = .jpeg
    ) -> ComparedFile {
        ComparedFile(
            id: id, pathBytes: Array("/p/\(id).jpg".utf8), format: format, isVideo: false, width: 100, height: 100,
            bytes: 1, mtimeNanoseconds: id, contentHash: content ?? "c\(id)", perceptualHash: hash, capturedAt: time,
            make: camera, model: camera, detailHash: detail)
    }

    /// A detail hash's bytes give it back, and its distance counts the bits that differ.
    @Test func detailHashesKeepTheirBitsAndCountTheirDistance() {
        let hash = DetailHash(settingBits: [1, 63, 64, 130, 255])
        #expect(DetailHash(bytes: hash.bytes) == hash)
        #expect(hash.bytes.count == DetailHash.byteCount)
        #expect(hash.bytes[0] == 0b10 && hash.bytes[31] == 0x80)
        #expect(hash.hex == "02000000000000800100000000000000040000000000000000000000000000" + "80")
        #expect(DetailHash(bytes: hash.bytes.dropLast()) == nil)
        #expect(hash.distance(to: DetailHash(settingBits: [1, 64, 200])) == 4)
        #expect(hash.distance(to: hash) == 0)
    }

    /// Photos whose perceptual hashes are near, with nothing in their metadata to part them,
    /// are not copies when their detail hashes are far apart: different pictures alike by chance.
    @Test func detailsFarApartPartPhotosWhoseHashesAreNear() {
        let hash: UInt64 = 0x0F0F_1234_5678_9ABC
        let odd = Array(stride(from: 1, to: 256, by: 2))
        let (threshold, spread) = (DuplicateGroups.detailThreshold, DuplicateGroups.detailSpread)
        let groups = {
            DuplicateGroups.find($0, colourLimit: 20) { _ in nil }.map { $0.members.map(\.id).sorted() }
        }
        // 2's details are far from all; 3's at the threshold from 1's; 4 has none to compare, so
        // the hashes decide, but 2 does not join 4 in a group with 1.
        let files = [
            Self.photo(1, hash: hash, detail: DetailHash(settingBits: odd)),
            Self.photo(2, hash: hash ^ 1, detail: DetailHash(settingBits: odd.map { $0 + 1 })),
            Self.photo(3, hash: hash ^ 2, detail: DetailHash(settingBits: odd.dropFirst(threshold))),
            Self.photo(4, hash: hash ^ 4),
        ]
        #expect(groups(files) == [[1, 3, 4]])
        let verdict = DuplicateGroups.verdict(files[1], files[0], colourLimit: 20) { _ in nil }
        #expect(verdict.rule == nil)
        #expect(verdict.reason == "hashes 1 bits apart, but their details 255 apart, beyond \(threshold)")
        let copy = DuplicateGroups.verdict(files[2], files[0], colourLimit: 20) { _ in nil }
        #expect(copy.rule == .samePicture)
        #expect(copy.reason.hasPrefix("hashes 1 bits apart, details \(threshold),"))
        // A chain whose ends' details are more than the spread apart is not one group.
        #expect(
            groups([
                Self.photo(1, hash: hash, detail: DetailHash(settingBits: odd)),
                Self.photo(2, hash: hash ^ 1, detail: DetailHash(settingBits: odd.dropFirst(spread - 40))),
                Self.photo(3, hash: hash ^ 3, detail: DetailHash(settingBits: odd.dropFirst(spread + 10))),
            ]) == [[1, 2]])
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
        // A chain of near pairs whose ends are far apart is not one group: each joins the nearer.
        let chain: [UInt64] = [0, 0x3FF, 0x3FF ^ 0x1F_FC00, 0x3FF ^ 0x1F_FC00 ^ 0x3FE0_0000]
        #expect(
            groups(chain.enumerated().map { Self.photo(Int64($0.offset + 1), hash: $0.element) }) == [[1, 2], [3, 4]])
        // Past the threshold, nothing.
        #expect(groups([Self.photo(1, hash: hash), Self.photo(2, hash: hash ^ 0x7FFF)]).isEmpty)
        // The same bytes whatever the hashes.
        let same = DuplicateGroups.find(
            [Self.photo(1, hash: 0, content: "x"), Self.photo(2, hash: ~0, content: "x")], colourLimit: 20
        ) { _ in nil }
        #expect(same.map(\.rule) == [.sameBytes])
    }
}
