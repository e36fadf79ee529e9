import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraTestSupport
import Testing

@testable import TesseraImage

/// Renditions of the shared corpus: orientation, every PNG variant, broken files, bombs.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct RenditionCorpusTests {
    /// Renders `relative` as `spec` and decodes the JPEG rendition back to pixels.
    static func pixels(_ relative: String, _ spec: RenditionSpec = .square(64)) throws -> PixelBuffer {
        let rendered = try Renderer(options: RenderOptions()).render(
            file: FilePath(Corpus.path(relative)), specs: [spec])
        let bytes = try #require(rendered.rendition(spec)?.bytes)
        return try JPEGDecoder.decode(bytes: bytes)
    }

    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.pixels.count == b.pixels.count)
        let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.pixels.count)
    }

    @Test(arguments: ["Landscape", "Portrait"], 0...8)
    func everyOrientationComesOutUprightInEveryKind(set: String, orientation: Int) throws {
        // The set is 1800×1200 (or 1200×1800) as displayed, whatever its stored frame.
        let (width, height) = set == "Landscape" ? (96, 64) : (64, 96)
        for spec in [RenditionSpec.square(64), .fit(96)] {
            let reference = try Self.pixels("orientation/\(set)_1.jpg", spec)
            let rendition = try Self.pixels("orientation/\(set)_\(orientation).jpg", spec)
            let expected = spec.kind == .square ? (64, 64) : (width, height)
            #expect(rendition.width == expected.0 && rendition.height == expected.1, "\(spec)")
            // Same photo, independently re-encoded by the set's author: close, not identical.
            #expect(Self.meanDifference(rendition, reference) < 6, "\(spec)")
        }
    }

    @Test func ignoringOrientationWouldBeCaught() throws {
        // The comparison above can fail: the stored (unrotated) pixels of orientation 6
        // differ strongly from the upright reference.
        let reference = try Self.pixels("orientation/Landscape_1.jpg")
        let rotated = try Self.pixels("orientation/Landscape_6.jpg")
        let unrotated = rotated.oriented(8)  // undo the rotation the renderer applied
        #expect(Self.meanDifference(unrotated, reference) > 20)
    }

    static let pngSuite = Corpus.manifest().filter { $0.file.hasPrefix("pngsuite/") }

    @Test(arguments: pngSuite)
    func everyValidPngSuiteFileRenders(row: ManifestRow) throws {
        var options = RenderOptions()
        options.format = .png
        let rendered = try Renderer(options: options).render(file: FilePath(row.path), specs: [.square(32), .fit(32)])
        let (width, height) = (Int(row["width"] ?? "") ?? 0, Int(row["height"] ?? "") ?? 0)
        let side = min(width, height, 32)
        let square = try #require(rendered.rendition(.square(32)))
        #expect(square.width == side && square.height == side)
        let decoded = try PNGDecoder.decode(bytes: square.bytes)
        #expect(decoded.width == side && decoded.height == side)
        // The fit keeps the aspect ratio, its long side at 32 at most.
        let fit = try #require(rendered.rendition(.fit(32)))
        let scale = min(1, 32 / Double(max(width, height)))
        #expect(fit.width == max(1, Int((Double(width) * scale).rounded())))
        #expect(fit.height == max(1, Int((Double(height) * scale).rounded())))
    }

    /// Every JPEG, PNG and WebP of the corpus that the manifest's reference decoder reads.
    static let decodable = Corpus.manifest().filter { row in
        ["JPEG", "PNG", "WebP"].contains(row["format"] ?? "")
            && ["ok", "warning"].contains { row["decode_check"]?.hasPrefix($0) == true }
    }

    @Test(arguments: decodable)
    func everyDecodableFileRendersUpright(row: ManifestRow) throws {
        let rendered = try Renderer(options: RenderOptions()).render(file: FilePath(row.path), specs: [.fit(96)])
        let fit = try #require(rendered.rendition(.fit(96)))
        // The fit has the shape of the photo as displayed: swapped for orientations 5–8.
        if let width = Int(row["width"] ?? ""), let height = Int(row["height"] ?? "") {
            let swapped = (5...8).contains(Int(row["exif_orientation"] ?? "") ?? 1)
            let (displayWidth, displayHeight) = swapped ? (height, width) : (width, height)
            #expect(
                (fit.width >= fit.height) == (displayWidth >= displayHeight) || displayWidth == displayHeight
                    || abs(fit.width - fit.height) <= 1, "\(row.file): \(fit.width)×\(fit.height)")
        }
    }

    @Test(arguments: Corpus.manifest().filter { $0.file.hasPrefix("broken/") })
    func brokenFilesGiveErrorsNotCrashes(row: ManifestRow) throws {
        let renderer = Renderer(options: RenderOptions())
        do throws(PhotoError) {
            let rendered = try renderer.render(file: FilePath(row.path), specs: [.square(64), .fit(128)])
            // Only damage libjpeg recovers from may render, and then with a warning.
            #expect(row["decode_check"]?.hasPrefix("warning") == true)
            #expect(!rendered.warnings.isEmpty)
            #expect(rendered.renditions.count == 2)
        } catch {
            #expect(row["decode_check"]?.hasPrefix("warning") != true)
            #expect(error.path == FilePath(row.path))
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func decompressionBombIsRefusedFromItsHeader() throws {
        let bomb = FilePath(Corpus.path("broken/bombs/bomb_40000x40000_rgb8_truncated.png"))
        #expect {
            try Renderer(options: RenderOptions()).render(file: bomb, specs: [.square(64)])
        } throws: { error in
            guard let error = error as? PhotoError else { return false }
            return error.code == .tooLarge && error.reason.contains("40000×40000")
        }
    }

    @Test func unsupportedJpegVariantsSaySo() throws {
        let renderer = Renderer(options: RenderOptions())
        #expect {
            try renderer.render(file: FilePath(Corpus.path("features/12bit/monkey12.jpg")), specs: [.square(64)])
        } throws: { error in
            (error as? PhotoError)?.code == .unsupported
        }
        // Arithmetic coding is decoded by Debian's libjpeg-turbo.
        let arithmetic = try renderer.render(
            file: FilePath(Corpus.path("features/arithmetic/testimgari.jpg")), specs: [.square(64)])
        #expect(arithmetic.rendition(.square(64)).map { [$0.width, $0.height] } == [64, 64])
    }

    @Test func theDefaultSetComesFromOneDecodeAtFiveEighths() throws {
        // 4032×3024: a 2048 fit needs 5/8 (2520 wide; 4/8 is 2016), which covers the rest.
        let rendered = try Renderer(options: RenderOptions()).render(
            file: FilePath(Corpus.path("large/012mp-bus.jpg")),
            specs: [.square(256), .square(512), .fit(1024), .fit(2048)])
        #expect(
            rendered.renditions.map { [$0.width, $0.height] } == [
                [2048, 1536], [1024, 768], [512, 512], [256, 256],
            ])
        #expect(rendered.renditions.allSatisfy { $0.source == .decoded })
    }

    @Test func grayscaleAndCmykBecomeRgb() throws {
        let gray = try Self.pixels("features/grayscale/jpg-gray.jpg", .square(16))
        let channelsEqual = stride(from: 0, to: gray.pixels.count, by: 3).allSatisfy { index in
            abs(Int(gray.pixels[index]) - Int(gray.pixels[index + 1])) <= 3
        }
        #expect(channelsEqual)
        let cmyk = try Self.pixels("features/cmyk/jpg-cmyk-1.jpg", .square(32))
        #expect(cmyk.width == 32)
    }

    @Test func brokenFilesLeakNoDescriptors() throws {
        let renderer = Renderer(options: RenderOptions())
        let broken = Corpus.manifest().filter { $0.file.hasPrefix("broken/") }
        let paths = Set(broken.map { URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path })
        for _ in 0..<5 {
            for row in broken {
                _ = try? renderer.render(file: FilePath(row.path), specs: [.square(32), .fit(64)])
            }
        }
        // Other suites open files in parallel, so count only descriptors left on these files; and
        // as a render that leaked would have left one each time (five on a file), while a suite
        // scanning the corpus meanwhile holds one or two of them open at a time.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd in
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
        }
        let left = Dictionary(open.filter(paths.contains).map { ($0, 1) }, uniquingKeysWith: +)
        #expect(left.values.allSatisfy { $0 < 5 }, "\(left)")
    }
}
