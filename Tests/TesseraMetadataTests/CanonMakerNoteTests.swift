import Foundation
import SystemPackage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraMetadata

/// Canon bodies that record their lens only in the maker note, as exiftool reads it: by name
/// (tag 0x0095) or, older ones, by a lens type number in their CameraSettings.
struct CanonMakerNoteTests {
    static func jpeg(
        make: String, lens: String?, lensType: ExifBuilder.CanonLens? = nil, bigEndian: Bool
    ) throws -> [UInt8] {
        var exif = ExifBuilder()
        exif.bigEndian = bigEndian
        exif.make = make
        exif.model = "Canon EOS-1Ds Mark III"
        exif.dateTimeOriginal = .init(dateTime: "2008:05:01 12:00:00")
        exif.canonLensModel = lens
        exif.canonLens = lensType
        return try SampleImage.jpeg(SampleImage.pixels(width: 32, height: 24), exif: exif)
    }

    static func read(
        make: String = "Canon", lens: String?, lensType: ExifBuilder.CanonLens? = nil, bigEndian: Bool = false
    ) throws -> PhotoMetadata {
        try MetadataReader.read(
            contents: jpeg(make: make, lens: lens, lensType: lensType, bigEndian: bigEndian),
            path: FilePath("IMG_0001.JPG"), mtime: FileTime(seconds: 0, nanoseconds: 0))
    }

    @Test(arguments: [false, true])
    func theLensInACanonMakerNoteIsTheLens(bigEndian: Bool) throws {
        let metadata = try Self.read(lens: "EF50mm f/1.2L USM", bigEndian: bigEndian)
        #expect(metadata.exif?.lensModel == "EF50mm f/1.2L USM")
    }

    /// The note as made here is one exiftool reads as Canon's: the test above tests the real layout.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool"), "exiftool is not installed"))
    func exiftoolReadsTheSameLens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("IMG_0001.JPG")
        try Data(Self.jpeg(make: "Canon", lens: "EF50mm f/1.2L USM", bigEndian: false)).write(
            to: URL(fileURLWithPath: file))
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

    /// A CR2 (a TIFF whose maker note offsets count from the file's start) cut short after
    /// its maker note: the lens as exiftool reads it, by name or by lens type.
    @Test(arguments: [false, true])
    func aCanonRawsLensIsInItsMakerNote(bigEndian: Bool) throws {
        var exif = ExifBuilder()
        exif.bigEndian = bigEndian
        (exif.make, exif.model, exif.imageSize) = ("Canon", "Canon EOS-1Ds Mark III", (5616, 3744))
        exif.dateTimeOriginal = .init(dateTime: "2008:05:01 12:00:00")
        exif.canonLensModel = "EF50mm f/1.2L USM"
        let read = { (exif: ExifBuilder) in
            try MetadataReader.read(
                contents: exif.tiff(), path: FilePath("IMG_0001.CR2"), mtime: FileTime(seconds: 0, nanoseconds: 0))
        }
        #expect(try read(exif).exif?.lensModel == "EF50mm f/1.2L USM")
        exif.canonLensModel = nil
        exif.canonLens = ExifBuilder.CanonLens(type: 241, shortest: 50, longest: 50)
        #expect(try read(exif).exif?.lensModel == "Canon EF 50mm f/1.2L USM")
        // Cut inside its note, the file gives what it has and no lens, every byte short.
        let whole = exif.tiff()
        for length in stride(from: whole.count - 1, to: whole.count - 120, by: -7) {
            let metadata = try? MetadataReader.read(
                contents: Array(whole.prefix(length)), path: FilePath("IMG_0001.CR2"),
                mtime: FileTime(seconds: 0, nanoseconds: 0))
            #expect(metadata?.exif?.lensModel == nil, "cut at \(length) of \(whole.count)")
        }
    }

