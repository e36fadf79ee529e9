import Foundation
import SystemPackage
import TesseraMetadata
import TesseraTestSupport
import Testing

@testable import TesseraImage

/// Deep (10- and 12-bit) HEIF and AVIF images are decoded as their Y′CbCr planes and turned
/// into RGB here, a row at a time, instead of by libheif over the whole frame: the same pixels
/// as libheif's own conversion, for every chroma layout, matrix and range a file can name.
@Suite(.enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed"))
struct HEIFDeepSampleTests {
    /// The corpus's deep files, and AVIFs made here with ffmpeg from a test pattern: 4:2:2 at
    /// 12 bits (the kind refused at the default settings before), limited-range BT.709, full-range
    /// BT.2020 4:4:4.
    static let made: [(name: String, arguments: [String])] = [
        ("12bit-422.avif", ["-pix_fmt", "yuv422p12le"]),
        ("10bit-420-bt709-limited.avif", ["-pix_fmt", "yuv420p10le", "-colorspace", "bt709", "-color_range", "tv"]),
        ("10bit-444-bt2020-full.avif", ["-pix_fmt", "yuv444p10le", "-colorspace", "bt2020nc", "-color_range", "pc"]),
    ]
    static let corpus = [
        "formats/avif/10bit-HDR-P3-nclx.avif", "formats/avif/colors_wcg_hdr_rec2020.avif", "formats/heic/Canon.HIF",
    ]

    static func make(_ name: String, _ arguments: [String], in directory: TemporaryDirectory) throws -> String {
        let path = directory.appending(name)
        try VideoFixture.run(
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=600x400:duration=1,format=rgb48le",
                "-frames:v", "1",
            ]
                + arguments + ["-c:v", "libaom-av1", "-still-picture", "1", "-cpu-used", "8", path])
        return path
    }

    /// Both conversions averaged over the same 2×2 blocks, sample by sample in 16 bits.
    static func compare(_ path: String) throws -> (mean: Double, worst: Int, maximum: Int) {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let ours = try HEIFDecoder(data: data).primary()
        let theirs = try HEIFDecoder(data: data).primary()
        theirs.convertsPlanes = false
        try #require(ours.convertsPlanes, "\(path) is not decoded as planes")
        let (a, b) = (try ours.decode(factor: 2, keepsSamples: true), try theirs.decode(factor: 2, keepsSamples: true))
        try #require(a.wide.count == b.wide.count && !a.wide.isEmpty)
        var (total, worst) = (0, 0)
        for (x, y) in zip(a.wide, b.wide) {
            let difference = abs(Int(x) - Int(y))
            total += difference
            worst = max(worst, difference)
        }
        return (Double(total) / Double(a.wide.count), worst, a.maximum)
    }

    @Test(arguments: made.map(\.name))
    func aDeepAVIFMadeHereConvertsAsLibheifDoes(name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let arguments = try #require(Self.made.first { $0.name == name }).arguments
        let (mean, worst, maximum) = try Self.compare(try Self.make(name, arguments, in: directory))
        // Within a quarter of an 8-bit step on average; chroma taken without interpolation
        // moves the odd sample at a hard colour edge.
        #expect(mean < Double(maximum) / 1020, "\(name): mean difference \(mean) of \(maximum)")
        #expect(worst < maximum / 8, "\(name): largest difference \(worst) of \(maximum)")
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote), arguments: corpus)
    func aDeepCorpusFileConvertsAsLibheifDoes(file: String) throws {
        let (mean, worst, maximum) = try Self.compare(Corpus.path(file))
        #expect(mean < Double(maximum) / 1020, "\(file): mean difference \(mean) of \(maximum)")
        #expect(worst < maximum / 8, "\(file): largest difference \(worst) of \(maximum)")
    }
}
