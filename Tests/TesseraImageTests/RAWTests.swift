import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraImage

@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct RAWTests {
    static let rows = Corpus.manifest(folder: "formats").filter { $0.file.hasPrefix("formats/raw/") }

    /// Every RAW file LibRaw can open renders from its embedded preview, and so does a CR3 that
    /// LibRaw 0.20 cannot (its preview is found in its boxes); the others say why; none crashes
    /// or hangs.
    @Test(arguments: rows)
    func rawFilesRenderFromTheirPreviewOrSayWhyNot(row: ManifestRow) throws {
        let path = FilePath(row.path)
        let opens = !(row["libraw_identify"]?.hasPrefix("error") ?? true)
        let previewReadable = !(row["libraw_thumbnail"]?.hasPrefix("error") ?? true)
        do {
            let rendered = try Renderer(options: RenderOptions()).render(file: path, specs: [.fit(256)])
            if rendered.metadata.format == .raw {
                #expect(rendered.renditions.allSatisfy { $0.source == .rawPreview })
            }
        } catch {
            #expect(!(opens && previewReadable) && !row.file.hasSuffix(".CR3"), "\(row.file): \(error)")
            #expect(!error.reason.isEmpty)
        }
    }

    /// The camera and capture date of the TIFF-based RAW files, from their EXIF.
    @Test(arguments: rows.filter { $0["camera"] != nil && ($0["format"] ?? "").hasPrefix("TIFF") })
    func tiffBasedRawFilesReadTheirEXIF(row: ManifestRow) throws {
        let metadata = try MetadataReader.read(at: FilePath(row.path))
        #expect(metadata.format == .raw)
        #expect([metadata.exif?.make, metadata.exif?.model].compactMap { $0 }.joined(separator: " ") == row["camera"])
        #expect(metadata.exif?.dateTimeOriginal?.dateTime == row["exif_datetime_original"])
    }

    @Test func aPreviewSmallerThanTheRenditionsSaysSoAndIsNotEnlarged() throws {
        // The DNG's largest preview is 1024×683.
        let path = FilePath(Corpus.path("formats/raw/canon_eos_6d.dng"))
        let rendered = try Renderer(options: RenderOptions()).render(file: path, specs: [.fit(2048), .square(256)])
        let fit = try #require(rendered.rendition(.fit(2048)))
        #expect(fit.width == 1024 && fit.height == 683)
        #expect(rendered.warnings.contains { $0.contains("1024×683") })
    }

    /// A RAW cut short inside its largest preview, with a smaller one whole before the cut
    /// (made here from every corpus RAW that has such a pair): rendered from the smaller one,
    /// with the cut said as a warning.
    @Test func aRAWCutInsideItsLargestPreviewRendersFromAWholeSmallerOne() throws {
        var cuts = 0
        for row in Self.rows {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: row.path)))
            let name = FilePath(row.file).lastComponent?.string ?? "photo.raw"
            guard
                let metadata = try? MetadataReader.read(
                    contents: bytes, path: FilePath(name), mtime: .init(seconds: 0, nanoseconds: 0)),
                let previews = metadata.raw?.previews, let largest = previews.first,
                let smaller = previews.dropFirst().first(where: {
                    $0.offset + Int64($0.length) < largest.offset + Int64(largest.length / 2)
                })
            else { continue }
            // Cut halfway through the largest preview, past the end of the smaller one.
            let cut = Array(bytes.prefix(Int(largest.offset) + largest.length / 2))
            let rendered = try FileReader.withBytes(cut, path: FilePath(name), mtime: .init(seconds: 0, nanoseconds: 0))
            {
                (reader) throws(PhotoError) -> Renderer.Rendered in
                let metadata = try MetadataReader.read(reader, context: DateContext(timeZone: .current))
                return try Renderer(options: RenderOptions()).render(reader, metadata: metadata, specs: [.fit(256)])
            }
            let fit = try #require(rendered.rendition(.fit(256)))
            #expect(max(fit.width, fit.height) == min(256, max(smaller.width, smaller.height)), "\(row.file)")
            #expect(
                rendered.warnings.contains {
                    $0.contains("file ends before its preview") && $0.contains("smaller preview")
                },
                "\(row.file): \(rendered.warnings)")
            cuts += 1
        }
        #expect(cuts > 0, "no corpus RAW has a smaller preview before its largest")
    }
}
