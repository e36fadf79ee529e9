import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraTestSupport
import Testing

@testable import TesseraImage

struct ThumbHashTests {
    /// An opaque `width`×`height` image whose pixel at (x, y) is `color(x, y)`.
    static func image(_ width: Int, _ height: Int, _ color: (Int, Int) -> [UInt8]) -> PixelBuffer {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += color(x, y) } }
        return PixelBuffer(width: width, height: height, channels: color(0, 0).count, pixels: pixels)
    }

    static let gradient = image(24, 16) { x, y in [UInt8(x * 255 / 23), UInt8(y * 255 / 15), UInt8((x + y) * 97 % 256)]
    }
    static let stripes = image(16, 40) { x, y in [x / 5 % 2 == 1 ? 230 : 20, UInt8(x * y * 7 % 256), 90] }

    @Test func opaqueImagesGiveTheReferenceBytes() {
        // Known answers from an independent implementation of the published format.
        #expect(
            ThumbHash.encode(Self.gradient) == [
                224, 247, 9, 53, 156, 112, 119, 119, 112, 120, 120, 135, 135, 119, 135, 119, 129, 128, 8, 248, 136,
            ])
        #expect(
            ThumbHash.encode(Self.stripes) == [
                153, 216, 9, 51, 16, 5, 119, 119, 119, 135, 118, 119, 5, 119, 135, 144, 152,
            ])
    }

    @Test func theHeaderGivesTheAverageColourAndTheAspectRatio() throws {
        let gradient = try #require(ThumbHash.averageColor(ThumbHash.encode(Self.gradient)))
        #expect([gradient.red, gradient.green, gradient.blue, gradient.alpha] == [126, 130, 132, 255])
        let stripes = try #require(ThumbHash.decode(ThumbHash.encode(Self.stripes)))
        // 16:40 keeps its portrait shape at 32 pixels tall.
        #expect(stripes.height == 32 && stripes.width < 16)
    }

    @Test func transparencyIsKept() throws {
        // A red disc on a transparent ground: the hash says the image is partly transparent.
        let disc = Self.image(20, 30) { x, y in
            let inside = (x - 10) * (x - 10) + (y - 15) * (y - 15) < 36
            return [200, 40, 60, inside ? 255 : 0]
        }
        let hash = ThumbHash.encode(disc)
        let average = try #require(ThumbHash.averageColor(hash))
        #expect(average.alpha < 128 && average.red > 150 && average.green < 80)
        let decoded = try #require(ThumbHash.decode(hash))
        #expect(decoded.hasAlpha)
        #expect(Array(decoded[decoded.width / 2, decoded.height / 2])[3] > Array(decoded[0, 0])[3])
    }

    @Test func truncatedOrEmptyHashesDecodeToNothing() {
        #expect(ThumbHash.decode([]) == nil)
        #expect(ThumbHash.decode(Array(ThumbHash.encode(Self.gradient).prefix(8))) == nil)
    }

    /// Photos of the corpus: cameras, large files, every orientation.
    static let photos = Corpus.manifest().map(\.file).filter {
        ($0.hasPrefix("camera/") || $0.hasPrefix("large/") || $0.hasPrefix("orientation/Landscape_"))
            && $0.lowercased().hasSuffix(".jpg")
    }

    /// The mean red, green and blue of `image`.
    static func meanColour(_ image: PixelBuffer) -> [Double] {
        var sums = [0, 0, 0]
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = Array(image[x, y])
                for channel in 0..<3 { sums[channel] += Int(pixel[channel]) }
            }
        }
        return sums.map { Double($0) / Double(image.width * image.height) }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote), arguments: photos)
    func placeholdersCarryThePhotosAverageColour(file: String) throws {
        // The mean colour of the whole photo, from a rendition of it,
        let rendered = try Renderer(options: RenderOptions()).render(
            file: FilePath(Corpus.path(file)), specs: [.fit(256)])
        let fit = try JPEGDecoder.decode(bytes: try #require(rendered.rendition(.fit(256))?.bytes))
        let mean = Self.meanColour(fit)
        // is what the placeholder's header says, and what its decoded image averages to.
        let thumbhash = try #require(rendered.thumbhash)
        let average = try #require(ThumbHash.averageColor(thumbhash))
        let header = [average.red, average.green, average.blue].map(Double.init)
        #expect(zip(header, mean).allSatisfy { abs($0 - $1) <= 6 }, "\(file): header \(header), photo \(mean)")
        let decoded = try #require(ThumbHash.decode(thumbhash))
        let decodedMean = Self.meanColour(decoded)
        #expect(
            zip(decodedMean, mean).allSatisfy { abs($0 - $1) <= 10 }, "\(file): decoded \(decodedMean), photo \(mean)")
        // Its shape is the upright photo's.
        let ratio = Double(decoded.width) / Double(decoded.height), photoRatio = Double(fit.width) / Double(fit.height)
        #expect(
            abs(ratio / photoRatio - 1) < 0.25,
            "\(file): \(decoded.width)×\(decoded.height) for \(fit.width)×\(fit.height)")
    }
}