    @Test(arguments: [false, true])
    func anOlderBodysLensIsNamedByItsLensType(bigEndian: Bool) throws {
        let lens = ExifBuilder.CanonLens(type: 241, shortest: 50, longest: 50)
        #expect(
            try Self.read(lens: nil, lensType: lens, bigEndian: bigEndian).exif?.lensModel == "Canon EF 50mm f/1.2L USM"
        )
    }

    /// The lens type and focal range as made here are the ones exiftool reads as Canon's.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool"), "exiftool is not installed"))
    func exiftoolReadsTheSameLensType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("IMG_0001.JPG")
        let lens = ExifBuilder.CanonLens(type: 48, shortest: 18, longest: 55)
        try Data(Self.jpeg(make: "Canon", lens: nil, lensType: lens, bigEndian: true)).write(
            to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = [
            "-s", "-s", "-s", "-Canon:LensType", "-Canon:MinFocalLength", "-Canon:MaxFocalLength", file,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.split(separator: "\n") == ["Canon EF-S 18-55mm f/3.5-5.6 IS", "18 mm", "55 mm"])
        #expect(try Self.read(lens: nil, lensType: lens).exif?.lensModel == "Canon EF-S 18-55mm f/3.5-5.6 IS")
    }

    /// A number whose lens disagrees with the recorded focal range is another lens reporting it
    /// (as a Canon D30's CRW reports 251, a 70-200 mm, for a 16-35 mm), or a 7D's low byte.
    @Test func aLensTypeWhoseFocalRangeDisagreesNamesNoLens() throws {
        let lens = ExifBuilder.CanonLens(type: 241, shortest: 16, longest: 35)
        #expect(try Self.read(lens: nil, lensType: lens).exif?.lensModel == nil)
    }

    /// Canon's 2 is its EF 28mm f/2.8 and several Sigma lenses: a guess would often be wrong.
    @Test func aLensTypeSharedWithOtherLensesNamesNoLens() throws {
        let lens = ExifBuilder.CanonLens(type: 2, shortest: 28, longest: 28)
        #expect(try Self.read(lens: nil, lensType: lens).exif?.lensModel == nil)
    }

    @Test func theLensModelTextComesBeforeTheLensType() throws {
        let lens = ExifBuilder.CanonLens(type: 48, shortest: 18, longest: 55)
        #expect(
            try Self.read(lens: "EF-S18-55mm f/3.5-5.6 IS", lensType: lens).exif?.lensModel
                == "EF-S18-55mm f/3.5-5.6 IS")
    }

    @Test func focalRangesAreReadFromLensNames() {
        #expect(CanonMakerNote.focalRange(of: "Canon EF-S 18-55mm f/3.5-5.6 IS") ?? (0, 0) == (18, 55))
        #expect(CanonMakerNote.focalRange(of: "Canon EF 50mm f/1.2L USM") ?? (0, 0) == (50, 50))
        #expect(CanonMakerNote.focalRange(of: "Canon CN-E 14mm T3.1 L F") ?? (0, 0) == (14, 14))
        #expect(CanonMakerNote.focalRange(of: "Canon Extender 1.4x") == nil)
    }

    /// Every name in the table states the focal range the check needs: one that did not would
    /// never be given.
    @Test func everyLensInTheTableStatesItsFocalRange() {
        #expect(CanonLensTypes.names.values.filter { CanonMakerNote.focalRange(of: $0) == nil }.isEmpty)
    }

    /// A real one: the 1000D's JPEG names its lens only in its maker note (exiftool: Canon:LensModel).
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func aCanon1000DsLensIsReadFromItsMakerNote() throws {
        let metadata = try MetadataReader.read(at: FilePath(Corpus.path("large/Canon EOS 1000D.jpg")))
        #expect(metadata.exif?.lensModel == "EF-S18-55mm f/3.5-5.6 IS")
    }

    /// The same photo as an older body would record it: its LensModel entry renamed to a tag
    /// nobody reads leaves the lens type number and focal range of its CameraSettings.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func aCanon1000DsLensIsNamedByItsLensTypeWithoutItsLensModel() throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path("large/Canon EOS 1000D.jpg"))))
        let entry: [UInt8] = [0x95, 0x00, 0x02, 0x00, 0x40, 0x00, 0x00, 0x00]
        let starts = (0...(bytes.count - entry.count)).filter { bytes[$0..<($0 + entry.count)].elementsEqual(entry) }
        try #require(starts.count == 1)
        bytes[starts[0]] = 0x96
        let metadata = try MetadataReader.read(
            contents: bytes, path: FilePath("IMG_0001.JPG"), mtime: FileTime(seconds: 0, nanoseconds: 0))
        #expect(metadata.exif?.lensModel == "Canon EF-S 18-55mm f/3.5-5.6 IS")
    }

    @Test func anotherMakersNoteIsNotReadAsCanons() throws {
        #expect(
            try Self.read(make: "NIKON CORPORATION", lens: "EF50mm f/1.2L USM", bigEndian: false).exif?.lensModel == nil
        )
    }
}
