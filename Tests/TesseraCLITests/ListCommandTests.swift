import Foundation
import SystemPackage
import TesseraImage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// `tessera list` and `tessera layout` as a person reads them: every kind of file can be
/// listed, a filter that matches nothing says so, and a bad option is a sentence.
struct ListCommandTests {
    static func run(_ arguments: [String], _ directory: TemporaryDirectory) throws -> TesseraProcess.Result {
        try TesseraProcess.run(arguments + ScanCommandTests.store(directory))
    }

    @Test func errorsAndUnsupportedFilesAreListedWithWhyAndEmptyAnswersAreSaid() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 3, width: 120)
        #expect(try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory)).status == 0)
        // A clean library: each empty answer is a sentence (on stderr, so that the output stays
        // empty for programs), not silence.
        let none = try Self.run(["list", "--errors"], directory)
        #expect(
            none.status == 0 && none.stdout.isEmpty && none.stderr.contains("No file has an error"), "\(none.stderr)")
        #expect(try Self.run(["list", "--unsupported"], directory).stderr.contains("No unsupported file"))
        // Then a damaged photo and a text file.
        let jpeg = try SampleImage.jpeg(SampleImage.pixels(width: 80, height: 60, seed: 3))
        try FileSystem.writeAtomically(jpeg.prefix(200), to: FilePath(photos).appending("broken.jpg"))
        try FileSystem.writeAtomically(Array("notes".utf8), to: FilePath(photos).appending("notes.txt"))
        #expect(try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory)).status == 0)
        let errors = try Self.run(["list", "--errors"], directory)
        #expect(errors.status == 0 && errors.stdout.contains("broken.jpg: "), "\(errors.stdout)")
        let unsupported = try Self.run(["list", "--unsupported"], directory)
        #expect(unsupported.stdout.contains("notes.txt: not a photo format Tessera reads"), "\(unsupported.stdout)")
        let nope = try Self.run(["list", "--album", "Nope"], directory)
        #expect(nope.status != 0 && nope.stderr.contains("no album is named \"Nope\""), "\(nope.stderr)")
    }

    /// `--album` takes any level of the folder tree: a folder of albums lists the photos of the
    /// albums inside it; a name two roots share asks for the path.
    @Test func anAlbumAtAnyLevelListsThePhotosInItAndBelowIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (number, path) in [
            "one/Trips/Rome/a.jpg", "one/Trips/2023/Paris/b.jpg", "one/Home/c.jpg", "two/Trips/d.jpg",
        ]
        .enumerated() {
            let bytes = try SampleImage.jpeg(SampleImage.pixels(width: 80, height: 60, seed: number))
            try FileSystem.writeAtomically(bytes, to: FilePath(directory.appending(path)))
        }
        let roots = [directory.appending("one"), directory.appending("two")]
        #expect(try TesseraProcess.run(["scan"] + roots + ScanCommandTests.store(directory)).status == 0)
        func names(_ album: String) throws -> [String] {
            let result = try Self.run(["list", "--album", album, "--json"], directory)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            return rows.compactMap { ($0["path"] as? String).map { String($0.suffix(6)) } }.sorted()
        }
        #expect(try names(directory.appending("one/Trips")) == ["/a.jpg", "/b.jpg"])
        #expect(try names("Trips/2023") == ["/b.jpg"])
        #expect(try names("Trips/2023/Paris") == ["/b.jpg"])
        #expect(try names(directory.appending("two/Trips/")) == ["/d.jpg"])
        let shared = try Self.run(["list", "--album", "Trips"], directory)
        #expect(
            shared.status != 0 && shared.stderr.contains("several folders are named \"Trips\"")
                && shared.stderr.contains(directory.appending("one/Trips")), "\(shared.stderr)")
        let none = try Self.run(["list", "--album", "Trip"], directory)
        #expect(none.status != 0 && none.stderr.contains("no album is named \"Trip\""), "\(none.stderr)")
    }

    /// A photo indexed with a warning (a JPEG cut short: shown, with its warning) is listed
    /// with it by `--warnings`; a clean library says it has none.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func photosWithWarningsAreListedWithThem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 1, width: 120)
        #expect(try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory)).status == 0)
        let none = try Self.run(["list", "--warnings"], directory)
        #expect(
            none.status == 0 && none.stdout.isEmpty && none.stderr.contains("No photo has a warning"), "\(none.stderr)")
        try FileManager.default.copyItem(
            atPath: Corpus.path("broken/jpeg/32d08f4a5eb10332506ebedbb9bc7257.jpg"), toPath: photos + "/cut.jpg")
        #expect(try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory)).status == 0)
        let listed = try Self.run(["list", "--warnings"], directory)
        let lines = listed.stdout.split(separator: "\n")
        #expect(
            listed.status == 0 && lines.count == 1 && lines[0].hasPrefix(photos + "/cut.jpg: ")
                && lines[0].contains("Premature end of JPEG file"), "\(listed.stdout)")
        let both = try Self.run(["list", "--warnings", "--errors"], directory)
        #expect(both.status != 0 && both.stderr.contains("at most one of"), "\(both.stderr)")
    }

    /// `list --albums` counts what an album shows as the site does: a Live Photo is one photo
    /// (its video is its motion), a video is a video.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func albumsCountTheirPhotosAndVideosApart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.appending("photos/Lisbon")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in ["media/live/IMG_3582.HEIC", "media/live/IMG_3582.mov", "media/videos/isom-avc1.mp4"] {
            try FileManager.default.copyItem(
                atPath: Corpus.path(file), toPath: folder + "/" + URL(fileURLWithPath: file).lastPathComponent)
        }
        let scan = try TesseraProcess.run(["scan", directory.appending("photos")] + ScanCommandTests.store(directory))
        #expect(scan.status == 0, "\(scan.stderr)")
        let table = try Self.run(["list", "--albums"], directory)
        #expect(table.stdout.contains("1 photo, 1 video") && table.stdout.contains("/Lisbon"), "\(table.stdout)")
        let json = try Self.run(["list", "--albums", "--json"], directory)
        let albums = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(
            albums.count == 1 && albums.first?["photos"] as? Int == 1 && albums.first?["videos"] as? Int == 1,
            "\(albums)")
    }

    @Test func listColumnsLineUpAndSayWhereEachDateCameFrom() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 4, width: 120)
        #expect(try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory)).status == 0)
        let lines = try Self.run(["list"], directory).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        // The date source starts in the same column on every line, whatever the date's length.
        let columns = Set(lines.compactMap { line in line.range(of: "exif-")?.lowerBound.utf16Offset(in: line) })
        #expect(columns.count == 1 && lines.allSatisfy { $0.contains("exif-original") }, "\(lines)")
    }

    @Test func aBadLayoutOptionIsASentenceOnStandardErrorAndJSONOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 1, width: 120)
        #expect(try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory)).status == 0)
        let plain = try Self.run(["layout", "--style", "fancy"], directory)
        #expect(plain.status == 2 && plain.stdout.isEmpty)
        #expect(
            plain.stderr.contains("--style must be one of tiles, masonry, grid, strip, justified, not \"fancy\""),
            "\(plain.stderr)")
        let json = try Self.run(["layout", "--style", "fancy", "--json"], directory)
        #expect(json.status == 2 && json.stdout.contains("\"invalidConfig\""), "\(json.stdout)")
    }
}
