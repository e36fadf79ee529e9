import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraImage

/// Renditions from embedded previews and from the DC scans of progressive JPEGs.
struct EmbeddedPreviewTests {
    /// A `width`×`height` image whose left half is `left` and right half `right`.
    static func halves(_ width: Int, _ height: Int, _ left: [UInt8], _ right: [UInt8]) -> PixelBuffer {
        var pixels: [UInt8] = []
        for _ in 0..<height { for x in 0..<width { pixels += x < width / 2 ? left : right } }
        return PixelBuffer(width: width, height: height, channels: 3, pixels: pixels)
    }

    static let red: [UInt8] = [220, 20, 20], blue: [UInt8] = [20, 20, 220], green: [UInt8] = [20, 200, 20]

    /// A 1600×1200 photo (gradient) with a green 640×480 preview of the given MPF type.
    static func photo(
        previewType: UInt32 = 0x010001, preview: PixelBuffer? = nil, orientation: Int? = nil
    ) throws -> [UInt8] {
        var exif: ExifBuilder?
        if let orientation {
            exif = ExifBuilder()
            exif?.orientation = orientation
        }
        let main = try SampleImage.jpeg(SampleImage.pixels(width: 1600, height: 1200, seed: 3), exif: exif)
        let small = try SampleImage.jpeg(preview ?? halves(640, 480, green, green))
        return MPF.jpeg(main, images: [(previewType, small)])
    }

