import Foundation
import SystemPackage
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraVideo

/// Videos browsers cannot play, made again as H.264 and AAC in an MP4 that starts playing
/// before it is whole; real files from the corpus.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct WebVideoTests {
    static func facts(_ path: String) throws -> VideoFacts {
        try FileReader.withFile(at: FilePath(path), opening: { VideoError(.corrupt, "\($0)") }) {
            reader throws(VideoError) in
            try VideoFacts.read(reader.stream())
        }
    }

    static func make(
        _ source: String, to target: FilePath, memoryLimit: Int = 512 << 20,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws -> WebVideo.Made {
        try FileReader.withFile(at: FilePath(source), opening: { VideoError(.corrupt, "\($0)") }) {
            reader throws(VideoError) in
            try WebVideo.make(
                from: reader.stream(), to: target, memoryLimit: memoryLimit, timeLimit: .seconds(120),
                shouldStop: shouldStop)
        }
    }

    /// The offset of the first top-level MP4 box of `type`.
    static func box(_ type: String, in bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type { return offset }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }

    @Test(arguments: [
        "media/videos/quicktime-hvc1.mov",  // HEVC, turned a quarter
        "media/videos/avi.avi",  // MPEG-4 part 2 and MP3 in AVI
        "media/videos/Sony ILCE-7M3 (A7M3).mts",  // H.264 and AC-3 in MPEG-TS
        "media/live/IMG_3582.mov",  // a Live Photo's HEVC motion, 16-bit PCM sound
    ])
    func aVideoBrowsersCannotPlayIsMadeAgainAsH264AndAAC(_ relative: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = Corpus.path(relative)
        let original = try Self.facts(source)
        let target = FilePath(directory.appending("web/ab/video.mp4"))
        let made = try Self.make(source, to: target)

        let result = try Self.facts(target.string)
        #expect(result.codec == "h264" && result.container.contains("mp4"))
        #expect(result.hasAudio == original.hasAudio && made.hasAudio == original.hasAudio)
        #expect(result.rotation == original.rotation)
        #expect((result.width, result.height) == (made.width, made.height))
        // Fitted into 1920×1080, never enlarged, the shape kept to a pixel or two.
        #expect(max(result.width, result.height) <= 1920 && min(result.width, result.height) <= 1080)
        #expect(result.width <= original.width && result.height <= original.height)
        let shape = Double(original.width) / Double(original.height)
        #expect(abs(Double(result.width) / Double(result.height) - shape) < 0.02 * shape)
        let duration = try #require(original.duration)
        #expect(abs((result.duration ?? 0) - duration) <= max(0.25, duration * 0.05), "\(result.duration ?? 0)")
        // The index first: a browser starts playing before the rest arrives.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: target.string)))
        let (moov, mdat) = (Self.box("moov", in: bytes), Self.box("mdat", in: bytes))
        #expect(moov != nil && mdat != nil && moov ?? .max < mdat ?? 0)
        // Nothing but the video is left in its folder.
        #expect(FileSystem.entries(of: target.removingLastComponent())?.count == 1)
    }

    @Test(arguments: [
        "media/videos/broken/Matroska.mkv", "media/videos/broken/issue_2340_poc.mp4",
        "media/videos/broken/mp4 (head 65536).mp4",
        "media/videos/quicktime-jpeg.mov",  // its frames are in other files, which it names
    ])
    func aDamagedVideoGivesAReasonAndLeavesNothing(_ relative: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = FilePath(directory.appending("web/video.mp4"))
        #expect(throws: VideoError.self) { try Self.make(Corpus.path(relative), to: target) }
        #expect(FileSystem.entries(of: target.removingLastComponent())?.isEmpty ?? true)
    }

    @Test(.enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed"))
    func aCamerasMJPEGAVIWithPCMSoundPlaysAsH264AndAAC() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.appending("camera.avi")
        try VideoFixture.run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=640x480:rate=15:duration=2", "-f", "lavfi", "-i",
            "sine=frequency=440:duration=2", "-c:v", "mjpeg", "-q:v", "5", "-c:a", "pcm_s16le", source,
        ])
        let target = FilePath(directory.appending("web.mp4"))
        let made = try Self.make(source, to: target)
        let result = try Self.facts(target.string)
        #expect(result.codec == "h264" && result.hasAudio && made.hasAudio)
        #expect((result.width, result.height) == (640, 480))
        #expect(abs((result.duration ?? 0) - 2) < 0.2)
    }

    @Test func aStoppedTranscodeEndsAtOnceAndLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = FilePath(directory.appending("web/video.mp4"))
        let error = #expect(throws: VideoError.self) {
            try Self.make(Corpus.path("media/videos/avi.avi"), to: target, shouldStop: { true })
        }
        #expect(error?.code == .timedOut)
        #expect(FileSystem.entries(of: target.removingLastComponent())?.isEmpty ?? true)
    }

    @Test func framesPastTheMemoryBudgetAreRefusedBeforeDecoding() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = FilePath(directory.appending("web/video.mp4"))
        let error = #expect(throws: VideoError.self) {
            try Self.make(Corpus.path("media/videos/with-gps.mp4"), to: target, memoryLimit: 16 << 20)
        }
        #expect(error?.code == .tooLarge)
    }

    @Test func theFrameFitsTheBoxOnEvenSidesAndIsNeverEnlarged() {
        let settings = WebVideo.Settings()
        #expect(WebVideo.size(width: 3840, height: 2160, settings: settings) == (1920, 1080))
        #expect(WebVideo.size(width: 2160, height: 3840, settings: settings) == (1080, 1920))
        #expect(WebVideo.size(width: 4032, height: 3024, settings: settings) == (1440, 1080))
        #expect(WebVideo.size(width: 434, height: 343, settings: settings) == (434, 342))
        #expect(WebVideo.size(width: 1, height: 1, settings: settings) == (2, 2))
    }
}
