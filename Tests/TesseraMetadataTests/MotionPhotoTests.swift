import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import TesseraVideo
import Testing

/// Motion photos built here by appending an MP4 to a JPEG whose XMP says where it is, as Google's
/// cameras write them, and the corpus's real ones.
@Suite(.enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed"))
struct MotionPhotoTests {
    static func mp4() throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: try VideoFixture.clip(in: directory))))
    }

    /// Google's Container directory: the video item's length counts its padding too.
    ///
    /// Cameras
    /// write each item as a typed node (`<rdf:li><Container:Item …/>`); an editor may write
    /// Container:Item as a field (`rdf:parseType="Resource"`).
    static func directory(videoLength: Int, padding: Int = 0, typed: Bool = true) -> String {
        let li = typed ? "<rdf:li>" : #"<rdf:li rdf:parseType="Resource">"#
        return """
            <Container:Directory><rdf:Seq>
            \(li)<Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>
            \(li)<Container:Item Item:Semantic="MotionPhoto" Item:Mime="video/mp4" \
            Item:Length="\(videoLength + padding)" Item:Padding="\(padding)"/></rdf:li>
            </rdf:Seq></Container:Directory>
            """
    }

    static let namespaces =
        #"xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/""#

    @Test(arguments: [true, false])
    func theVideoAContainerDirectoryPointsAtIsFoundAndChecked(typed: Bool) throws {
        let video = try Self.mp4()
        // A trailer after the MP4 that is not one of its boxes (Samsung's SEF) is not part of it.
        let trailer = [0, 0, 0, 16] + Array("sefd".utf8) + [UInt8](repeating: 7, count: 8)
        let xmp = XMPTests.packet(
            Self.directory(videoLength: video.count, padding: trailer.count, typed: typed),
            attributes: Self.namespaces + #" GCamera:MotionPhoto="1""#)
        let still = try XMPTests.jpeg(app1: [XMPTests.xmpPrefix + xmp])
        let metadata = try XMPTests.read(still + video + trailer)
        #expect(metadata.format == .jpeg)
        #expect(metadata.motion.map { [$0.offset, $0.length] } == [Int64(still.count), Int64(video.count)])
        #expect(metadata.motion?.codec == "h264")
        // The movie header's duration, as FFmpeg reads it.
        let facts = try FileReader.withBytes(
            video, path: FilePath("clip.mp4"), mtime: .init(seconds: 0, nanoseconds: 0)
        ) {
            (reader) throws(VideoError) -> VideoFacts in try VideoFacts.read(reader.stream())
        }
        #expect(facts.duration != nil && metadata.motion?.duration == facts.duration)
        #expect(metadata.warnings.isEmpty)
    }

    @Test func microVideoCountsItsOffsetFromTheEnd() throws {
        let video = try Self.mp4()
        let xmp = XMPTests.packet(
            "",
            attributes: Self.namespaces
                + #" GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\#(video.count)""#)
        let still = try XMPTests.jpeg(app1: [XMPTests.xmpPrefix + xmp])
        let metadata = try XMPTests.read(still + video)
        #expect(metadata.motion.map { [$0.offset, $0.length] } == [Int64(still.count), Int64(video.count)])
    }

    /// Samsung's older motion photos: no XMP, a SEF trailer whose "MotionPhoto_Data" field holds
    /// the MP4, and other fields around it (as a depth map or the edit data are).
    @Test func aSamsungTrailerLeadsToItsVideo() throws {
        let video = try Self.mp4()
        var exif = ExifBuilder()
        exif.make = "samsung"
        let still = try XMPTests.jpeg(exif: exif, app1: [])
        func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let other: [UInt8] = [0, 0, 0x01, 0x0B] + le(9) + Array("Other_Hed".utf8) + [1, 2, 3]
        let name = Array("MotionPhoto_Data".utf8)
        let field: [UInt8] = [0, 0, 0x30, 0x0A] + le(name.count) + name + video
        let trailer = other + field
        // Entries: marker, distance back from SEFH to the field, the field's length.
        let directory: [UInt8] =
            Array("SEFH".utf8) + le(107) + le(2)
            + [0, 0, 0x01, 0x0B] + le(trailer.count) + le(other.count)
            + [0, 0, 0x30, 0x0A] + le(field.count) + le(field.count)
        let file = still + trailer + directory + le(directory.count) + Array("SEFT".utf8)
        let metadata = try XMPTests.read(file)
        #expect(
            metadata.motion.map { [$0.offset, $0.length] } == [
                Int64(still.count + other.count + 8 + name.count), Int64(video.count),
            ])
        #expect(metadata.motion?.codec == "h264")
        // Another maker's JPEG is not read at its end.
        var nikon = ExifBuilder()
        nikon.make = "NIKON CORPORATION"
        let other2 = try XMPTests.jpeg(exif: nikon, app1: [])
        #expect(try XMPTests.read(other2 + Array(file[still.count...])).motion == nil)
        // A trailer whose field holds no MP4 is no motion photo.
        var broken = file
        broken[still.count + other.count + 8 + name.count + 4] = UInt8(ascii: "x")
        #expect(try XMPTests.read(broken).motion == nil)
    }

    @Test func aPromiseWithoutAVideoIsAWarningAndTheStillIsUnharmed() throws {
        let xmp = XMPTests.packet(
            Self.directory(videoLength: 5000), attributes: Self.namespaces + #" GCamera:MotionPhoto="1""#)
        let still = try XMPTests.jpeg(app1: [XMPTests.xmpPrefix + xmp])
        let metadata = try XMPTests.read(still + [UInt8](repeating: 0x55, count: 6000))
        #expect(metadata.motion == nil)
        #expect(metadata.warnings.contains { $0.contains("no MP4 starts where it says") })
        #expect(metadata.width > 0)
        // No XMP, no search: an MP4 merely appended is not taken for a motion photo.
        let plain = try XMPTests.jpeg(app1: [])
        #expect(try XMPTests.read(plain + (try Self.mp4())).motion == nil)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func realMotionPhotos() throws {
        let google = try MetadataReader.read(at: FilePath(Corpus.path("media/motion/motion_photo.jpeg")))
        #expect(google.motion.map { [$0.offset, $0.length] } == [30821, 122_562])
        let samsung = try MetadataReader.read(at: FilePath(Corpus.path("media/motion/samsung-one-ui-6.heic")))
        #expect(samsung.motion.map { [$0.offset, $0.length] } == [452_284, 3_226_469])
        #expect(abs((samsung.motion?.duration ?? 0) - 3.13) < 0.01)
        #expect(samsung.motion?.codec == "hevc")
        let lookalike = try MetadataReader.read(at: FilePath(Corpus.path("media/motion/not-motion/pixel_8.jpg")))
        #expect(lookalike.motion == nil)
    }
}

/// Motion photos whose MP4 claims box sizes no file has: read without a trap, with no video.
struct CraftedMotionPhotoTests {
    @Test(arguments: [UInt64(Int64.max), UInt64.max, 1 << 63, UInt64(Int64.max) - 7, 0, 15, 16, 17, 24, 25])
    func aBoxSizeNoFileHasIsNoVideoAndNoCrash(largeSize: UInt64) throws {
        let bytes = try SampleMotionPhoto.jpeg(video: SampleMotionPhoto.boxes(largeSize: largeSize))
        let metadata = try XMPTests.read(bytes)
        #expect(metadata.format == .jpeg && metadata.width == 64)
        // Only a moov that holds its own header and fits the file (16 to 24 bytes) makes a video.
        #expect((metadata.motion != nil) == (16...24).contains(largeSize), "\(String(describing: metadata.motion))")
    }
}
