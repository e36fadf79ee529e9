import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraImage

@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct HEIFTests {
    static let rows = Corpus.manifest(folder: "formats").filter { ["HEIF", "AVIF"].contains($0["format"] ?? "") }

    @Test(arguments: rows.filter { !$0.file.contains("/broken/") })
    func everyHEIFRendersUprightOrSaysWhyNot(row: ManifestRow) throws {
        do {
            let rendered = try Renderer(options: RenderOptions()).render(file: FilePath(row.path), specs: [.fit(96)])
            let fit = try #require(rendered.rendition(.fit(96)))
            let display = (row["heif_display_size"] ?? "").split(separator: "x").compactMap { Double($0) }
            try #require(display.count == 2)
            #expect(abs(Double(fit.width) / Double(fit.height) - display[0] / display[1]) < 0.05, "\(row.file)")
        } catch let error as PhotoError where error.code == .tooLarge {
            // Over the pixel limit or the whole memory pool: refused from the header.
            let (width, height) = (Int(row["width"] ?? "") ?? 0, Int(row["height"] ?? "") ?? 0)
            #expect(width * height > 16_000_000, "\(row.file): \(error)")
        }
    }

    /// Of `truncated.heic`, only the second image is cut off: libheif 1.19 reads the primary's
    /// extents alone, and the primary is whole, so the photo renders (1.15 refused the file).
    static let wholePrimary = "formats/heic/broken/truncated.heic"

    @Test func aFileWhosePrimaryImageIsWholeRendersThoughAnotherImageIsCutOff() throws {
        let rendered = try Renderer(options: RenderOptions()).render(
            file: FilePath(Corpus.path(Self.wholePrimary)), specs: [.fit(96)])
        // Its 64×64 image has a 16×16 clean aperture, which is what heif-dec shows too.
        #expect(rendered.renditions.first.map { ($0.width, $0.height) } ?? (0, 0) == (16, 16))
    }

    @Test(arguments: rows.filter { $0.file.contains("/broken/") && $0.file != wholePrimary })
    func brokenFilesAreRecordedWithAReason(row: ManifestRow) {
        #expect(throws: PhotoError.self, "\(row.file)") {
            try Renderer(options: RenderOptions()).render(file: FilePath(row.path), specs: [.fit(96)])
        }
    }

    /// The orientation derived from `irot` and `imir`, applied by the renderer, against libheif
    /// applying the transformations itself.
    @Test(arguments: [
        "heic/orientation5.heic", "avif/kimono.mirror-vertical.rotate270.avif", "avif/Ronda_rotate90.avif",
    ])
    func transformationsAreAppliedExactlyOnce(file: String) throws {
        let path = FilePath(Corpus.path("formats/" + file))
        let metadata = try MetadataReader.read(at: path)
        let header = try #require(metadata.heif)
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path.string)))
        let ours = try HEIFDecoder(data: data).primary().decode(factor: 1, keepsSamples: false).image
            .oriented(metadata.orientation)
        let theirs = try HEIFDecoder(data: data).primary(transformed: true).decode(factor: 1, keepsSamples: false).image
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        let difference = zip(ours.pixels, theirs.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(max(1, ours.pixels.count)) < 1, "\(file)")
        // A HEIF's own EXIF orientation is never what displays it.
        #expect(metadata.orientation == header.orientation)
    }

    /// Current iPhones' HEICs (iOS 17 on: `tmap` brand, gain-map and tone-map items beside the
    /// SDR grid; libheif 1.15 refused them), decoded tile by tile in the stored frame and turned
    /// once, against libheif's own whole-frame decode with its transformations (`heif-dec`).
    ///
    /// Both are averaged over the same 4×4 blocks: the sizes are multiples of 4.
    @Test(
        .enabled(if: Self.heifDec != nil, "heif-dec (libheif-examples 1.19) is not installed"),
        arguments: ["media/live/IMG_3582.HEIC"])
    func aCurrentIPhoneGridRendersAsLibheifShowsIt(file: String) throws {
        let path = FilePath(Corpus.path(file))
        let metadata = try MetadataReader.read(at: path)
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path.string)))
        let decoder = try HEIFDecoder(data: data)
        let primary = try decoder.primary()
        #expect(primary.columns * primary.rows > 1 && metadata.orientation == 6)
        let ours = try primary.decode(factor: 4, keepsSamples: false).image.oriented(metadata.orientation)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let png = directory.appending("theirs.png")
        let process = try Process.run(URL(fileURLWithPath: try #require(Self.heifDec)), arguments: [path.string, png])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let theirs = try FileReader.withPhoto(at: FilePath(png)) { (reader) throws(PhotoError) -> PixelBuffer in
            try PNGDecoder(stream: reader.stream()).decode(factor: 4).0
        }
        #expect(ours.width == theirs.width && ours.height == theirs.height && ours.height > ours.width)
        let difference = zip(ours.pixels, theirs.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(max(1, ours.pixels.count)) < 1, "\(file)")
    }

    static let heifDec = ["/usr/bin/heif-dec", "/usr/local/bin/heif-dec"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test func aThumbnailImageThatCoversTheRenditionIsUsed() throws {
        let path = FilePath(Corpus.path("formats/heic/IMG_2682.heic"))
        let small = try Renderer(options: RenderOptions()).render(file: path, specs: [.fit(300)])
        #expect(small.renditions.first?.source == .heifThumbnail)
        let large = try Renderer(options: RenderOptions()).render(file: path, specs: [.fit(400)])
        #expect(large.renditions.first?.source == .decoded)
    }

    @Test func aThumbnailComesOutAsUprightAsThePhoto() throws {
        // Issue 487: a portrait photo stored landscape with irot, like its thumbnail.
        let path = FilePath(Corpus.path("formats/heic/Issue 487.heic"))
        var options = RenderOptions()
        options.format = .png
        let fromThumbnail = try Renderer(options: options).render(file: path, specs: [.fit(200)])
        options.embeddedPreviews = false
        let fromPhoto = try Renderer(options: options).render(file: path, specs: [.fit(200)])
        #expect(
            fromThumbnail.renditions.first?.source == .heifThumbnail && fromPhoto.renditions.first?.source == .decoded)
        let a = try PNGDecoder.decode(bytes: try #require(fromThumbnail.renditions.first?.bytes))
        let b = try PNGDecoder.decode(bytes: try #require(fromPhoto.renditions.first?.bytes))
        #expect(a.width == b.width && a.height == b.height && a.height > a.width)
        let difference = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(a.pixels.count) < 12)
    }

    /// An nclx Display P3 description converts like the Display P3 ICC profile phones embed.
    @Test func nclxDisplayP3ConvertsLikeTheICCProfile() throws {
        let nclx = try #require(ColorTransform.iccProfile(nclxPrimaries: 12, transfer: 13))
        let embedded = try #require(
            try MetadataReader.read(at: FilePath(Corpus.path("large/012mp-bus.jpg"))).jpeg?.iccProfile)
        let samples: [UInt8] = [200, 100, 50, 30, 180, 90, 240, 240, 240, 10, 20, 200]
        func convert(_ profile: [UInt8]) throws -> [UInt8] {
            let transform = try #require(ColorTransform(profile: profile, input: .rgb))
            var out = [UInt8](repeating: 0, count: samples.count)
            samples.withUnsafeBytes { source in
                out.withUnsafeMutableBytes { transform.apply(source.baseAddress!, $0.baseAddress!, count: 4) }
            }
            return out
        }
        let (ours, theirs) = (try convert(nclx), try convert(embedded))
        #expect(zip(ours, theirs).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "\(ours) against \(theirs)")
        // Saturated P3 green is outside sRGB: the conversion changes it.
        #expect(ours[3...5] != samples[3...5])
        // BT.709 primaries need nothing; PQ is not tone-mapped here.
        #expect(ColorTransform.iccProfile(nclxPrimaries: 1, transfer: 13) == nil)
        #expect(ColorTransform.iccProfile(nclxPrimaries: 12, transfer: 16) == nil)
    }
}
