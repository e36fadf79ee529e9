import Foundation
import SystemPackage
@testable import TesseraImage
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

/// Geometry, resampling and encoding on images the tests generate.
struct ThumbnailGeometryTests {
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
        let expected: (Int, Int) = switch orientation {
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

    @Test func scalingFactorIsTheSmallestThatCovers() {
        #expect(JPEGDecoder.scaleNumerator(width: 4032, height: 3024, minimumSide: 256) == 1)
        // 3024·1/8 = 378 < 512, and 3024·2/8 = 756 ≥ 512: a quarter is the smallest that covers.
        #expect(JPEGDecoder.scaleNumerator(width: 4032, height: 3024, minimumSide: 512) == 2)
        #expect(JPEGDecoder.scaleNumerator(width: 100, height: 80, minimumSide: 256) == 8)
    }

    @Test func smallPhotosAreNotEnlarged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let jpeg = try JPEGEncoder.encode(Self.halves(width: 90, height: 60), quality: 95)
        let file = FilePath(directory.appending("small.jpg"))
        try FileSystem.writeAtomically(jpeg, to: file)
        let rendered = try Thumbnailer(options: ThumbnailOptions()).render(file: file, sizes: [128, 32])
        #expect(rendered.thumbnails[128]?.side == 60)
        #expect(rendered.thumbnails[32]?.side == 32)
    }

    @Test func cmykConversionHonoursAdobeInversion() {
        // Full cyan ink: stored 255 plainly, 0 when Adobe-inverted.
        #expect(JPEGDecoder.rgb(fromCMYK: [255, 0, 0, 0], inverted: false) == [0, 255, 255])
        #expect(JPEGDecoder.rgb(fromCMYK: [0, 255, 255, 255], inverted: true) == [0, 255, 255])
    }
}
