import SystemPackage
import TesseraFacts
import TesseraTestSupport
import Testing

@testable import TesseraIndex

/// The places an index keeps (docs/PLACES.md): named again when a position comes, changes or
/// goes, and all again when the place data changes; never for a position that did not change.
struct PlaceRefreshTests {
    /// Names a position by its whole degrees: each degree of latitude is a town of its own.
    private static func name(_ evidence: PlaceEvidence) -> PlaceName? {
        guard let position = evidence.position, position.latitude.isFinite, abs(position.latitude) <= 90 else {
            return nil
        }
        let town = "Town \(Int(position.latitude.rounded(.down)))"
        return PlaceName(
            country: "Portugal", countryCode: "PT", region: "Lisboa", locality: town, near: false, distance: 1)
    }

    @Test func aPositionThatComesChangesOrGoesIsNamedAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("index.sqlite")
        let index = try PhotoIndex(path: FilePath(path))
        try PhotoIndexTests.populate(index, root: "/photos")
        let first = try index.refreshPlaces(data: "one", name: Self.name)
        #expect(first.whole && first.photos > 0 && first.named == 0)

        // Two photos gain a position in one town: one place, two photos in it.
        #expect(SQLite.write(path, "UPDATE photos SET gps_latitude = 38.7, gps_longitude = -9.1 WHERE id IN (1, 2)"))
        let named = try index.refreshPlaces(data: "one", name: Self.name)
        #expect(named == PlaceRefresh(photos: 2, named: 2, whole: false))
        #expect(
            SQLite.query(path, "SELECT locality, search_keys FROM places") == [
                ["Town 38", "|town 38|lisboa|portugal|pt|"]
            ])
        #expect(SQLite.integer(path, "SELECT COUNT(*) FROM photo_places") == 2)

        // Nothing changed: nothing is named again, even when the rows are written again.
        #expect(SQLite.write(path, "UPDATE photos SET gps_latitude = 38.7, rating = 3 WHERE id = 1"))
        #expect(try index.refreshPlaces(data: "one", name: Self.name).photos == 0)

        // One moves to another town, one loses its position: the first town's place goes.
        #expect(SQLite.write(path, "UPDATE photos SET gps_latitude = 40.2 WHERE id = 1"))
        #expect(SQLite.write(path, "UPDATE photos SET gps_latitude = NULL, gps_longitude = NULL WHERE id = 2"))
        #expect(try index.refreshPlaces(data: "one", name: Self.name) == PlaceRefresh(photos: 2, named: 1))
        #expect(
            SQLite.query(path, "SELECT p.locality FROM photo_places q JOIN places p ON p.id = q.place_id") == [
                ["Town 40"]
            ])
        #expect(SQLite.integer(path, "SELECT COUNT(*) FROM places") == 1)

        // Other place data: every photo with a position is named again.
        let again = try index.refreshPlaces(data: "two", name: Self.name)
        #expect(again.whole && again.photos == first.photos && again.named == 1)
        var query = PhotoQuery()
        query.place = "TOWN 40"
        #expect(try index.photos(query).map(\.id) == [1])
    }

    /// An index of schema 19 reads again, once, the photos whose XMP may hold words it never
    /// recorded (a sidecar, or a fact only XMP gives), and no other; their places are named again.
    @Test func aVersion19IndexReadsAgainOnlyThePhotosWhoseXMPMayNameAPlace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try PhotoIndexTests.index(
            at: 19, in: directory,
            """
                INSERT INTO albums (id, path, root, name) VALUES (1, X'2F702F47', X'2F70', 'G');
                INSERT INTO photos (id, path, path_text, album_id, device, inode, size, mtime_ns, status, format,
                    width, height, orientation, date_source, content_hash, sidecar, rating, gps_latitude, gps_longitude)
                VALUES (7, X'2F702F472F612E6A7067', '/p/G/a.jpg', 1, 1, 2, 3, 4, 'ok', 'jpeg', 30, 20, 1, 'undated',
                    'h7', X'612E786D70', NULL, NULL, NULL),
                (8, X'2F702F472F622E6A7067', '/p/G/b.jpg', 1, 1, 3, 3, 4, 'ok', 'jpeg', 30, 20, 1, 'undated', 'h8',
                    NULL, 3, NULL, NULL),
                (9, X'2F702F472F632E6A7067', '/p/G/c.jpg', 1, 1, 4, 3, 4, 'ok', 'jpeg', 30, 20, 1, 'undated', 'h9',
                    NULL, NULL, 38.7, -9.1);
            """)
        let index = try PhotoIndex(path: FilePath(path))
        #expect(SQLite.query(path, "SELECT photo_id FROM place_unread ORDER BY 1") == [["7"], ["8"]])
        let files = try index.files(inDirectory: Array("/p/G".utf8))
        #expect(files.values.filter(\.needsRetry).map(\.id).sorted() == [7, 8])
        // Every photo's place is named again by the next scan (the place data is new to it).
        let refresh = try index.refreshPlaces(data: "one") { evidence in
            evidence.position.map { _ in
                PlaceName(country: "Portugal", countryCode: "PT", region: nil, locality: "Lisbon", distance: 1)
            }
        }
        #expect(refresh.whole && refresh.photos == 3 && refresh.named == 1)
    }

    /// A place named first from a photo's words (no other names) and then from another's position
    /// (with them), in one naming, is found by its other names.
    @Test func aPlaceIsFoundByTheOtherNamesOfAnyPhotoNamedInIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("index.sqlite")
        let index = try PhotoIndex(path: FilePath(path))
        try PhotoIndexTests.populate(index, root: "/photos")
        #expect(SQLite.write(path, "UPDATE photos SET gps_latitude = 38.7, gps_longitude = -9.1 WHERE id = 2"))
        #expect(
            SQLite.write(path, "INSERT INTO photo_location_words (photo_id, city, country) VALUES (1, 'Lisbon', 'PT')"))
        _ = try index.refreshPlaces(data: "one") { evidence in
            guard evidence.position != nil || evidence.words != nil else { return nil }
            var place = PlaceName(
                country: "Portugal", countryCode: "PT", region: nil, locality: "Lisbon", distance: nil,
                source: evidence.position == nil ? .words : .gps)
            if evidence.position != nil { place.alternateNames = ["Lisboa"] }
            return place
        }
        #expect(SQLite.query(path, "SELECT search_keys FROM places") == [["|lisbon|portugal|pt|lisboa|"]])
    }
}
