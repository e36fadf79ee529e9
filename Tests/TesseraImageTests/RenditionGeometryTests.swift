import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraImage

/// Geometry, resampling and encoding on images the tests generate.
struct RenditionGeometryTests {
    /// A `width`×`height` RGB image: left half red, right half blue, top row green.
    static func halves(width: Int, height: Int) -> PixelBuffer {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 3
                if y == 0 {
                    pixels[o + 1] = 255
                } else if x < width / 2 {
                    pixels[o] = 255
                } else {
                    pixels[o + 2] = 255
                }
            }
        }
        return PixelBuffer(width: width, height: height, channels: 3, pixels: pixels)
    }

    @Test(arguments: 1...8)
    func orientationMovesTheCornerWhereExifSays(orientation: Int) {
        // A 3×2 image with a marker at the stored top-left pixel.
        var pixels = [UInt8](repeating: 0, count: 3 * 2 * 3)
        pixels[0] = 255
        let image = PixelBuffer(width: 3, height: 2, channels: 3, pixels: pixels).oriented(orientation)
        #expect((image.width, image.height) == (orientation >= 5 ? (2, 3) : (3, 2)))
        // Where the stored top-left corner is displayed, per EXIF 2.32 §4.6.4A.
        let expected: (Int, Int) =
            switch orientation {
            case 1, 5: (0, 0)
            case 2, 6: (image.width - 1, 0)
            case 3, 7: (image.width - 1, image.height - 1)
            default: (0, image.height - 1)  // 4, 8
            }
        #expect(image[expected.0, expected.1].first == 255)
    }

    @Test func constantImageStaysConstantThroughLanczos() {
        let gray = PixelBuffer(width: 97, height: 61, channels: 3, pixels: [UInt8](repeating: 137, count: 97 * 61 * 3))
        let result = Resampler.resample(
            gray, rect: .init(x: 18, y: 0, width: 61, height: 61), width: 17, height: 17, background: nil)
        #expect(result.pixels.allSatisfy { $0 == 137 })
    }

    @Test func centreCropKeepsTheMiddle() {
        // 300×100: the centred square is x 100..<200, all red on the left half (x < 150)
        // and blue on the right; the green top row is one source pixel, nearly gone.
        let result = Resampler.resample(
            Self.halves(width: 300, height: 100), rect: .init(x: 100, y: 0, width: 100, height: 100),
            width: 10, height: 10, background: nil)
        #expect(result[0, 5].elementsEqual([255, 0, 0]))
        #expect(result[9, 5].elementsEqual([0, 0, 255]))
    }

    @Test func transparentPixelsBecomeTheBackgroundWithoutFringes() {
        // Left half opaque red, right half fully transparent green: no green may bleed in.
        var pixels = [UInt8](repeating: 0, count: 40 * 40 * 4)
        for y in 0..<40 {
            for x in 0..<40 {
                let o = (y * 40 + x) * 4
                pixels[o..<o + 4] = x < 20 ? [255, 0, 0, 255] : [0, 255, 0, 0]
            }
        }
        let image = PixelBuffer(width: 40, height: 40, channels: 4, pixels: pixels)
        let rect = Resampler.Rect(x: 0, y: 0, width: 40, height: 40)
        let flattened = Resampler.resample(image, rect: rect, width: 10, height: 10, background: (255, 255, 255))
        #expect(flattened.channels == 3)
        #expect(flattened[9, 5].elementsEqual([255, 255, 255]))
        #expect(flattened[0, 5].elementsEqual([255, 0, 0]))
        let kept = Resampler.resample(image, rect: rect, width: 10, height: 10, background: nil)
        #expect(kept.channels == 4)
        #expect((0..<10).allSatisfy { kept[$0, 5][kept[$0, 5].startIndex + 1] == 0 })
    }

    @Test func theDecodeScaleIsTheSmallestThatCoversTheLargestRendition() {
        func numerator(_ width: Int, _ height: Int, _ specs: [RenditionSpec]) -> Int {
            RenditionPlan(width: width, height: height, specs: specs).jpegNumerator(width: width, height: height)
        }
        // 4032×3024 at 1/8 is 504×378: enough for a 256 square.
        #expect(numerator(4032, 3024, [.square(256)]) == 1)
        // 378 < 512 ≤ 756: a quarter for a 512 square.
        #expect(numerator(4032, 3024, [.square(256), .square(512)]) == 2)
        // A 2048 fit needs the long side at 2048: 4032·5/8 = 2520; 4/8 = 2016 falls short.
        #expect(numerator(4032, 3024, [.square(256), .square(512), .fit(1024), .fit(2048)]) == 5)
        // A photo whose half is exactly the fit decodes at half scale.
        #expect(numerator(4096, 3072, [.fit(2048)]) == 4)
        // Photos smaller than the renditions decode at full size, and only then.
        #expect(numerator(100, 80, [.square(256)]) == 8)
        #expect(numerator(100, 80, []) == 1)
    }

    @Test func aPNGShrinksByTheLargestFactorThatCoversEveryRenditionAndNeverPastOnePixel() {
        func factor(_ width: Int, _ height: Int, _ specs: [RenditionSpec]) -> Int {
            RenditionPlan(width: width, height: height, specs: specs).shrinkFactor(width: width, height: height)
        }
        // 2000×1000 averaged by 3 is 667×334: enough for a 256 square and a 600 fit; by 4, 250 short.
        #expect(factor(2000, 1000, [.square(256), .fit(600)]) == 3)
        // Photos no larger than their renditions stop at one pixel, however small.
        #expect(factor(1, 1, [.square(32), .fit(32)]) == 1)
        #expect(factor(1, 1, []) == 1)
        #expect(factor(5, 1, [.fit(32)]) == 1)
    }

    /// Writes a `width`×`height` JPEG of `halves` into `directory`.
    static func jpegFile(width: Int, height: Int, in directory: TemporaryDirectory) throws -> FilePath {
        let jpeg = try JPEGEncoder.encode(Self.halves(width: width, height: height), quality: 95)
        let file = FilePath(directory.appending("\(width)x\(height).jpg"))
        try FileSystem.writeAtomically(jpeg, to: file)
        return file
    }

    @Test func smallPhotosAreNotEnlarged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.jpegFile(width: 90, height: 60, in: directory)
        let rendered = try Renderer(options: RenderOptions()).render(
            file: file, specs: [.square(128), .square(32), .fit(1024), .fit(45)])
        func size(_ spec: RenditionSpec) -> [Int]? { rendered.rendition(spec).map { [$0.width, $0.height] } }
        #expect(size(.square(128)) == [60, 60])
        #expect(size(.square(32)) == [32, 32])
        #expect(size(.fit(1024)) == [90, 60])
        #expect(size(.fit(45)) == [45, 30])
        for rendition in rendered.renditions {
            let decoded = try JPEGDecoder.decode(bytes: rendition.bytes)
            #expect(decoded.width == rendition.width && decoded.height == rendition.height)
        }
    }

    /// A square at the photo's own size is its middle pixels as they are: a 41×60 photo's rows
    /// 9 to 49, not each row resampled half a pixel over (19 rows left, an odd number).
    @Test func aSquareAtThePhotosOwnSizeKeepsItsPixels() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pixels = SampleImage.pixels(width: 41, height: 60, seed: 5)
        let file = FilePath(directory.appending("odd.png"))
        try FileSystem.writeAtomically(SampleImage.png(pixels), to: file)
        var options = RenderOptions()
        options.format = .png
        let rendered = try Renderer(options: options).render(file: file, specs: [.square(256)])
        let square = try PNGDecoder.decode(bytes: try #require(rendered.rendition(.square(256))?.bytes))
        #expect((square.width, square.height) == (41, 41))
        #expect(square.pixels == Array(pixels.pixels[(9 * 41 * 3)..<(50 * 41 * 3)]))
    }

    @Test func fitsHaveExactlyTheirSize() throws {
        // 4030×2000 at 4/8 would be 2015 wide: the fit decodes at 5/8 and is resized to 2048.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.jpegFile(width: 4030, height: 2000, in: directory)
        let rendered = try Renderer(options: RenderOptions()).render(
            file: file, specs: [.fit(2048), .fit(1000), .square(256)])
        #expect(rendered.rendition(.fit(2048)).map { [$0.width, $0.height] } == [2048, 1016])
        #expect(rendered.rendition(.fit(1000)).map { [$0.width, $0.height] } == [1000, 496])
        #expect(rendered.rendition(.square(256)).map { [$0.width, $0.height] } == [256, 256])
    }

    @Test func onlyThePlaceholderWhenNoRenditionIsAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.jpegFile(width: 300, height: 200, in: directory)
        let rendered = try Renderer(options: RenderOptions()).render(file: file, specs: [])
        #expect(rendered.renditions.isEmpty)
        #expect(ThumbHash.decode(try #require(rendered.thumbhash)).map { [$0.width, $0.height] } == [32, 23])
    }

    @Test func cmykConversionHonoursAdobeInversion() {
        // Full cyan ink: stored 255 plainly, 0 when Adobe-inverted.
        #expect(RawPixels.rgb(fromCMYK: [255, 0, 0, 0], inverted: false) == [0, 255, 255])
        #expect(RawPixels.rgb(fromCMYK: [0, 255, 255, 255], inverted: true) == [0, 255, 255])
    }
}