    static func render(
        _ bytes: [UInt8], _ specs: [RenditionSpec], previews: Bool = true
    ) throws -> (Renderer.Rendered, PixelBuffer) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = FilePath(directory.appending("photo.jpg"))
        try FileSystem.writeAtomically(bytes, to: path)
        var options = RenderOptions()
        options.embeddedPreviews = previews
        let rendered = try Renderer(options: options).render(file: path, specs: specs)
        let first = try #require(rendered.renditions.first)
        return (rendered, try JPEGDecoder.decode(bytes: first.bytes))
    }

    static func mean(_ image: PixelBuffer, rows: Range<Int>) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for y in rows {
            for x in 0..<image.width { for (c, v) in image[x, y].prefix(3).enumerated() { sums[c] += Double(v) } }
        }
        return sums.map { $0 / Double(rows.count * image.width) }
    }

    static func isGreen(_ image: PixelBuffer) -> Bool {
        let m = mean(image, rows: 0..<image.height)
        return m[1] > 150 && m[0] < 60 && m[2] < 60
    }

    @Test func aPreviewThatCoversTheRenditionsIsUsed() throws {
        let (rendered, square) = try Self.render(try Self.photo(), [.square(256), .fit(400)])
        #expect(rendered.renditions.allSatisfy { $0.source == .mpfPreview })
        #expect(Self.isGreen(square))
        #expect(rendered.rendition(.fit(400)).map { [$0.width, $0.height] } == [400, 300])
        // The placeholder comes from it too.
        #expect(ThumbHash.averageColor(try #require(rendered.thumbhash)).map { $0.green > 150 && $0.red < 80 } == true)
    }

    @Test func aPreviewIsRefusedForEveryReasonItShouldBe() throws {
        // Too small for a 512 square (480 pixels high).
        let (tooSmall, pixels) = try Self.render(try Self.photo(), [.square(512)])
        #expect(tooSmall.renditions.allSatisfy { $0.source == .decoded } && !Self.isGreen(pixels))
        // Another aspect ratio (16:9 with the photo at 4:3): bars or an old crop.
        let (wide, _) = try Self.render(
            try Self.photo(preview: Self.halves(640, 360, Self.green, Self.green)), [.square(256)])
        #expect(wide.renditions.allSatisfy { $0.source == .decoded })
        // A gain map (Ultra HDR and Apple write them as type 0) or a stereo frame is no preview.
        for type: UInt32 in [0, 0x020002] {
            let (other, _) = try Self.render(try Self.photo(previewType: type), [.square(256)])
            #expect(other.renditions.allSatisfy { $0.source == .decoded }, "type \(type)")
        }
        // Turned off by the setting.
        let (off, _) = try Self.render(try Self.photo(), [.square(256)], previews: false)
        #expect(off.renditions.allSatisfy { $0.source == .decoded })
    }

    @Test func aDamagedOrMisplacedPreviewFallsBackToThePhoto() throws {
        let main = try SampleImage.jpeg(SampleImage.pixels(width: 1600, height: 1200, seed: 3))
        let preview = try SampleImage.jpeg(Self.halves(640, 480, Self.green, Self.green))
        // Cut short: it decodes with a warning, so it is not used.
        let truncated = MPF.jpeg(main, images: [(0x010001, Array(preview.prefix(preview.count / 2)))])
        let (cut, _) = try Self.render(truncated, [.square(256)])
        #expect(cut.renditions.allSatisfy { $0.source == .decoded } && cut.warnings.isEmpty)
        // Claimed past the end of the file.
        var beyond = MPF.jpeg(main, images: [(0x010001, preview)])
        beyond.removeLast(preview.count)
        let (missing, _) = try Self.render(beyond, [.square(256)])
        #expect(missing.renditions.allSatisfy { $0.source == .decoded })
        // A whole preview must not hide that the photo itself is cut short: the photo is
        // decoded, and says so.
        let cutPhoto = MPF.jpeg(Array(main.dropLast(main.count / 3)), images: [(0x010001, preview)])
        let (damaged, _) = try Self.render(cutPhoto, [.square(256)])
        #expect(damaged.renditions.allSatisfy { $0.source == .decoded } && !damaged.warnings.isEmpty)
    }

    @Test(arguments: [(1, "left"), (6, "top"), (3, "right"), (8, "bottom")])
    func thePhotosOrientationAppliesToItsPreview(orientation: Int, redSide: String) throws {
        // The preview is red on its left and blue on its right, stored like the photo.
        let bytes = try Self.photo(preview: Self.halves(640, 480, Self.red, Self.blue), orientation: orientation)
        let (rendered, square) = try Self.render(bytes, [.square(128)])
        #expect(rendered.renditions.first?.source == .mpfPreview)
        let side = square.width
        func meanRed(_ xs: Range<Int>, _ ys: Range<Int>) -> Double {
            var sum = 0.0
            for y in ys { for x in xs { sum += Double(square[x, y].first ?? 0) } }
            return sum / Double(xs.count * ys.count)
        }
        let regions: [String: (Range<Int>, Range<Int>)] = [
            "left": (0..<side / 4, 0..<side), "right": (side * 3 / 4..<side, 0..<side),
            "top": (0..<side, 0..<side / 4), "bottom": (0..<side, side * 3 / 4..<side),
        ]
        let opposite = ["left": "right", "right": "left", "top": "bottom", "bottom": "top"][redSide] ?? ""
        let (redRegion, blueRegion) = (try #require(regions[redSide]), try #require(regions[opposite]))
        #expect(meanRed(redRegion.0, redRegion.1) > 180 && meanRed(blueRegion.0, blueRegion.1) < 60)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func realFilesListTheirPreviewsAndNeverAGainMap() throws {
        func previews(_ file: String) throws -> [EmbeddedPreview] {
            try FileReader.withPhoto(at: FilePath(Corpus.path(file))) { (reader) throws(PhotoError) in
                let header = try JPEGHeader.read(reader)
                // Every listed preview starts with SOI where the file says.
                for preview in header.previews {
                    let head = try reader.photoBytes(at: preview.offset, count: 2)
                    #expect(head == [0xFF, 0xD8], "\(file) at \(preview.offset)")
                }
                return header.previews
            }
        }
        #expect(
            try previews("formats/icc/Canon PowerShot A560.jpg").map { [$0.kind.rawValue, "\($0.length)"] }
                == [["exif-thumbnail", "5331"]])
        // Ultra HDR: the EXIF thumbnail, not the MPF gain map.
        #expect(try previews("formats/mpf/Ultra_HDR_Samples_Originals_01.jpg").map(\.kind) == [.exifThumbnail])
        #expect(try previews("formats/mpf/apple_gainmap_new.jpg").isEmpty)
        #expect(try previews("formats/mpf/sugarshack.mpo").map(\.kind) == [.exifThumbnail])
        // The Ultra HDR photo's 510×384 thumbnail makes its 256 square; a 512 square needs the photo.
        let path = FilePath(Corpus.path("formats/mpf/Ultra_HDR_Samples_Originals_01.jpg"))
        let small = try Renderer(options: RenderOptions()).render(file: path, specs: [.square(256)])
        #expect(small.renditions.first?.source == .exifThumbnail)
        let large = try Renderer(options: RenderOptions()).render(file: path, specs: [.square(512)])
        #expect(large.renditions.first?.source == .decoded)
    }

    @Test func progressivePhotosStopAfterTheirDCScansAtAnEighth() throws {
        let image = SampleImage.pixels(width: 1600, height: 1200, seed: 5)
        let progressive = try SampleImage.jpeg(image, progressive: true)
        let baseline = try SampleImage.jpeg(image)
        // 1600×1200 at 1/8 is 200×150: enough for a 128 square from the DC scans alone,
        let (dc, dcPixels) = try Self.render(progressive, [.square(128)])
        #expect(dc.renditions.first?.source == .dcScans)
        let (_, fullPixels) = try Self.render(baseline, [.square(128)])
        // and what they give is the same picture: PSNR over 35 dB against a full decode.
        var squared = 0.0
        for (a, b) in zip(dcPixels.pixels, fullPixels.pixels) { squared += pow(Double(a) - Double(b), 2) }
        let psnr = 10 * log10(255 * 255 / (squared / Double(dcPixels.pixels.count)))
        #expect(psnr > 35, "PSNR \(psnr) dB")
        // A 256 square needs 2/8 (150 pixels high at 1/8 is too few): every scan is read.
        let (all, _) = try Self.render(progressive, [.square(256)])
        #expect(all.renditions.first?.source == .decoded)
    }

    @Test(arguments: [(1600, 1200, 1), (1200, 1600, 6), (1000, 1000, 1), (4000, 900, 3)])
    func squaresAloneDecodeOnlyAroundTheirSquare(width: Int, height: Int, orientation: Int) throws {
        // Given a photo whose squares need more than 1/8 of it,
        var exif = ExifBuilder()
        exif.orientation = orientation
        let bytes = try SampleImage.jpeg(SampleImage.pixels(width: width, height: height, seed: 9), exif: exif)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = FilePath(directory.appending("photo.jpg"))
        try FileSystem.writeAtomically(bytes, to: path)
        let renderer = Renderer(options: RenderOptions())
        // a render without a placeholder (decoded around the square only)
        let cropped = try renderer.render(file: path, specs: [.square(300), .square(160)], placeholder: false)
        let whole = try renderer.render(file: path, specs: [.square(300), .square(160)])
        #expect(cropped.thumbhash == nil && whole.thumbhash != nil)
        // gives the same squares as one of the whole frame, within JPEG noise.
        for spec in [RenditionSpec.square(300), .square(160)] {
            let a = try JPEGDecoder.decode(bytes: try #require(cropped.rendition(spec)?.bytes))
            let b = try JPEGDecoder.decode(bytes: try #require(whole.rendition(spec)?.bytes))
            #expect(a.width == b.width && a.height == b.height)
            let difference = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }
            #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 1.5, "\(spec)")
            #expect(difference.max() ?? 0 < 24, "\(spec)")
        }
    }
}
