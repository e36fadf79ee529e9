import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraImage
@testable import TesseraVideo

/// Videos made here with ffmpeg: facts from the container, and a poster frame that is upright
/// and not the black the camera recorded first.
@Suite(.enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed"))
struct VideoTests {
    /// The mean colour of the rows `rows` of an RGB image.
    static func mean(_ image: PixelBuffer, rows: Range<Int>) -> (Double, Double, Double) {
        var sums = (0.0, 0.0, 0.0)
        for y in rows {
            for x in 0..<image.width {
                let pixel = image[x, y]
                sums.0 += Double(pixel[pixel.startIndex])
                sums.1 += Double(pixel[pixel.startIndex + 1])
                sums.2 += Double(pixel[pixel.startIndex + 2])
            }
        }
        let count = Double(rows.count * image.width)
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    static func render(_ path: FilePath, fit: Int = 256) throws -> (Renderer.Rendered, PixelBuffer) {
        var options = RenderOptions()
        options.format = .png
        let rendered = try Renderer(options: options).render(file: path, specs: [.fit(fit), .square(64)])
        return (rendered, try PNGDecoder.decode(bytes: try #require(rendered.rendition(.fit(fit))?.bytes)))
    }

    @Test(arguments: [("libx264", "h264"), ("libx265", "hevc")])
    func aPortraitPhoneVideoIsUprightAndItsPosterIsNotTheBlackStart(codec: (encoder: String, name: String)) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = FilePath(
            try VideoFixture.clip(in: directory, name: "phone.mov", codec: codec.encoder, clockwise: 90))
        let metadata = try MetadataReader.read(at: path)
        #expect(metadata.format == .mov && metadata.format.isVideo)
        let video = try #require(metadata.video)
        #expect(video.codec == codec.name)
        #expect(video.rotation == 90 && metadata.orientation == 6)
        #expect(
            (metadata.width, metadata.height, metadata.displayWidth, metadata.displayHeight) == (320, 180, 180, 320))
        #expect(abs((video.duration ?? 0) - 3.5) < 0.15)
        #expect(video.frameRate == 10)

        let (rendered, poster) = try Self.render(path)
        // Upright: the stored left (red) is on top once turned clockwise.
        #expect((poster.width, poster.height) == (144, 256))
        let top = Self.mean(poster, rows: 10..<100), bottom = Self.mean(poster, rows: 156..<246)
        #expect(top.0 > 180 && top.2 < 80, "top \(top)")
        #expect(bottom.2 > 180 && bottom.0 < 80, "bottom \(bottom)")
        // Keyframes at 1 s and 2 s are black: the first after them (at 2.5 s, where an encoder
        // that cuts at scene changes puts one, or at 3 s) is shown.
        #expect((2.5..<3.5).contains(rendered.posterTime ?? 0), "\(String(describing: rendered.posterTime))")
        #expect(rendered.renditions.allSatisfy { $0.source == .videoFrame })
    }

    /// Timestamps are the file's: where to seek next saturates instead of trapping.
    @Test func aSeekTargetPastWhat64BitsHoldIsTheLastTimestamp() {
        #expect(PosterFrame.timestamp(at: 1.5, origin: 90_000, ticksPerSecond: 90_000) == 225_000)
        #expect(PosterFrame.timestamp(at: 1e30, origin: 0, ticksPerSecond: 1) == .max)
        #expect(PosterFrame.timestamp(at: 4e18, origin: .max - 10, ticksPerSecond: 1) == .max)
        #expect(PosterFrame.timestamp(at: 1, origin: .max - 10, ticksPerSecond: 1e6) == .max)
        #expect(PosterFrame.timestamp(at: .infinity, origin: 0, ticksPerSecond: 1) == .max)
        #expect(PosterFrame.timestamp(at: 2, origin: .min, ticksPerSecond: 1) == .min + 2)
    }

    /// A movie header whose duration is ISO's "unknown" does not make the clip 49 days long.
    @Test func aMovieHeaderWhoseDurationIsAllOnesIsNotBelieved() throws {
        // Given a clip whose movie header says its duration is 0xffffffff (ISO's "unknown"),
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try VideoFixture.clip(in: directory))))
        let mvhd = try #require(bytes.indices.dropLast(4).first { bytes[$0..<$0 + 4].elementsEqual("mvhd".utf8) })
        #expect(bytes[mvhd + 4] == 0)  // version 0: 32-bit times; the duration after two times and the timescale
        bytes.replaceSubrange((mvhd + 20)..<(mvhd + 24), with: [0xFF, 0xFF, 0xFF, 0xFF])
        // when its facts are read, then its duration is its stream's, not 49 days.
        let facts = try FileReader.withBytes(
            bytes, path: FilePath("clip.mp4"), mtime: .init(seconds: 0, nanoseconds: 0)
        ) {
            (reader) throws(VideoError) -> VideoFacts in try VideoFacts.read(reader.stream())
        }
        #expect(abs((facts.duration ?? 0) - 3.5) < 0.15, "\(String(describing: facts.duration))")
    }

    /// A short transport stream (as a camera's AVCHD .mts) whose only keyframe is its first
    /// frame, and whose clock does not start at zero: a search from a way in finds nothing
    /// after it, so the poster is that first keyframe.
    @Test func aStreamWithOneKeyframeShowsIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("00001.mts")
        try VideoFixture.run([
            "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=0.6", "-c:v", "libx264", "-g", "1000",
            "-output_ts_offset", "1.1", "-f", "mpegts", path,
        ])
        let metadata = try MetadataReader.read(at: FilePath(path))
        #expect(metadata.format == .mpegTS && metadata.video?.codec == "h264")
        let (rendered, poster) = try Self.render(FilePath(path))
        #expect((poster.width, poster.height) == (256, 144))
        #expect((rendered.posterTime ?? 1) < 0.05, "\(String(describing: rendered.posterTime))")
    }

    /// A stream that never yields a frame (every frame's data overwritten): a damaged video,
    /// recorded as an error, not a file Tessera does not read; and given up on within bounds.
    @Test func aStreamThatNeverYieldsAFrameIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try VideoFixture.clip(in: directory, extra: ["-movflags", "+faststart"])
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let mdat = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("mdat".utf8) })
        for index in mdat + 4..<bytes.count { bytes[index] = 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try MetadataReader.read(at: FilePath(path)).video?.codec == "h264")
        do {
            _ = try Renderer(options: RenderOptions()).render(file: FilePath(path), specs: [.square(64)])
            Issue.record("a video without a frame rendered")
        } catch {
            #expect(error.code == .corrupt && error.reason.contains("no frame"), "\(error)")
        }
    }

    /// The deadline is checked wherever FFmpeg would block (each read, and its interrupt
    /// callback): past it, both the facts and the poster end as timed out, and the file's
    /// handles are freed.
    ///
    /// A limit already passed stands for a read that became slow.
    @Test func aVideoPastItsTimeLimitIsGivenUpOn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try VideoFixture.clip(in: directory))))
        let outcomes = FileReader.withBytes(bytes, path: "clip.mp4", mtime: .init(seconds: 0, nanoseconds: 0)) {
            reader in
            [
                Result { () throws(VideoError) in _ = try VideoFacts.read(reader.stream(), timeLimit: .seconds(20)) },
                Result { () throws(VideoError) in _ = try VideoFacts.read(reader.stream(), timeLimit: .zero) },
                Result { () throws(VideoError) in
                    _ = try PosterFrame.decode(reader.stream(), longSide: 64, memoryLimit: 1 << 28, timeLimit: .zero)
                },
            ]
        }
        #expect((try? outcomes[0].get()) != nil)
        for outcome in outcomes.dropFirst() {
            guard case .failure(let error) = outcome else {
                Issue.record("a video past its time limit was read"); continue
            }
            #expect(error.code == .timedOut && error.message.contains("time limit"), "\(error)")
            #expect(error.path == "clip.mp4" && "\(error)".hasPrefix("clip.mp4: "), "\(error)")
        }
    }

    @Test func aClipThatIsBlackThroughoutStillHasAPoster() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("night.mp4")
        try VideoFixture.run([
            "-v", "error", "-f", "lavfi", "-i", "color=c=black:s=160x90:d=3:r=10", "-c:v", "libx264", "-g", "10", path,
        ])
        let (rendered, poster) = try Self.render(FilePath(path))
        #expect((poster.width, poster.height) == (160, 90))
        #expect(Self.mean(poster, rows: 0..<90).0 < 20)
        #expect(rendered.posterTime != nil)
    }

    @Test func anAudioOnlyFileIsNotAPhotoAndADamagedOneSaysWhy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let audio = directory.appending("voice.m4a")
        try VideoFixture.run(["-v", "error", "-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", "-f", "mp4", audio])
        #expect(throws: PhotoError.self) { try MetadataReader.read(at: FilePath(audio)) }
        do {
            _ = try MetadataReader.read(at: FilePath(audio))
        } catch {
            #expect(error.code == .notAnImage && error.reason.contains("no video stream"))
        }

        // The first half of a clip whose index (moov) comes last: the frames are there, their index is not.
        let whole = try Data(contentsOf: URL(fileURLWithPath: try VideoFixture.clip(in: directory)))
        let cut = directory.appending("cut.mp4")
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: cut))
        do {
            _ = try Renderer(options: RenderOptions()).render(file: FilePath(cut), specs: [.square(64)])
            Issue.record("a cut video rendered")
        } catch {
            #expect([.corrupt, .truncated].contains(error.code), "\(error)")
            #expect(error.path.lastComponent?.string == "cut.mp4")
        }
    }

    /// A header that claims a huge frame is refused by its size before a decoder exists, and a
    /// 10 GB sparse file named .mp4 is read only as far as its header.
    @Test func whatAFileClaimsBoundsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = FilePath(try VideoFixture.clip(in: directory, extra: ["-movflags", "+faststart"]))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path.string)))
        // The track header's and the sample entry's sizes, rewritten to 60000×60000.
        let tkhd = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("tkhd".utf8) })
        // The sample entry, not the brand of the same name in `ftyp`.
        let stsd = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("stsd".utf8) })
        let avc1 = try #require((stsd..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("avc1".utf8) })
        withUnsafeBytes(of: UInt16(60000).bigEndian) { size in
            bytes.replaceSubrange(avc1 + 28..<avc1 + 30, with: size)
            bytes.replaceSubrange(avc1 + 30..<avc1 + 32, with: size)
        }
        withUnsafeBytes(of: (UInt32(60000) << 16).bigEndian) { size in
            bytes.replaceSubrange(tkhd + 80..<tkhd + 84, with: size)
            bytes.replaceSubrange(tkhd + 84..<tkhd + 88, with: size)
        }
        let huge = directory.appending("huge.mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: huge))
        do {
            _ = try Renderer(options: RenderOptions()).render(file: FilePath(huge), specs: [.square(64)])
            Issue.record("a 60000×60000 video rendered")
        } catch {
            #expect(error.code == .tooLarge, "\(error)")
        }

        let sparse = directory.appending("sparse.mp4")
        try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8)).write(
            to: URL(fileURLWithPath: sparse))
        let handle = try #require(FileHandle(forWritingAtPath: sparse))
        try handle.truncate(atOffset: 10 << 30)
        try handle.close()
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: PhotoError.self) { try MetadataReader.read(at: FilePath(sparse)) }
        // Not a timing test: a reader that scanned 10 GB of zeroes would take minutes, not this.
        #expect(clock.now - started < .seconds(30))
    }
}
