import Foundation
import GRDB
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraIndex

/// The index file on its own: migrations, refusals, and the queries docs/INDEX.md promises.
struct PhotoIndexTests {
    /// What a scan reads of a 100×150 JPEG header carrying `exif`, at `path`.
    static func metadata(_ exif: ExifBuilder, path: FilePath) throws -> PhotoMetadata {
        let tiff = ExifReader.exifPrefix + exif.tiff()
        let jpeg: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xE1, UInt8((tiff.count + 2) >> 8), UInt8((tiff.count + 2) & 0xFF)] + tiff
            + [0xFF, 0xC0, 0, 11, 8, 0, 100, 0, 150, 1, 1, 0x11, 0, 0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0]
        return try MetadataReader.read(contents: jpeg, path: path, mtime: FileTime(seconds: 0, nanoseconds: 0))
    }

    /// Two photos in one album, one failed file, written the way a scan writes them.
    static func populate(_ index: PhotoIndex, root: FilePath) throws {
        let album = root.appending("Garden")
        var updates: [FileUpdate] = []
        for (number, date) in ["2024:05:03 10:00:00", "2024:05:04 09:30:00"].enumerated() {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: date)
            exif.make = "Tessera"
            let path = album.appending("p\(number).jpg")
            let metadata = try Self.metadata(exif, path: path)
            let key = "key\(number)"
            updates.append(
                FileUpdate(
                    path: path, albumPath: album, root: root,
                    identity: FileIdentity(device: 1, inode: UInt64(number + 1), size: 100, mtimeNanoseconds: 0),
                    content: .photo(
                        metadata.facts, warnings: [],
                        renditions: PhotoRenditions(
                            contentHash: "hash\(number)", key: key,
                            renditions: [
                                RenditionEntry(
                                    spec: .square(256), width: 100, height: 100, bytes: 900,
                                    path: "/cache/256/ke/\(key).jpg", source: .decoded),
                                RenditionEntry(
                                    spec: .fit(1024), width: 150, height: 100, bytes: 2000,
                                    path: "/cache/fit-1024/ke/\(key).jpg", source: .decoded),
                            ],
                            thumbhash: [0x1F, 0x08, 0x0A], settings: "square-256,fit-1024;test"))))
        }
        // The RAW file of the first shot, beside its JPEG (its header read as a RAW's would be).
        if case .photo(var metadata, _, let renditions) = updates[0].content {
            metadata.format = .raw
            updates.append(
                FileUpdate(
                    path: album.appending("P0.NEF"), albumPath: album, root: root,
                    identity: FileIdentity(device: 1, inode: 8, size: 100, mtimeNanoseconds: 0),
                    content: .photo(metadata, warnings: [], renditions: renditions)))
        }
        updates.append(
            FileUpdate(
                path: album.appending("broken.jpg"), albumPath: album, root: root,
                identity: FileIdentity(device: 1, inode: 9, size: 3, mtimeNanoseconds: 0),
                content: .failed(
                    format: .jpeg, error: PhotoError(.truncated, "file ends inside the SOF segment"), facts: nil)))
        let scan = try index.beginScan(roots: [root], full: false)
        try index.apply(updates, moves: [], scanID: scan.id)
        try index.refreshAlbums()
        try index.finishScan(id: scan.id, counts: ScanCounts(), state: .finished)
    }

    /// The path of an index in `directory` written by schema `version`, holding the rows `sql` writes.
    static func index(at version: Int, in directory: TemporaryDirectory, _ sql: String) throws -> String {
        let path = directory.appending("index.sqlite")
        let pool = try DatabasePool(path: path)
        try PhotoIndex.migrator(upTo: version).migrate(pool)
        try pool.write { db in try db.execute(sql: sql) }
        return path
    }

    @Test func aVersion1IndexIsMigratedWithEveryRowKept() throws {
        // Given an index written by schema 1, with a photo and its thumbnail,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.index(
            at: 1, in: directory,
            """
                INSERT INTO albums (id, path, root, name) VALUES (1, X'2F702F47', X'2F70', 'G');
                INSERT INTO photos (id, path, path_text, album_id, device, inode, size, mtime_ns, status, format,
                    width, height, orientation, captured_at, date_source, sort_instant_ms, thumbnail_key)
                VALUES (7, X'2F702F472F612E6A7067', '/p/G/a.jpg', 1, 1, 2, 3, 4, 'ok', 'jpeg', 30, 20, 1,
                    '2020-01-01T00:00:00', 'mtime', 0, 'k');
                INSERT INTO thumbnails (photo_id, size, side, path) VALUES (7, 256, 20, '/c/256/k/k.jpg');
            """)
        // when this Tessera opens it for writing,
        let index = try PhotoIndex(path: FilePath(path))
        // then it is at the current version and the row, its id and its thumbnail are all there.
        #expect(SQLite.integer(path, "PRAGMA user_version") == PhotoIndex.schemaVersion)
        let photos = try index.photos(.init())
        #expect(photos.map(\.id) == [7])
        #expect(
            photos.first?.renditions == [
                RenditionEntry(
                    spec: .square(256), width: 20, height: 20, bytes: nil, path: "/c/256/k/k.jpg", source: .decoded)
            ])
        #expect(photos.first?.errorCode == nil)
        #expect(try index.integrityCheck() == "ok")
    }

    /// A photo recorded by schema 15 gets its detail hash by the next scan, and that decides its
    /// groups again, as a change of its perceptual hash does.
    @Test func aVersion15IndexMarksAPhotoWhoseDetailHashComesToBeGroupedAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.index(
            at: 15, in: directory,
            """
                INSERT INTO albums (id, path, root, name) VALUES (1, X'2F702F47', X'2F70', 'G');
                INSERT INTO photos (id, path, path_text, album_id, device, inode, size, mtime_ns, status, format,
                    width, height, orientation, captured_at, date_source, sort_instant_ms, content_hash, phash)
                VALUES (7, X'2F702F472F612E6A7067', '/p/G/a.jpg', 1, 1, 2, 3, 4, 'ok', 'jpeg', 30, 20, 1,
                    '2020-01-01T00:00:00', 'undated', 0, 'h7', 12345);
                DELETE FROM group_pending;
            """)
        _ = try PhotoIndex(path: FilePath(path))
        #expect(SQLite.integer(path, "PRAGMA user_version") == PhotoIndex.schemaVersion)
        #expect(SQLite.query(path, "SELECT phash, phash_detail IS NULL FROM photos") == [["12345", "1"]])
        #expect(SQLite.write(path, "UPDATE photos SET phash_detail = zeroblob(32) WHERE id = 7"))
        #expect(SQLite.query(path, "SELECT photo_id FROM group_pending") == [["7"]])
    }

    @Test func aVersion2IndexKeepsEveryThumbnailAsASquareRendition() throws {
        // Given an index written by schema 2: two photos with thumbnails at two sizes,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.index(
            at: 2, in: directory,
            """
                INSERT INTO albums (id, path, root, name) VALUES (1, X'2F702F47', X'2F70', 'G');
                INSERT INTO photos (id, path, path_text, album_id, device, inode, size, mtime_ns, status, format,
                    width, height, orientation, captured_at, date_source, sort_instant_ms, content_hash, thumbnail_key)
                VALUES (7, X'2F702F472F612E6A7067', '/p/G/a.jpg', 1, 1, 2, 3, 4, 'ok', 'jpeg', 300, 200, 6,
                    '2020-01-01T00:00:00', 'mtime', 0, 'h7', 'k7'),
                    (8, X'2F702F472F622E6A7067', '/p/G/b.jpg', 1, 1, 3, 3, 4, 'ok', 'jpeg', 40, 30, 1,
                    '2020-01-02T00:00:00', 'mtime', 1, 'h8', 'k8');
                INSERT INTO thumbnails (photo_id, size, side, path) VALUES
                    (7, 64, 64, '/c/64/k7/k7.jpg'), (7, 256, 200, '/c/256/k7/k7.jpg'),
                    (8, 64, 30, '/c/64/k8/k8.jpg'), (8, 256, 30, '/c/256/k8/k8.jpg');
            """)
        // when this Tessera opens it,
        let index = try PhotoIndex(path: FilePath(path))
        // then every thumbnail is a square rendition at its own side, and the photos await a
        // placeholder and their render settings (what the next scan brings up to date).
        #expect(SQLite.integer(path, "PRAGMA user_version") == PhotoIndex.schemaVersion)
        // Schema 4's indexes for rescans are there.
        #expect(
            SQLite.integer(path, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('photos_rescan', 'photos_scan')")
                == 2)
        let photos = Dictionary(uniqueKeysWithValues: try index.photos(.init()).map { ($0.id, $0) })
        #expect(photos[7]?.renditions.map(\.path) == ["/c/64/k7/k7.jpg", "/c/256/k7/k7.jpg"])
        #expect(photos[7]?.renditions.map(\.spec) == [.square(64), .square(256)])
        #expect(photos[7]?.renditions.map(\.width) == [64, 200])
        #expect(photos[8]?.renditions.map(\.width) == [30, 30])
        #expect(photos.values.allSatisfy { $0.thumbhash == nil })
        let rendering = try index.files(inDirectory: Array("/p/G".utf8)).values.compactMap(\.rendering)
        #expect(rendering.count == 2 && rendering.allSatisfy { $0.settings == nil && !$0.hasThumbhash })
        #expect(try index.integrityCheck() == "ok")
    }

    @Test func renditionUpdatesReplaceAddAndDropSizesAndScheduleTheirFiles() throws {
        // Given a photo with a 256 square and a 1024 fit,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")))
        try Self.populate(index, root: "/photos")
        let photo = try #require(try index.photos(.init()).first)
        // when the configuration drops the fit and adds a 512 square,
        let square512 = RenditionEntry(
            spec: .square(512), width: 100, height: 100, bytes: 950, path: "/cache/512/ke/\(photo.id).jpg",
            source: .decoded)
        let scan = try index.beginScan(roots: ["/photos"], full: false)
        try index.apply(
            [], moves: [],
            renditions: [
                RenditionUpdate(
                    photoID: photo.id, key: "key1", renditions: [square512], configured: [.square(256), .square(512)],
                    thumbhash: [1, 2, 3], settings: "square-256,square-512;test")
            ], scanID: scan.id)
        // then it has exactly the configured renditions, its placeholder and settings are recorded,
        let after = try #require(try index.photos(.init()).first { $0.id == photo.id })
        #expect(after.renditions.map(\.spec) == [.square(256), .square(512)])
        #expect(after.thumbhash == [1, 2, 3])
        #expect(
            try index.files(inDirectory: Array("/photos/Garden".utf8)).values.first { $0.id == photo.id }?
                .rendering?.settings == "square-256,square-512;test")
        // and the fit's file, which no row refers to now, is due for deletion (and only it).
        #expect(try index.pendingCacheDeletions() == ["/cache/fit-1024/ke/key1.jpg"])
        try index.forgetCacheDeletions(["/cache/fit-1024/ke/key1.jpg"])
        #expect(try index.pendingCacheDeletions().isEmpty)
    }

    /// A folder's stacks decided again the same are left as they are, in a folder of more files
    /// than one statement reads (a stack whose files fall in two of them was read twice, taken
    /// for another, and written again, marking its album changed at every scan).
    @Test func aLargeFoldersStacksDecidedTheSameAreKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")))
        let (root, album) = (FilePath("/photos"), FilePath("/photos/Big"))
        var updates: [FileUpdate] = []
        // A JPEG first and the RAW of its shot last, by path and by row: 600 rows apart.
        for number in 0...600 {
            var exif = ExifBuilder()
            exif.make = "Tessera"
            if number == 0 || number == 600 {
                exif.dateTimeOriginal = .init(dateTime: "2024:05:03 10:00:00", subSeconds: "25")
            }
            let name = number == 600 ? "z.NEF" : "p\(number).jpg"
            var facts = try Self.metadata(exif, path: album.appending(name)).facts
            if number == 600 { facts.format = .raw }
            updates.append(
                FileUpdate(
                    path: album.appending(name), albumPath: album, root: root,
                    identity: FileIdentity(device: 1, inode: UInt64(number + 1), size: 100, mtimeNanoseconds: 0),
                    content: .photo(
                        facts, warnings: [],
                        renditions: PhotoRenditions(
                            contentHash: "content\(number)", key: "key\(number)", renditions: [], thumbhash: nil,
                            settings: "test"))))
        }
        let scan = try index.beginScan(roots: [root], full: false)
        try index.apply(updates, moves: [], scanID: scan.id)
        try index.finishScan(id: scan.id, counts: ScanCounts(), state: .finished)
        _ = try index.refreshGroups(colourLimit: 20) { _ in nil }
        let path = directory.appending("index.sqlite")
        let first = SQLite.query(path, "SELECT id, kind FROM stacks")
        #expect(first?.count == 1 && first?.first?[1] == "raw-pair", "\(first ?? [])")
        let marked = SQLite.query(path, "SELECT value FROM change_counter")
        // Another file of the folder changed: its stacks are decided again, the same.
        #expect(
            SQLite.write(
                path, "INSERT INTO group_pending (photo_id) SELECT id FROM photos WHERE path_text LIKE '%/p7.jpg'"))
        let again = try index.refreshGroups(colourLimit: 20) { _ in nil }
        #expect(again.changedFiles == 1 && !again.whole)
        #expect(SQLite.query(path, "SELECT id, kind FROM stacks") == first)
        #expect(SQLite.query(path, "SELECT value FROM change_counter") == marked, "the album marked changed")
    }

    /// Every write of a photo or of its renditions marks its album and its months changed, with
    /// the counter's next value; the other album and month, and reads, change nothing.
    @Test func writesMarkTheirAlbumAndMonthChangedAndNothingElse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")))
        try Self.populate(index, root: "/photos")
        // A second album, in another month.
        let scan = try index.beginScan(roots: ["/photos"], full: false)
        let photo = try #require(try index.photos(.init()).first)
        let other = FilePath("/photos/Snow")
        try index.apply(
            [
                FileUpdate(
                    path: other.appending("s.jpg"), albumPath: other, root: "/photos",
                    identity: FileIdentity(device: 1, inode: 20, size: 100, mtimeNanoseconds: 0),
                    content: .failed(format: .jpeg, error: PhotoError(.truncated, "cut"), facts: nil))
            ], moves: [], scanID: scan.id)
        try index.refreshAlbums()
        let start = try index.changeCounter()
        let albums = { try index.albums(named: "Garden")[0].contentChange }
        let snow = { try index.albums(named: "Snow")[0].contentChange }
        let (garden0, snow0) = (try albums(), try snow())
        #expect(try index.monthChanges(since: start).isEmpty)
        // Reading changes nothing;
        _ = try index.photos(.init())
        #expect(try index.changeCounter() == start)
        // new renditions of a Garden photo mark Garden and its month, not Snow nor 2023;
        try index.apply(
            [], moves: [],
            renditions: [
                RenditionUpdate(
                    photoID: photo.id, key: "key1",
                    renditions: [
                        RenditionEntry(
                            spec: .square(512), width: 100, height: 100, bytes: 950, path: "/cache/512/ke/x.jpg",
                            source: .decoded)
                    ], configured: [.square(256), .square(512)], thumbhash: [1], settings: "s")
            ], scanID: scan.id)
        #expect(try index.changeCounter() > start)
        #expect(try albums() > garden0 && snow() == snow0)
        #expect(try index.monthChanges(since: start) == [String(photo.capturedAt?.prefix(7) ?? "")])
        // a photo moved into Snow marks both albums;
        let beforeMove = try index.changeCounter()
        try index.apply(
            [], moves: [FileMove(id: photo.id, path: other.appending("p.jpg"), albumPath: other, root: "/photos")],
            scanID: scan.id)
        #expect(try albums() > beforeMove && snow() > beforeMove)
        // and a deleted one marks its album and month too.
        let beforeDelete = try index.changeCounter()
        try index.delete(ids: [photo.id])
        #expect(try snow() > beforeDelete)
        #expect(try index.monthChanges(since: beforeDelete).contains(String(photo.capturedAt?.prefix(7) ?? "")))
    }

    /// A month holds the photos taken in it by their own clocks, whatever their UTC offsets (the
    /// farthest a clock can be from UTC at either end of the month), newest instant first, and
    /// is read in that order from an index: a month of any size is never sorted whole.
    @Test func aMonthHoldsItsLocalDatesInOrderWithoutSortingThem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")))
        let album = FilePath("/photos/Edges")
        let dates: [(String, String?)] = [
            ("2024:04:30 23:59:00", "-12:00"), ("2024:05:01 00:10:00", "+14:00"), ("2024:05:15 12:00:00", nil),
            ("2024:05:31 23:50:00", "-12:00"), ("2024:06:01 00:05:00", "+14:00"), ("2024:05:31 08:00:00", "+14:00"),
        ]
        var updates: [FileUpdate] = []
        for (number, (date, offset)) in dates.enumerated() {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: date, offset: offset)
            let path = album.appending("e\(number).jpg")
            let metadata = try Self.metadata(exif, path: path)
            updates.append(
                FileUpdate(
                    path: path, albumPath: album, root: "/photos",
                    identity: FileIdentity(device: 1, inode: UInt64(number + 1), size: 100, mtimeNanoseconds: 0),
                    content: .photo(
                        metadata.facts, warnings: [],
                        renditions: PhotoRenditions(
                            contentHash: "h\(number)", key: "k\(number)", renditions: [], thumbhash: [1],
                            settings: "s"))))
        }
        let scan = try index.beginScan(roots: ["/photos"], full: true)
        try index.apply(updates, moves: [], scanID: scan.id)
        try index.refreshAlbums()
        let may = try index.outlines(.init(month: "2024-05")).map(\.capturedAt)
        #expect(
            may == [
                "2024-05-31T23:50:00-12:00", "2024-05-31T08:00:00+14:00", "2024-05-15T12:00:00",
                "2024-05-01T00:10:00+14:00",
            ])
        #expect(try index.outlines(.init(month: "2024-04")).count == 1)
        #expect(try index.outlines(.init(month: "2024-06")).count == 1)
        let plan = try index.read { db in
            let (sql, arguments) = PhotoIndex.selection("p.id", .init(month: "2024-05"))
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map {
                $0["detail"] as String? ?? ""
            }
        }
        #expect(!plan.joined().contains("TEMP B-TREE"), "\(plan)")
        // What the album site shows of a month (a stack's face, the copy kept) is read in the
        // same order, each photo's groups by their members' keys.
        var shown = PhotoQuery(month: "2024-05")
        (shown.stackFacesOnly, shown.keptCopiesOnly) = (true, true)
        let grouped = try index.read { db in
            let (sql, arguments) = PhotoIndex.selection("p.id", shown)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map {
                $0["detail"] as String? ?? ""
            }
        }
        #expect(
            !grouped.joined().contains("TEMP B-TREE")
                && !grouped.contains { $0.hasPrefix("SCAN s") || $0.hasPrefix("SCAN c") }, "\(grouped)")
        #expect(
            grouped.filter {
                $0.hasPrefix("SEARCH s USING INTEGER PRIMARY KEY") || $0.hasPrefix("SEARCH c USING INTEGER PRIMARY KEY")
            }
            .count == 3, "\(grouped)")
    }

    /// Pairing compares names within a folder: without an index of names it read every file of
    /// the folder for each file, so a phone's folder of 30,000 took hours.
    @Test func aFilesPartnerIsLookedUpByFolderAndNameNotByReadingTheFolder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")))
        let lookups = [
            "SELECT video_id FROM live_photos WHERE still_id = 1",
            "SELECT still_id FROM live_photos WHERE video_id = 1",
            "SELECT photo_id FROM photo_pairs WHERE raw_id = 1",
        ]
        let plans = try index.read { db in
            try lookups.map { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String? ?? "" }
            }
        }
        for plan in plans {
            #expect(plan.contains { $0.contains("USING INDEX photos_album_stem") }, "\(plan)")
            #expect(!plan.contains { $0.contains("photos_album_newest") || $0.hasPrefix("SCAN") }, "\(plan)")
        }
    }

    /// The photos near a perceptual hash are found band by band through the band indexes,
    /// and a file's same-bytes copies by its content key: no question reads the whole table.
    @Test func nearHashesAreLookedUpByTheirBandsNotByReadingEveryPhoto() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")))
        let plans = try index.read { db in
            try (0..<4).map { band in
                try Row.fetchAll(
                    db,
                    sql: "EXPLAIN QUERY PLAN SELECT id FROM photos WHERE phash IS NOT NULL AND "
                        + PhotoIndex.phashBand(band) + " IN (1, 2, 3) AND id <> 1"
                ).map { $0["detail"] as String? ?? "" }
            }
        }
        for (band, plan) in plans.enumerated() {
            #expect(plan.contains { $0.contains("USING INDEX photos_phash_\(band)") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        }
    }

    @Test func anIndexFromANewerTesseraIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = FilePath(directory.appending("index.sqlite"))
        _ = try PhotoIndex(path: path)
        try DatabaseQueue(path: path.string).write { try $0.execute(sql: "PRAGMA user_version = 99") }
        for readOnly in [false, true] {
            #expect { try PhotoIndex(path: path, readOnly: readOnly) } throws: {
                ($0 as? IndexError)?.code == .newerSchema
            }
        }
        #expect { try PhotoIndex(path: FilePath(directory.appending("none.sqlite")), readOnly: true) } throws: {
            ($0 as? IndexError)?.code == .missing
        }
    }

    @Test func albumsAreFoundByNameAndByPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")))
        try Self.populate(index, root: "/photos/a")
        try Self.populate(index, root: "/photos/b")
        #expect(try index.albums(named: "Garden").map(\.path.string) == ["/photos/a/Garden", "/photos/b/Garden"])
        let one = try #require(try index.albums(named: "/photos/b/Garden").first)
        #expect(
            try index.photos(.init(albumID: one.id)).map(\.path.string)
                == ["/photos/b/Garden/p1.jpg", "/photos/b/Garden/P0.NEF", "/photos/b/Garden/p0.jpg"])
        #expect(try index.photos(.init(kind: .errors)).map(\.errorCode) == ["truncated", "truncated"])
    }

    /// The SQL of every `sqlite3 -readonly index.sqlite "…"` example in docs/INDEX.md.
    static func documentedQueries() throws -> [String] {
        let text = try String(contentsOf: Corpus.projectRoot.appendingPathComponent("docs/INDEX.md"), encoding: .utf8)
        var queries: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "sqlite3 -readonly index.sqlite \"") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            queries.append(String(rest[..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return queries
    }

    @Test func everyQueryInTheDocsRunsAsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("index.sqlite")
        let index = try PhotoIndex(path: FilePath(path))
        try Self.populate(index, root: "/photos")
        // And a video, read from one ffmpeg makes, for the queries about videos: named as p1.jpg
        // is, it is that still's Live Photo video.
        let clip = FilePath(try VideoFixture.clip(in: directory))
        let video = FileUpdate(
            path: "/photos/Garden/p1.mov", albumPath: FilePath("/photos/Garden"), root: "/photos",
            identity: FileIdentity(device: 1, inode: 20, size: 100, mtimeNanoseconds: 0),
            content: .photo(
                try MetadataReader.read(at: clip).facts, warnings: [],
                renditions: PhotoRenditions(
                    contentHash: "hash-video", key: "key-video",
                    renditions: [
                        RenditionEntry(
                            spec: .square(256), width: 256, height: 256, bytes: 900,
                            path: "/cache/256/ke/key-video.jpg", source: .videoFrame)
                    ],
                    thumbhash: [0x1F, 0x08, 0x0A], settings: "square-256;test", posterTime: 3)))
        // And a motion photo: a still whose XMP (MicroVideo) says the clip follows it.
        let mp4 = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clip.string)))
        let xmp =
            Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
            + Array(
                """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1"
                 GCamera:MicroVideoOffset="\(mp4.count)"/></rdf:RDF></x:xmpmeta>
                """.utf8)
        let plain = try SampleImage.jpeg(SampleImage.pixels(width: 8, height: 8))
        let still =
            Array(plain.prefix(2)) + [0xFF, 0xE1, UInt8((xmp.count + 2) >> 8), UInt8((xmp.count + 2) & 0xFF)] + xmp
            + Array(plain.dropFirst(2)) + mp4
        let motionPath = FilePath("/photos/Garden/motion.jpg")
        let motion = FileUpdate(
            path: motionPath, albumPath: FilePath("/photos/Garden"), root: "/photos",
            identity: FileIdentity(device: 1, inode: 21, size: Int64(still.count), mtimeNanoseconds: 0),
            content: .photo(
                try MetadataReader.read(contents: still, path: motionPath, mtime: FileTime(seconds: 0, nanoseconds: 0))
                    .facts,
                warnings: [],
                renditions: PhotoRenditions(
                    contentHash: "hash-motion", key: "key-motion", renditions: [], thumbhash: nil, settings: "test")))
        let scan = try index.beginScan(roots: ["/photos"], full: false)
        try index.apply([video, motion], moves: [], scanID: scan.id)
        try index.finishScan(id: scan.id, counts: ScanCounts(), state: .finished)
        // And a place, named from a position (docs/PLACES.md).
        #expect(SQLite.write(path, "UPDATE photos SET gps_latitude = 38.72, gps_longitude = -9.14 WHERE id = 1"))
        _ = try index.refreshPlaces(data: "test") { _ in
            PlaceName(
                country: "Portugal", countryCode: "PT", region: "Lisbon", locality: "Lisbon", near: false, distance: 1)
        }
        let queries = try Self.documentedQueries()
        #expect(queries.count >= 4)
        for query in queries {
            let rows = SQLite.query(path, query)
            #expect(rows != nil, "fails as written: \(query)")
            #expect(rows?.isEmpty == false, "answers nothing on a populated index: \(query)")
        }
    }
}
