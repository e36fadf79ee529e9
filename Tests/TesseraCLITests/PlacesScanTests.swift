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
            without.stderr.components(separatedBy: "no place names: the place data").count == 2, "\(without.stderr)")
        #expect(SQLite.integer(index, "SELECT COUNT(*) FROM photo_places") == 0)
        let waiting = try #require(SQLite.integer(index, "SELECT COUNT(*) FROM place_pending"))
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
        #expect(try paths("Alabama", directory) == ["IMG_3582.HEIC"])
        #expect(Set(try paths("united kingdom", directory)).isSuperset(of: ["train.jpg", "test_live.HEIC"]))
        #expect(try paths("Tokyo", directory).isEmpty)
        #expect(try paths("Brn", directory).isEmpty)
    }
}
