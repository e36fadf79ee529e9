import Foundation
import SystemPackage
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

/// RAW files read from their own structure: shooting details, previews, and truncation.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct RAWStructureTests {
    static let utc = DateContext(timeZone: TimeZone(identifier: "UTC") ?? .current)

    @Test func aSonyARWLibRawRefusesStillGivesItsShootingDetails() throws {
        let metadata = try MetadataReader.read(at: FilePath(Corpus.path("media/raw-exif/fixture-sony-zv-e10.arw")), context: Self.utc)
        #expect(metadata.exif?.exposureTime == 1.0 / 160)
        #expect(metadata.exif?.fNumber == 18)
        #expect(metadata.exif?.iso == 100)
        #expect(metadata.exif?.focalLength == 29)
        #expect(metadata.orientation == 6)
        #expect(metadata.captureDate?.utcOffset?.description == "-07:00")
        // The copy ends at 100,000 bytes; its preview starts at 118,946.
        #expect(metadata.raw?.cutPreview?.offset == 118_946 && metadata.raw?.cutPreview?.length == 635_631)
    }

    @Test func aCanonCR3IsReadFromItsBoxes() throws {
        let metadata = try MetadataReader.read(at: FilePath(Corpus.path("formats/raw/Canon-R6-pruned.CR3")), context: Self.utc)
        #expect(metadata.exif?.model == "Canon EOS R6")
        #expect(metadata.exif?.exposureTime == 0.25 && metadata.exif?.fNumber == 25 && metadata.exif?.iso == 100)
        #expect(metadata.exif?.lensModel == "RF70-200mm F2.8 L IS USM")
        #expect(metadata.captureDate?.wallClock.iso8601 == "2021-05-12T12:21:21.920")
        #expect(metadata.captureDate?.utcOffset?.description == "+02:00")
        #expect(metadata.raw?.previews.first.map { [$0.width, $0.height] } == [1620, 1080])
    }
}
