import Foundation
import TesseraTestSupport
import Testing

/// Places as a user meets them (docs/PLACES.md): named by the scan from the positions it reads,
/// found by `list --place`; without the place data, said once and named by a later scan that
/// has it, without reading a photo again.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct PlacesScanTests {
    private func paths(_ place: String, _ directory: TemporaryDirectory) throws -> [String] {
        let listed = try TesseraProcess.run(["list", "--json", "--place", place] + ScanCommandTests.store(directory))
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        return items.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
    }

    @Test func placesAreNamedFromThePositionsAndFoundByName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = Corpus.path("media/live")
        let index = directory.appending("index.sqlite")

        // Given no place data: the scan says so once, records the photos, and names no place.
        let without = try TesseraProcess.run(
            ["scan", root] + ScanCommandTests.store(directory), environment: ["TESSERA_PLACES": "/nonexistent"])
        #expect(without.status == 0, Comment(rawValue: without.stderr))
        #expect(
            without.stderr.components(separatedBy: "no place names from positions: the place data").count == 2,
            "\(without.stderr)")
        #expect(SQLite.integer(index, "SELECT COUNT(*) FROM photo_places") == 0)
        let waiting = try #require(SQLite.integer(index, "SELECT COUNT(*) FROM photos WHERE gps_latitude IS NOT NULL"))
        #expect(waiting >= 4)

        // When a scan has it: every photo with a position is named, none read again.
        let with = try TesseraProcess.run(["scan", root, "--json"] + ScanCommandTests.store(directory))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(with.stdout.utf8)) as? [String: Any])
        let counts = try #require(summary["counts"] as? [String: Any])
        #expect(counts["changed"] as? Int == 0 && counts["new"] as? Int == 0 && counts["reread"] as? Int == 0)
        #expect(SQLite.integer(index, "SELECT COUNT(*) FROM place_pending") == 0)
        #expect(SQLite.integer(index, "SELECT COUNT(*) FROM photo_places") == waiting)

        // Then: by town, region, country or code, in any case, with or without accents.
        #expect(try paths("Brno", directory) == ["IMG_7943.HEIC"])
        #expect(try paths("BRNO", directory) == ["IMG_7943.HEIC"])
        #expect(try paths("cz", directory) == ["IMG_7943.HEIC"])
        // (and by the names GeoNames gives it in other languages)
        #expect(try paths("Brünn", directory) == ["IMG_7943.HEIC"])
        #expect(try paths("Alabama", directory) == ["IMG_3582.HEIC"])
        #expect(Set(try paths("united kingdom", directory)).isSuperset(of: ["train.jpg", "test_live.HEIC"]))
        #expect(try paths("Tokyo", directory).isEmpty)
        #expect(try paths("Brn", directory).isEmpty)
    }

    /// The photos' own words win over their positions, and a folder's correction over both;
    /// `inspect` says which decided.
    @Test func thePhotosOwnWordsAndCorrectionsWin() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = URL(fileURLWithPath: directory.appending("library"))
        let copies = [
            ("media/xmp/embedded/digikam.jpg", "Japan/digikam.jpg"),
            ("media/xmp/sidecar/20240128_185808.JPG", "Prague/20240128_185808.JPG"),
            ("media/xmp/sidecar/20240128_185808.JPG.xmp", "Prague/20240128_185808.JPG.xmp"),
            ("media/live/train.jpg", "Fixed/train.jpg"),
        ]
        for (source, target) in copies {
            let to = library.appendingPathComponent(target)
            try FileManager.default.createDirectory(
                at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: Corpus.path(source)), to: to)
        }
        let config = directory.appending("tessera.yaml")
        try """
        roots: ["\(library.path)"]
        place_corrections:
          - folder: Fixed
            city: Porto
            country_code: PT
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let store = ["--config", config] + ScanCommandTests.store(directory)
        let scan = try TesseraProcess.run(["scan"] + store)
        #expect(scan.status == 0, Comment(rawValue: scan.stderr))

        let listed = { (place: String) throws -> [String] in
            let run = try TesseraProcess.run(["list", "--json", "--place", place] + store)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            return items.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
        }
        #expect(try listed("Shimizu") == ["digikam.jpg"] && listed("japan") == ["digikam.jpg"])
        #expect(try listed("Prague") == ["20240128_185808.JPG"])
        #expect(try listed("porto") == ["train.jpg"] && listed("united kingdom").isEmpty)
        let sources = SQLite.query(
            directory.appending("index.sqlite"),
            "SELECT source FROM photo_places q JOIN photos p ON p.id = q.photo_id ORDER BY p.path_text")
        #expect(sources == [["correction"], ["words"], ["gps"]])

        let inspect = try TesseraProcess.run(
            ["inspect", library.appendingPathComponent("Japan/digikam.jpg").path] + store)
        #expect(
            inspect.stdout.contains("Kamichō, Shimizu, Chiba Ken, Japan (the photo's own words)"), "\(inspect.stdout)")
        let explained = try TesseraProcess.run(
            ["explain", "--json", library.appendingPathComponent("Japan/digikam.jpg").path] + store)
        let facts = try #require(
            try JSONSerialization.jsonObject(with: Data(explained.stdout.utf8)) as? [[String: Any]])
        let place = try #require(facts.first { $0["fact"] as? String == "place" })
        #expect((place["rule"] as? String)?.hasPrefix("the photo's own words") == true, "\(place)")
        let candidates = place["candidates"] as? [[String: Any]] ?? []
        #expect(candidates.first?["outcome"] as? String == "lower precedence", "\(place)")
        let fixed = try TesseraProcess.run(["inspect", library.appendingPathComponent("Fixed/train.jpg").path] + store)
        #expect(fixed.stdout.contains("Porto, Portugal (corrected in the configuration)"), "\(fixed.stdout)")
    }
}
