import Foundation
import SystemPackage
@testable import TesseraImage
import TesseraMetadata
import TesseraTestSupport
import Testing

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
            // Over the pixel limit or the per-worker memory budget: refused from the header.
            let (width, height) = (Int(row["width"] ?? "") ?? 0, Int(row["height"] ?? "") ?? 0)
            #expect(width * height > 16_000_000, "\(row.file): \(error)")
        }
    }

    @Test(arguments: rows.filter { $0.file.contains("/broken/") })
    func brokenFilesAreRecordedWithAReason(row: ManifestRow) {
        #expect(throws: PhotoError.self, "\(row.file)") {
            try Renderer(options: RenderOptions()).render(file: FilePath(row.path), specs: [.fit(96)])
        }
    }

    /// The orientation derived from `irot` and `imir`, applied by the renderer, against libheif
    /// applying the transformations itself.
    @Test(arguments: ["heic/orientation5.heic", "avif/kimono.mirror-vertical.rotate270.avif", "avif/Ronda_rotate90.avif"])
    func transformationsAreAppliedExactlyOnce(file: String) throws {
        let path = FilePath(Corpus.path("formats/" + file))
        let metadata = try MetadataReader.read(at: path)
        let header = try #require(metadata.heif)
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path.string)))
        let ours = try HEIFDecoder(data: data).decode(thumbnail: nil, alpha: false, bitDepth: header.bitDepth)
            .oriented(metadata.orientation)
        let theirs = try HEIFDecoder(data: data).decode(thumbnail: nil, alpha: false, bitDepth: header.bitDepth, transformed: true)
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        let difference = zip(ours.pixels, theirs.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(max(1, ours.pixels.count)) < 1, "\(file)")
        // A HEIF's own EXIF orientation is never what displays it.
        #expect(metadata.orientation == header.orientation)
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
        #expect(fromThumbnail.renditions.first?.source == .heifThumbnail && fromPhoto.renditions.first?.source == .decoded)
        let a = try PNGDecoder.decode(bytes: try #require(fromThumbnail.renditions.first?.bytes))
        let b = try PNGDecoder.decode(bytes: try #require(fromPhoto.renditions.first?.bytes))
        #expect(a.width == b.width && a.height == b.height && a.height > a.width)
        let difference = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(a.pixels.count) < 12)
    }

    /// An nclx Display P3 description converts like the Display P3 ICC profile phones embed.
    @Test func nclxDisplayP3ConvertsLikeTheICCProfile() throws {
        let nclx = try #require(ColorTransform.iccProfile(nclxPrimaries: 12, transfer: 13))
        let embedded = try #require(try MetadataReader.read(at: FilePath(Corpus.path("large/012mp-bus.jpg"))).jpeg?.iccProfile)
        let samples: [UInt8] = [200, 100, 50, 30, 180, 90, 240, 240, 240, 10, 20, 200]
        func convert(_ profile: [UInt8]) throws -> [UInt8] {
            let transform = try #require(ColorTransform(profile: profile, input: .rgb))
            var out = [UInt8](repeating: 0, count: samples.count)
            samples.withUnsafeBytes { source in out.withUnsafeMutableBytes { transform.apply(source.baseAddress!, $0.baseAddress!, count: 4) } }
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
