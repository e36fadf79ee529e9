import Foundation
import TesseraImage
import TesseraSamples
import TesseraTestSupport
import Testing

/// `tessera thumb` as a user runs it.
struct ThumbCommandTests {
    @Test func oneFileToAnExplicitOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = directory.appending("wide.jpg")
        try Data(SampleImage.jpeg(SampleImage.pixels(width: 300, height: 200))).write(to: URL(fileURLWithPath: input))
        let output = directory.appending("out/thumb.png")
        let result = try TesseraProcess.run(["thumb", input, "--size", "100", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // IHDR width and height: a 100×100 square.
        #expect(bytes[16..<24].elementsEqual([0, 0, 0, 100, 0, 0, 0, 100]))
    }

    @Test func theOutputsExtensionOrFormatPicksWhatIsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = directory.appending("photo.jpg")
        try Data(SampleImage.jpeg(SampleImage.pixels(width: 300, height: 200))).write(to: URL(fileURLWithPath: input))
        // -o x.webp writes WebP (RIFF....WEBP), not a JPEG under that name,
        let webp = directory.appending("thumb.webp")
        #expect(try TesseraProcess.run(["thumb", input, "-o", webp]).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: webp)))
        #expect(bytes.starts(with: Array("RIFF".utf8)) && bytes[8..<12].elementsEqual(Array("WEBP".utf8)))
        // --out-dir with --format names and writes each file in that format,
        let out = directory.appending("out")
        #expect(
            try TesseraProcess.run([
                "thumb", input, "--size", "64", "--fit", "128", "--out-dir", out, "--format", "webp",
            ]).status == 0)
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: out)) == ["photo-64.webp", "photo-fit-128.webp"])
        // and an extension that names no format Tessera writes is refused.
        let refused = try TesseraProcess.run(["thumb", input, "-o", directory.appending("thumb.gif")])
        #expect(refused.status != 0 && refused.stderr.contains(".webp"))
    }

    @Test func manyFilesWithFailuresStillRenderTheRest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var inputs: [String] = []
        for index in 0..<6 {
            let path = directory.appending("photo\(index).jpg")
            try Data(SampleImage.jpeg(SampleImage.pixels(width: 120, height: 90, seed: index))).write(
                to: URL(fileURLWithPath: path))
            inputs.append(path)
        }
        let broken = directory.appending("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: URL(fileURLWithPath: broken))
        let outDir = directory.appending("thumbs")
        let result = try TesseraProcess.run(
            ["thumb"] + inputs + [broken, "--size", "64", "--out-dir", outDir, "--workers", "3"])
        #expect(result.status == 1)
        let errorLines = result.stderr.split(separator: "\n")
        #expect(errorLines.count == 1)
        #expect(errorLines.first?.hasPrefix(broken + ": ") == true)
        let written = try FileManager.default.contentsOfDirectory(atPath: outDir).sorted()
        #expect(written == (0..<6).map { "photo\($0).jpg" })
    }

    @Test func badArgumentsAreRefused() throws {
        let result = try TesseraProcess.run(["thumb", "a.jpg", "b.jpg", "-o", "x.jpg"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("-o takes exactly one input file"))
    }
}
