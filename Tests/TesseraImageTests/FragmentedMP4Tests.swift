import Foundation
import SystemPackage
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraVideo

/// Videos written again as MP4s in fragments, in parts a page appends one at a time to a
/// MediaSource (a private album's long videos).
@Suite(.enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed: these tests make their videos with it"))
struct FragmentedMP4Tests {
    static func make(
        _ source: String, to target: FilePath, partBytes: Int, shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws -> FragmentedMP4.Made {
        try FileReader.withFile(at: FilePath(source), opening: { VideoError(.corrupt, "\($0)") }) {
            reader throws(VideoError) in
            try FragmentedMP4.make(
                from: reader.stream(), to: target, partBytes: partBytes, timeLimit: .seconds(60), shouldStop: shouldStop
            )
        }
    }

    /// The types of the top-level boxes of `bytes`, in order.
    static func boxes(_ bytes: some Collection<UInt8>) -> [String] {
        let bytes = Array(bytes)
        var (offset, types) = (0, [String]())
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }

    /// The 3.5-s clip (a keyframe a second) with a tone beside it.
    static func clipWithSound(in directory: TemporaryDirectory) throws -> String {
        // (a keyframe each second and none elsewhere: no scene cut at the red and blue frame)
        let silent = try VideoFixture.clip(in: directory, name: "silent.mp4", extra: ["-x264-params", "scenecut=0"])
        let path = directory.appending("clip.mp4")
        try VideoFixture.run([
            "-v", "error", "-y", "-i", silent, "-f", "lavfi", "-i", "sine=frequency=440:duration=3.5", "-c:v", "copy",
            "-c:a", "aac", "-shortest", path,
        ])
        return path
    }

    @Test func aClipIsCutIntoAHeaderAndPartsOfWholeFragmentsEachBeginningAtAKeyframe() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clip = try Self.clipWithSound(in: directory)
        let target = FilePath(directory.appending("fragmented.mp4"))
        // (a byte a part: every fragment is a part of its own, and a fragment is cut at each
        // keyframe and at the fourth byte held)
        let made = try Self.make(clip, to: target, partBytes: 1)
        let bytes = try #require(FileManager.default.contents(atPath: target.string)).map { $0 }
        #expect(Int64(bytes.count) == made.size)
        #expect(
            made.type?.hasPrefix("video/mp4; codecs=\"avc1.") == true && made.type?.hasSuffix(",mp4a.40.2\"") == true)
        #expect(abs(made.duration - 3.5) < 0.15, "\(made.duration)")
        let times = made.parts.compactMap(\.time)
        #expect(made.parts[0].time == nil && made.parts[1].time == 0 && Set(times) == [0, 1, 2, 3], "\(made.parts)")
        #expect(times == times.sorted())
        let ends = made.parts.dropFirst().map { Int($0.offset) } + [bytes.count]
        let pieces = zip(made.parts, ends).map { bytes[Int($0.offset)..<$1] }
        #expect(Self.boxes(pieces[0]) == ["ftyp", "moov"])
        for piece in pieces.dropFirst() { #expect(Self.boxes(piece) == ["moof", "mdat"]) }
        // The whole is a video as the original was: the same picture, and its sound.
        let facts = try WebVideoTests.facts(target.string)
        #expect(facts.width == 320 && facts.height == 180 && facts.hasAudio && facts.codec == "h264")

        // Parts of a megabyte: the clip is smaller, so a header and one part.
        let one = try Self.make(clip, to: target, partBytes: 1 << 20)
        #expect(one.parts.map(\.time) == [nil, 0])
    }

    @Test func aCodecBrowsersDoNotStreamHasNoTypeAndWhatIsNoVideoIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let hevc = try VideoFixture.clip(in: directory, name: "hevc.mp4", codec: "libx265")
        let made = try Self.make(hevc, to: FilePath(directory.appending("out.mp4")), partBytes: 1)
        #expect(made.type == nil && made.parts.count > 2)
        let text = directory.appending("text.mp4")
        try FileSystem.writeAtomically(Array(String(repeating: "not a video\n", count: 100).utf8), to: FilePath(text))
        #expect(throws: VideoError.self) {
            try Self.make(text, to: FilePath(directory.appending("bad.mp4")), partBytes: 1)
        }
        // Asked to stop: given up, not finished.
        #expect(throws: VideoError.self) {
            try Self.make(hevc, to: FilePath(directory.appending("stopped.mp4")), partBytes: 1, shouldStop: { true })
        }
    }
}
