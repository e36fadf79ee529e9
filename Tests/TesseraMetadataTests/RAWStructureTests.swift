import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// RAW files read from their own structure: shooting details, previews, and truncation.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct RAWStructureTests {
    static let utc = DateContext(timeZone: TimeZone(identifier: "UTC") ?? .current)

    @Test func aSonyARWLibRawRefusesStillGivesItsShootingDetails() throws {
        let metadata = try MetadataReader.read(
            at: FilePath(Corpus.path("media/raw-exif/fixture-sony-zv-e10.arw")), context: Self.utc)
        #expect(metadata.exif?.exposureTime == 1.0 / 160)
        #expect(metadata.exif?.fNumber == 18)
        #expect(metadata.exif?.iso == 100)
        #expect(metadata.exif?.focalLength == 29)
        // After the Interoperability IFD pointer, which is not carried over.
        #expect(metadata.exif?.lensModel == "E PZ 16-50mm F3.5-5.6 OSS" && metadata.focalLength35mm == 43)
        #expect(metadata.orientation == 6)
        #expect(metadata.captureDate?.utcOffset?.description == "-07:00")
        // The copy ends at 100,000 bytes; its preview starts at 118,946.
        #expect(metadata.raw?.cutPreview?.offset == 118_946 && metadata.raw?.cutPreview?.length == 635_631)
    }

    @Test func aCanonCR3IsReadFromItsBoxes() throws {
        let metadata = try MetadataReader.read(
            at: FilePath(Corpus.path("formats/raw/Canon-R6-pruned.CR3")), context: Self.utc)
        #expect(metadata.exif?.model == "Canon EOS R6")
        #expect(metadata.exif?.exposureTime == 0.25 && metadata.exif?.fNumber == 25 && metadata.exif?.iso == 100)
        #expect(metadata.exif?.lensModel == "RF70-200mm F2.8 L IS USM")
        #expect(metadata.captureDate?.wallClock.iso8601 == "2021-05-12T12:21:21.920")
        #expect(metadata.captureDate?.utcOffset?.description == "+02:00")
        #expect(metadata.raw?.previews.first.map { [$0.width, $0.height] } == [1620, 1080])
        // The pruned copy's image is smaller than its sensor: Canon's resolutions' denominators
        // give the sensor (exiftool: FocalLength35efl 200.611866191886).
        #expect(abs((metadata.focalLength35mm ?? 0) - 200.611866191886) < 0.01)
    }

    /// A Panasonic RW2's IFD0 has no EXIF IFD: the shot's EXIF is in its JpgFromRaw.
    @Test func aPanasonicRW2GivesTheEXIFOfItsEmbeddedJPEG() throws {
        let metadata = try MetadataReader.read(
            at: FilePath(Corpus.path("formats/raw/Panasonic.rw2")), context: Self.utc)
        #expect(metadata.exif?.iso == 80 && metadata.focalLength35mm == 24)
        #expect(metadata.captureDate?.source == .exifOriginal)
    }
}

/// 35 mm equivalents the camera did not record, computed as exiftool's `FocalLength35efl`.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct FocalLength35mmTests {
    /// Canon's sensor from its FocalPlaneResolution denominators (a resized JPEG and a cropped
    /// WebP, whose EXIF image sizes no longer match the sensor's); a DNG without
    /// PixelX/YDimension, from its own image size.
    @Test(arguments: [
        ("media/xmp/embedded/mongolels.jpg", 63.513088501538),
        ("formats/webp/denali.webp", 94.2198432339114),
        ("camera/Canon EOS D60.jpg", 44.4822809580954),
        ("formats/raw/canon_eos_6d.dng", 145.294117647059),
    ])
    func computedAsExiftoolDoes(file: String, exiftool: Double) throws {
        let metadata = try MetadataReader.read(at: FilePath(Corpus.path(file)))
        #expect(
            abs((metadata.focalLength35mm ?? 0) - exiftool) < 0.01 * exiftool,
            "\(file): \(String(describing: metadata.focalLength35mm))")
    }
}

/// RAW structures written without a care, or cut short, still give what they hold.
struct RAWStructureDamageTests {
    /// A TIFF-based file whose last IFD ends the file without the next-IFD pointer (4 bytes the
    /// file leaves out) still lists the preview that IFD points at.
    @Test func anIFDWithoutItsNextPointerStillGivesItsPreview() throws {
        let preview = try SampleImage.jpeg(SampleImage.pixels(width: 48, height: 32))
        var file: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
        let ifd = UInt32(8 + preview.count)
        file += [0, 1, 2, 3].map { UInt8(ifd >> (8 * $0) & 0xFF) }
        file += preview
        func entry(_ tag: UInt16, _ value: UInt32) -> [UInt8] {
            [UInt8(tag & 0xFF), UInt8(tag >> 8), 4, 0, 1, 0, 0, 0]
                + [0, 1, 2, 3].map { UInt8(value >> (8 * $0) & 0xFF) }
        }
        file += [2, 0] + entry(0x0201, 8) + entry(0x0202, UInt32(preview.count))
        let metadata = try MetadataReader.read(
            contents: file, path: "cut.nef", mtime: .init(seconds: 0, nanoseconds: 0), context: RAWStructureTests.utc)
        #expect(metadata.raw?.previews.map { [$0.width, $0.height] } == [[48, 32]])
    }
}
