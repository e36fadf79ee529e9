import Foundation
import TesseraTestSupport
import Testing

/// JPEG XL files in a scanned library: rows with their facts, renditions, and a damaged one
/// recorded with its reason while the others are indexed.
@Suite(
    .enabled(if: JXLFixture.cjxl != nil, "cjxl (libjxl-tools) is not installed"),
    .enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct JXLScanTests {
    @Test func aLibraryOfJPEGXLFilesIsIndexedAndRendered() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let photos = try TemporaryDirectory("jxl-sources")
        defer { photos.remove() }
        // Given a recompressed JPEG (EXIF and XMP in compressed boxes), a lossy photo turned a
        // quarter (the codestream's orientation), and one cut off inside a metadata box.
        let kept = try JXLFixture.make(Corpus.path("media/xmp/embedded/digikam.jpg"), as: "digikam.jxl", in: photos)
        let turned = try JXLFixture.make(Corpus.path("formats/icc/up_arrow_90cw_web.jpg"), as: "arrow.jxl", in: photos)
        try FileManager.default.copyItem(atPath: kept, toPath: root + "/digikam.jxl")
        try FileManager.default.copyItem(atPath: turned, toPath: root + "/arrow.jxl")
        try Data(try Data(contentsOf: URL(fileURLWithPath: turned)).prefix(300)).write(
            to: URL(fileURLWithPath: root + "/cut.jxl"))
        let store = ["--index", directory.appending("index.sqlite"), "--cache", directory.appending("cache")]

        // When it is scanned,
        let scan = try TesseraProcess.run(["scan", root] + store)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains("3 new, 1 could not be read"), "\(scan.stdout)")

        // Then each file has its row: facts from the codestream and the boxes, renditions for the two that decode.
        let index = directory.appending("index.sqlite")
        let rows = try #require(
            SQLite.query(
                index,
                """
                SELECT path_text, format, status, display_width, display_height, make, date_source, error_code,
                       (SELECT count(*) FROM renditions r WHERE r.photo_id = photos.id)
                FROM photos ORDER BY path_text
                """))
        #expect(
            rows.map { Array($0.dropFirst()) } == [
                ["jxl", "ok", "280", "400", "", "undated", "", "4"],
                ["jxl", "error", "", "", "", "", "truncated", "0"],
                ["jxl", "ok", "7", "5", "FUJIFILM", "exif-original", "", "4"],
            ], "\(rows)")
        let errors = try TesseraProcess.run(["list", "--errors"] + store)
        #expect(errors.stdout.contains("cut.jxl") && errors.stdout.contains("ends inside"), "\(errors.stdout)")
    }

    @Test func damagedJPEGXLFilesAreRecordedNeverFatal() throws {
        // Given JPEG XL files of each kind (boxes compressed and plain, a bare codestream,
        // lossy, progressive) and 60 damaged variants of each,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sources = try TemporaryDirectory("jxl-sources")
        defer { sources.remove() }
        let bases = [
            try JXLFixture.make(Corpus.path("media/xmp/embedded/digikam.jpg"), as: "digikam.jxl", in: sources),
            try JXLFixture.make(Corpus.path("formats/icc/up_arrow_90cw_web.jpg"), as: "arrow.jxl", in: sources),
            try JXLFixture.make(
                Corpus.path("formats/icc/Reagan.jpg"), as: "reagan.jxl", in: sources, ["-j", "0", "-d", "2", "-e", "3"]),
            try JXLFixture.make(
                Corpus.path("formats/icc/Reagan.jpg"), as: "reagan-progressive.jxl", in: sources,
                ["-j", "0", "-d", "2", "-e", "3", "--progressive_dc=1", "--progressive_ac", "--container=0"]),
        ]
        // when they are scanned, each has its row, the real ones are photos, every failure a reason.
        try HostileFileTests.scanMutants(of: bases, seed: 31, in: directory)
    }

    /// A library indexed before Tessera read JPEG XL has its .jxl files recorded as unsupported:
    /// the first scan with the new decoders reads them again, unchanged as they are.
    @Test func jpegXLFilesAnOlderVersionCalledUnsupportedAreReadAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let sources = try TemporaryDirectory("jxl-sources")
        defer { sources.remove() }
        let made = try JXLFixture.make(Corpus.path("media/xmp/embedded/digikam.jpg"), as: "digikam.jxl", in: sources)
        try FileManager.default.copyItem(atPath: made, toPath: root + "/digikam.jxl")
        try "notes".write(toFile: root + "/notes.txt", atomically: true, encoding: .utf8)
        let store = ["--index", directory.appending("index.sqlite"), "--cache", directory.appending("cache")]
        #expect(try TesseraProcess.run(["scan", root] + store).status == 0)
        // Given the index as the last version left it: the file unsupported, older decoders recorded,
        let index = directory.appending("index.sqlite")
        let edit = try Process.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            arguments: [
                index,
                """
                DELETE FROM renditions WHERE photo_id IN (SELECT id FROM photos WHERE path_text LIKE '%.jxl');
                UPDATE photos SET status = 'unsupported', format = 'unsupported', error = 'not a photo format Tessera reads',
                    width = NULL, height = NULL, make = NULL, thumbnail_key = NULL, thumbhash = NULL WHERE path_text LIKE '%.jxl';
                UPDATE state SET value = '3: libheif 1.19 tiles, PQ/HLG tone mapping, HEIF clean apertures' WHERE key = 'decoders';
                """,
            ])
        edit.waitUntilExit()
        try #require(edit.terminationStatus == 0)
        try #require(SQLite.query(index, "SELECT status FROM photos WHERE path_text LIKE '%.jxl'") == [["unsupported"]])
        // when the library is scanned, unchanged,
        let scan = try TesseraProcess.run(["scan", root] + store)
        #expect(scan.status == 0, "\(scan.stderr)")
        // then the JPEG XL file is a photo with its facts and renditions.
        let row = SQLite.query(
            index,
            """
            SELECT status, format, make, (SELECT count(*) FROM renditions r WHERE r.photo_id = photos.id)
            FROM photos WHERE path_text LIKE '%.jxl'
            """)?.first
        #expect(row == ["ok", "jxl", "FUJIFILM", "4"], "\(row ?? [])")
    }
}
