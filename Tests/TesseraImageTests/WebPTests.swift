import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraImage

@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct WebPTests {
    static func render(
        _ file: String, _ specs: [RenditionSpec], format: ImageFormat = .png
    ) throws -> Renderer.Rendered {
        var options = RenderOptions()
        options.format = format
        return try Renderer(options: options).render(file: FilePath(Corpus.path(file)), specs: specs)
    }

    @Test func brokenWebPFilesAreRecordedWithAReason() {
        for file in [
            "formats/webp/broken/cve_2017_1000126_stack-oob-read.webp", "formats/webp/broken/issue_2270_poc.webp",
        ] {
            #expect(throws: PhotoError.self, "\(file)") { try Self.render(file, [.square(64)]) }
        }
    }

    @Test func animationsRenderTheirFirstFrame() throws {
        let rendered = try Self.render("formats/webp/animated-loop-3.webp", [.fit(370)])
        let fit = try #require(rendered.rendition(.fit(370)))
        #expect(fit.width == 370 && fit.height == 285)
        #expect(rendered.metadata.webp?.frames == 10)
    }

    @Test func alphaIsKeptInPNGAndWebPAndFlattenedInJPEG() throws {
        let png = try PNGDecoder.decode(
            bytes: try #require(
                try Self.render("formats/webp/lossy_alpha1.webp", [.fit(200)])
                    .rendition(.fit(200))?.bytes))
        #expect(png.hasAlpha)
        let jpeg = try Self.render("formats/webp/lossy_alpha1.webp", [.fit(200)], format: .jpeg)
        #expect(try JPEGDecoder.decode(bytes: try #require(jpeg.rendition(.fit(200))?.bytes)).channels == 3)
    }

    @Test func orientationSixIsAppliedOnce() throws {
        let rendered = try Self.render("formats/webp/Nikon Coolpix P7000.webp", [.fit(300)])
        let fit = try #require(rendered.rendition(.fit(300)))
        #expect(fit.width == 225 && fit.height == 300)
    }

    @Test func renditionsCanBeWebP() throws {
        let rendered = try Self.render("large/012mp-bus.jpg", [.square(256)], format: .webp)
        let bytes = try #require(rendered.rendition(.square(256))?.bytes)
        #expect(bytes.starts(with: Array("RIFF".utf8)) && bytes[8..<12].elementsEqual(Array("WEBP".utf8)))
        let decoded = try WebPCodec.decode(
            bytes,
            header: try FileReader.withBytes(
                bytes, path: FilePath("r.webp"), mtime: FileTime(seconds: 0, nanoseconds: 0)
            ) { (reader) throws(PhotoError) in try WebPHeader.read(reader) }, factor: 1)
        #expect(decoded.width == 256 && decoded.height == 256)
    }
}
