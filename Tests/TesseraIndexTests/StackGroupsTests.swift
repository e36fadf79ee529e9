import TesseraFacts
import Testing

@testable import TesseraIndex

/// RAW pairs and bursts, decided from names and metadata.
struct StackGroupsTests {
    static func file(
        _ id: Int64, _ name: String, format: ImageFormat = .jpeg, at time: String? = nil, camera: String? = "A",
        album: Int64 = 1, rating: Int? = nil, bias: Double? = nil, burst: String? = nil, serial: String? = nil
    ) -> ComparedFile {
        ComparedFile(
            id: id, pathBytes: Array("/photos/\(name)".utf8), format: format, isVideo: false, width: 10, height: 10,
            bytes: 1, mtimeNanoseconds: 0, contentHash: "c\(id)", perceptualHash: nil, capturedAt: time, make: camera,
            model: camera, albumID: album, rating: rating, exposureBias: bias, burstIdentifier: burst,
            serialNumber: serial)
    }

    @Test func aRawAndTheImageMadeFromItAreOneStackWithTheImageAsItsFace() {
        let stacks = StackGroups.find([
            Self.file(1, "DSC_0001.NEF", format: .raw), Self.file(2, "dsc_0001.jpg"),
            // Pixel's names for one shot.
            Self.file(3, "PXL_20240501_100000123.RAW-02.ORIGINAL.dng", format: .raw),
            Self.file(4, "PXL_20240501_100000123.RAW-01.COVER.jpg"),
            // Alone, or in another folder: no stack.
            Self.file(5, "DSC_0002.NEF", format: .raw), Self.file(6, "DSC_0003.jpg", album: 2),
            Self.file(7, "DSC_0003.NEF", format: .raw),
        ])
        #expect(stacks.map(\.kind) == [.rawPair, .rawPair])
        #expect(Set(stacks.map { $0.members.map(\.id) }) == [[2, 1], [4, 3]])
    }

    @Test func aRawAndAnImageOfOneBodyAndOneInstantAreAPairWhateverTheirNames() {
        let stacks = StackGroups.find([
            Self.file(1, "IMG_0001.CR3", format: .raw, at: "2024-05-01T10:00:00.92", serial: "S1"),
            Self.file(2, "2024-05-01 holiday.jpg", at: "2024-05-01T10:00:00.92", serial: "S1"),
            // Another body of the same model, or no fraction of a second: no pair.
            Self.file(3, "IMG_0002.CR3", format: .raw, at: "2024-05-01T11:00:00.50", serial: "S1"),
            Self.file(4, "other body.jpg", at: "2024-05-01T11:00:00.50", serial: "S2"),
            Self.file(5, "IMG_0003.CR3", format: .raw, at: "2024-05-01T12:00:00"),
            Self.file(6, "whole second.jpg", at: "2024-05-01T12:00:00"),
        ])
        #expect(stacks.map(\.kind) == [.rawPair] && stacks.first?.members.map(\.id) == [2, 1], "\(stacks)")
    }

    @Test func shotsOneCameraTookWithinASecondOfEachOtherAreABurst() {
        let stacks = StackGroups.find([
            Self.file(1, "a.jpg", at: "2024-05-01T10:00:00.10"),
            Self.file(2, "b.jpg", at: "2024-05-01T10:00:00.30", rating: 4),
            Self.file(3, "c.jpg", at: "2024-05-01T10:00:01.20"),
            // 1.5 s later: another burst; the same moment by another camera, or without a fraction: none.
            Self.file(4, "d.jpg", at: "2024-05-01T10:00:02.70"), Self.file(5, "e.jpg", at: "2024-05-01T10:00:02.90"),
            Self.file(6, "f.jpg", at: "2024-05-01T10:00:00.20", camera: "B"),
            Self.file(7, "g.jpg", at: "2024-05-01T10:00:00"),
            // Across midnight at the end of a month.
            Self.file(8, "h.jpg", at: "2024-02-29T23:59:59.80"), Self.file(9, "i.jpg", at: "2024-03-01T00:00:00.30"),
        ])
        let bursts = stacks.map { $0.members.map(\.id) }
        #expect(bursts == [[2, 1, 3], [4, 5], [8, 9]], "\(bursts)")
        #expect(stacks.first?.why.contains("best rated") == true)
    }

