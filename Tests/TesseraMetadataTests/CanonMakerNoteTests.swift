import Foundation
import SystemPackage
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// Canon bodies that record their lens only in the maker note (tag 0x0095), as exiftool reads it.
struct CanonMakerNoteTests {
    static func jpeg(make: String, lens: String, bigEndian: Bool) throws -> [UInt8] {
        var exif = ExifBuilder()
        exif.bigEndian = bigEndian
        exif.make = make
        exif.model = "Canon EOS-1Ds Mark III"
        exif.dateTimeOriginal = .init(dateTime: "2008:05:01 12:00:00")
        exif.canonLensModel = lens
        return try SampleImage.jpeg(SampleImage.pixels(width: 32, height: 24), exif: exif)
    }

    static func read(make: String, lens: String, bigEndian: Bool) throws -> PhotoMetadata {
        try MetadataReader.read(
            contents: jpeg(make: make, lens: lens, bigEndian: bigEndian), path: FilePath("IMG_0001.JPG"),
            mtime: FileTime(seconds: 0, nanoseconds: 0))
    }

    @Test(arguments: [false, true])
    func theLensInACanonMakerNoteIsTheLens(bigEndian: Bool) throws {
        let metadata = try Self.read(make: "Canon", lens: "EF50mm f/1.2L USM", bigEndian: bigEndian)
        #expect(metadata.exif?.lensModel == "EF50mm f/1.2L USM")
    }

    /// The note as made here is one exiftool reads as Canon's: the test above tests the real layout.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool"), "exiftool is not installed"))
    func exiftoolReadsTheSameLens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("IMG_0001.JPG")
        try Data(Self.jpeg(make: "Canon", lens: "EF50mm f/1.2L USM", bigEndian: false)).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-s", "-s", "-s", "-MakerNotes:LensModel", file]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "EF50mm f/1.2L USM")
    }

    /// A real one: the 1000D's JPEG names its lens only in its maker note (exiftool: Canon:LensModel).
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func aCanon1000DsLensIsReadFromItsMakerNote() throws {
        let metadata = try MetadataReader.read(at: FilePath(Corpus.path("large/Canon EOS 1000D.jpg")))
        #expect(metadata.exif?.lensModel == "EF-S18-55mm f/3.5-5.6 IS")
    }

    @Test func anotherMakersNoteIsNotReadAsCanons() throws {
        #expect(try Self.read(make: "NIKON CORPORATION", lens: "EF50mm f/1.2L USM", bigEndian: false).exif?.lensModel == nil)
    }
}
