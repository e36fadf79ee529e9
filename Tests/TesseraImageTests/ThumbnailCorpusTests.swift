import Foundation
import SystemPackage
@testable import TesseraImage
import TesseraMetadata
import TesseraTestSupport
import Testing

/// Thumbnails of the shared corpus: orientation, every PNG variant, broken files, bombs.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct ThumbnailCorpusTests {
    /// Renders `relative` at `size` and decodes the JPEG thumbnail back to pixels.
    static func pixels(_ relative: String, size: Int = 64) throws -> PixelBuffer {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions())
        let rendered = try thumbnailer.render(file: FilePath(Corpus.path(relative)), sizes: [size])
        let bytes = try #require(rendered.thumbnails[size]?.bytes)
        return try JPEGDecoder.decode(bytes: bytes)
    }

    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.pixels.count == b.pixels.count)
        let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.pixels.count)
    }

    @Test(arguments: ["Landscape", "Portrait"], 0...8)
    func everyOrientationComesOutUpright(set: String, orientation: Int) throws {
        let reference = try Self.pixels("orientation/\(set)_1.jpg")
        let thumbnail = try Self.pixels("orientation/\(set)_\(orientation).jpg")
        #expect(thumbnail.width == 64 && thumbnail.height == 64)
        // Same photo, independently re-encoded by the set's author: close, not identical.
        #expect(Self.meanDifference(thumbnail, reference) < 6)
    }

    @Test func ignoringOrientationWouldBeCaught() throws {
        // The comparison above can fail: the stored (unrotated) pixels of orientation 6
        // differ strongly from the upright reference.
        let reference = try Self.pixels("orientation/Landscape_1.jpg")
        let rotated = try Self.pixels("orientation/Landscape_6.jpg")
        let unrotated = rotated.oriented(8)  // undo the rotation the thumbnailer applied
        #expect(Self.meanDifference(unrotated, reference) > 20)
    }

    static let pngSuite = Corpus.manifest().filter { $0.file.hasPrefix("pngsuite/") }

    @Test(arguments: pngSuite)
    func everyValidPngSuiteFileRenders(row: ManifestRow) throws {
        var options = ThumbnailOptions()
        options.format = .png
        let thumbnailer = Thumbnailer(options: options)
        let rendered = try thumbnailer.render(file: FilePath(row.path), sizes: [32])
        let thumbnail = try #require(rendered.thumbnails[32])
        let side = min(Int(row["width"] ?? "") ?? 0, Int(row["height"] ?? "") ?? 0, 32)
        #expect(thumbnail.side == side)
        let decoded = try PNGDecoder.decode(bytes: thumbnail.bytes)
        #expect(decoded.width == side && decoded.height == side)
    }

    @Test(arguments: Corpus.manifest().filter { $0.file.hasPrefix("broken/") })
    func brokenFilesGiveErrorsNotCrashes(row: ManifestRow) throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions())
        do {
            let rendered = try thumbnailer.render(file: FilePath(row.path), sizes: [64])
            // Only damage libjpeg recovers from may render, and then with a warning.
            #expect(row["decode_check"]?.hasPrefix("warning") == true)
            #expect(!rendered.warnings.isEmpty)
            #expect(rendered.thumbnails[64] != nil)
        } catch {
            #expect(row["decode_check"]?.hasPrefix("warning") != true)
            #expect(error.path == FilePath(row.path))
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func decompressionBombIsRefusedFromItsHeader() throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions())
        let bomb = FilePath(Corpus.path("broken/bombs/bomb_40000x40000_rgb8_truncated.png"))
        #expect {
            try thumbnailer.render(file: bomb, sizes: [64])
        } throws: { error in
            guard let error = error as? PhotoError else { return false }
            return error.code == .tooLarge && error.reason.contains("40000×40000")
        }
    }

    @Test func unsupportedJpegVariantsSaySo() throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions())
        #expect {
            try thumbnailer.render(file: FilePath(Corpus.path("features/12bit/monkey12.jpg")), sizes: [64])
        } throws: { error in
            (error as? PhotoError)?.code == .unsupported
        }
        // Arithmetic coding is decoded by Debian's libjpeg-turbo.
        let arithmetic = try thumbnailer.render(
            file: FilePath(Corpus.path("features/arithmetic/testimgari.jpg")), sizes: [64])
        #expect(arithmetic.thumbnails[64]?.side == 64)
    }

    @Test func largeJpegDecodesAtReducedScale() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path("large/012mp-bus.jpg"))))
        let numerator = JPEGDecoder.scaleNumerator(width: 4032, height: 3024, minimumSide: 256)
        let image = try JPEGDecoder.decode(bytes: bytes, numerator: numerator)
        // 4032×3024 at 1/8 is 504×378: the smallest scale whose short side covers 256.
        #expect(image.width == 504 && image.height == 378)
    }

    @Test func grayscaleAndCmykBecomeRgb() throws {
        let gray = try Self.pixels("features/grayscale/jpg-gray.jpg", size: 16)
        let channelsEqual = stride(from: 0, to: gray.pixels.count, by: 3).allSatisfy { index in
            abs(Int(gray.pixels[index]) - Int(gray.pixels[index + 1])) <= 3
        }
        #expect(channelsEqual)
        let cmyk = try Self.pixels("features/cmyk/jpg-cmyk-1.jpg", size: 32)
        #expect(cmyk.width == 32)
    }

    @Test func brokenFilesLeakNoDescriptors() throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions())
        let broken = Corpus.manifest().filter { $0.file.hasPrefix("broken/") }
        let paths = Set(broken.map { URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path })
        for _ in 0..<5 {
            for row in broken {
                _ = try? thumbnailer.render(file: FilePath(row.path), sizes: [32])
            }
        }
        // Other suites open files in parallel, so count only descriptors left on these files.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd in
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
        }
        #expect(open.filter(paths.contains).isEmpty)
    }
}
