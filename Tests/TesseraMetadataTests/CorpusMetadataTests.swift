import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraTestSupport
import Testing

/// Every photo of a format Tessera reads in the shared corpus against the facts its
/// MANIFEST.tsv records (exiftool 12.57).
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct CorpusMetadataTests {
    static let formats: [String: ImageFormat] = [
        "JPEG": .jpeg, "PNG": .png, "WebP": .webp, "HEIF": .heif, "AVIF": .avif,
    ]

    static let decodable = Corpus.manifest().filter { row in
        formats[row["format"] ?? ""] != nil && row["width"] != nil && !row.file.hasPrefix("broken/")
            && !row.file.contains("/broken/")
    }

    @Test(arguments: decodable)
    func headerMatchesManifest(row: ManifestRow) throws {
        let meta = try MetadataReader.read(at: FilePath(row.path))
        #expect(meta.format == Self.formats[row["format"] ?? ""])
        // The manifest has a HEIF's stored size (its ispe); the photo is what its clean aperture leaves.
        let stored = meta.heif.map { ($0.width, $0.height) } ?? (meta.width, meta.height)
        #expect(stored.0 == Int(row["width"] ?? ""))
        #expect(stored.1 == Int(row["height"] ?? ""))
        if let crop = meta.heif?.cleanAperture {
            #expect((meta.width, meta.height) == (crop.width, crop.height))
        }
    }

    static func isHEIF(_ row: ManifestRow) -> Bool { ["HEIF", "AVIF"].contains(row["format"] ?? "") }

    @Test(arguments: decodable.filter { !isHEIF($0) })
    func orientationMatchesManifest(row: ManifestRow) throws {
        let meta = try MetadataReader.read(at: FilePath(row.path))
        let raw = row["exif_orientation"].flatMap { Int($0.prefix { $0.isNumber }) }
        let expected = raw.map { (1...8).contains($0) ? $0 : 1 } ?? 1
        #expect(meta.orientation == expected)
        if let raw, !(1...8).contains(raw) {
            #expect(meta.warnings.contains { $0.contains("orientation") })
        }
        #expect(meta.displayWidth == (expected >= 5 ? meta.height : meta.width))
    }

    /// HEIF and AVIF display by their `irot`/`imir` transformations, never by an EXIF tag
    /// inside them: the orientation is theirs, and the displayed size is the manifest's.
    @Test(arguments: Corpus.manifest(folder: "formats").filter { isHEIF($0) && $0["heif_display_size"] != nil })
    func heifOrientationFollowsItsTransformations(row: ManifestRow) throws {
        let meta = try MetadataReader.read(at: FilePath(row.path))
        let display = (row["heif_display_size"] ?? "").split(separator: "x").compactMap { Int($0) }
        #expect([meta.displayWidth, meta.displayHeight] == display, "\(row.file): orientation \(meta.orientation)")
        if row["heif_transforms"] == "none" || row["heif_transforms"] == "irot 0" { #expect(meta.orientation == 1) }
    }

    @Test(arguments: decodable)
    func dateTimeOriginalMatchesManifest(row: ManifestRow) throws {
        let meta = try MetadataReader.read(at: FilePath(row.path))
        let original = meta.exif?.dateTimeOriginal
        guard let expected = row["exif_datetime_original"], !expected.hasPrefix("[") else {
            #expect(original == nil || DateText.exif(original?.dateTime ?? "") == nil)
            return
        }
        let verbatim = expected.hasPrefix("\"") ? String(expected.dropFirst().dropLast()) : expected
        #expect(
            original?.dateTime.trimmingCharacters(in: .whitespaces) == verbatim.trimmingCharacters(in: .whitespaces))
        #expect(original?.offset == row["exif_offset_time_original"])
        #expect(original?.subSeconds == row["exif_subsec_time_original"])
        if let clock = DateText.exif(verbatim) {
            #expect(meta.captureDate?.source == .exifOriginal || meta.captureDate?.source == .gpsOffset)
            #expect(meta.captureDate?.wallClock.year == clock.year)
            #expect(meta.captureDate?.wallClock.second == clock.second)
            // The recorded offset when there is one; else one derived (OffsetTime, XMP, GPS) or none.
            if let recorded = row["exif_offset_time_original"] {
                #expect(meta.captureDate?.utcOffset?.description == recorded)
            }
        }
    }

    @Test(arguments: decodable.filter { $0["camera"] != nil })
    func cameraMatchesManifest(row: ManifestRow) throws {
        let meta = try MetadataReader.read(at: FilePath(row.path))
        let camera = [meta.exif?.make, meta.exif?.model].compactMap { $0 }.joined(separator: " ")
        #expect(camera == row["camera"])
    }

    @Test(arguments: Corpus.manifest().filter { $0.file.hasPrefix("broken/") })
    func brokenFilesGiveErrorsOrWarnings(row: ManifestRow) {
        // A broken file may still have a readable header (the decoder is what fails);
        // what it must never do is crash or hang.
        do {
            let meta = try MetadataReader.read(at: FilePath(row.path))
            #expect(meta.width > 0 && meta.height > 0)
        } catch {
            #expect(!error.message.isEmpty)
            #expect(error.path == FilePath(row.path))
        }
    }

    @Test func largeBusPhotoHasSubSecondsAndOffset() throws {
        let meta = try MetadataReader.read(at: FilePath(Corpus.path("large/012mp-bus.jpg")))
        #expect(meta.captureDate?.wallClock.iso8601 == "2024-09-28T11:03:29.239")
        #expect(meta.captureDate?.utcOffset?.description == "+02:00")
        #expect(meta.captureDate?.instantMilliseconds == 1_727_514_209_239)
    }

    @Test func orientationSixFromLibexif() throws {
        let meta = try MetadataReader.read(at: FilePath(Corpus.path("orientation/Landscape_6.jpg")))
        #expect(meta.exif?.orientation == 6)
        // Stored 1200×1800 (a portrait sensor readout), displayed as the landscape it shows.
        #expect(meta.width == 1200 && meta.height == 1800)
        #expect(meta.displayWidth == 1800 && meta.displayHeight == 1200)
    }
}