    @Test func stepsOfExposureCompensationAreABracketAndItsMeteredShotItsFace() {
        let stacks = StackGroups.find([
            // Two brackets in a row, of whole seconds: 0 met again begins the second.
            Self.file(1, "a.jpg", at: "2024-05-01T10:00:00", bias: 0),
            Self.file(2, "b.jpg", at: "2024-05-01T10:00:00", bias: -2),
            Self.file(3, "c.jpg", at: "2024-05-01T10:00:01", bias: 2),
            Self.file(4, "d.jpg", at: "2024-05-01T10:00:02", bias: -2),
            Self.file(5, "e.jpg", at: "2024-05-01T10:00:02", bias: 0),
            Self.file(6, "f.jpg", at: "2024-05-01T10:00:03", bias: 2),
            // One compensation for every shot is no bracket; nor are shots seconds apart.
            Self.file(7, "g.jpg", at: "2024-05-01T11:00:00", bias: -1),
            Self.file(8, "h.jpg", at: "2024-05-01T11:00:00", bias: -1),
            Self.file(9, "i.jpg", at: "2024-05-01T12:00:00", bias: 1),
            Self.file(10, "j.jpg", at: "2024-05-01T12:00:05", bias: -1),
        ])
        #expect(stacks.map(\.kind) == [.bracket, .bracket], "\(stacks)")
        #expect(Set(stacks.map { $0.members.map(\.id) }) == [[1, 2, 3], [5, 4, 6]], "\(stacks)")
        #expect(stacks.allSatisfy { $0.why.contains("metered") })
    }

    @Test func aBurstTheCameraNamedIsOneWhateverItsTimes() {
        let stacks = StackGroups.find([
            // Apple's BurstUUID, with no fraction of a second, and a frame taken seconds later.
            Self.file(1, "IMG_0001.JPG", at: "2024-05-01T10:00:00", burst: "U1"),
            Self.file(2, "IMG_0002.JPG", at: "2024-05-01T10:00:00", burst: "U1"),
            Self.file(3, "IMG_0003.JPG", at: "2024-05-01T10:00:04", burst: "U1"),
            Self.file(4, "IMG_0004.JPG", at: "2024-05-01T10:00:00", burst: "U2"),
            // A Google camera's names: the frame it picked is the face.
            Self.file(5, "00000IMG_00000_BURST20200101120000123.jpg", camera: nil),
            Self.file(6, "00001IMG_00001_BURST20200101120000123_COVER.jpg", camera: nil),
            Self.file(7, "IMG_20151025_160521_BURST001_COVER.jpg"), Self.file(8, "IMG_20151025_160521_BURST002.jpg"),
            Self.file(9, "IMG_20151025_170000_BURST001.jpg"),
            // Samsung's: a date and time shared, the frames counted after it; not a photo of
            // the same second saved again (`(1)`), nor a name of other digits.
            Self.file(10, "20231207_101605_001.jpg", camera: nil),
            Self.file(11, "20231207_101605_002.jpg", camera: nil),
            Self.file(12, "20231207_101605_039.jpg", camera: nil), Self.file(13, "20231207_101605(1).jpg", camera: nil),
            Self.file(14, "20231207_101605_0001.jpg", camera: nil), Self.file(15, "20231207_101606_001.jpg"),
        ])
        #expect(stacks.allSatisfy { $0.kind == .burst })
        #expect(
            Set(stacks.map { $0.members.map(\.id) }) == [[1, 2, 3], [6, 5], [7, 8], [10, 11, 12]], "\(stacks)")
        #expect(stacks.filter { $0.why.contains("COVER") }.count == 2)
    }

    @Test func aBurstOfRawPairsIsOneStackWithTheJPEGOfItsFirstShotAsItsFace() {
        let stacks = StackGroups.find([
            Self.file(1, "DSC_0001.NEF", format: .raw, at: "2024-05-01T10:00:00.10"),
            Self.file(2, "DSC_0001.JPG", at: "2024-05-01T10:00:00.10"),
            Self.file(3, "DSC_0002.NEF", format: .raw, at: "2024-05-01T10:00:00.40"),
            Self.file(4, "DSC_0002.JPG", at: "2024-05-01T10:00:00.40"),
            // An edit beside its original, of the very same instant: no burst.
            Self.file(5, "IMG_4120.JPG", at: "2024-05-01T11:00:00.50"),
            Self.file(6, "IMG_E4120.JPG", at: "2024-05-01T11:00:00.50"),
        ])
        #expect(stacks.map(\.kind) == [.burst] && stacks.first?.members.map(\.id) == [2, 1, 4, 3], "\(stacks)")
    }

    @Test(arguments: ["2024-13-01T00:00:00.5", "99999999999999-01-01T00:00:00.5", "2024-01-01", "", "x.5"])
    func aCaptureTimeThatIsNoneIsNoInstant(time: String) {
        #expect(StackGroups.seconds(time) == nil)
    }
}
