import Foundation
import GRDB
import SystemPackage
import TesseraFacts
import TesseraSystem

/// What readers ask of the index as a whole: its albums, its months and their change marks, the
/// last scan, the totals.
extension PhotoIndex {
    /// Albums, newest first by their newest photo; empty ones are not kept.
    public func albums() throws(IndexError) -> [AlbumRecord] {
        try read(Self.albums)
    }

    static func albums(_ db: Database) throws -> [AlbumRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM albums WHERE photo_count > 0 ORDER BY newest_instant_ms DESC, path")
            .map(Self.album)
    }

    /// See `PhotoReading.forEachAlbum(_:)`.
    public func forEachAlbum(_ visit: (AlbumRecord) -> Bool) throws(IndexError) {
        try read { db in try Self.forEachAlbum(visit, db) }
    }

    static func forEachAlbum(_ visit: (AlbumRecord) -> Bool, _ db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM albums WHERE photo_count > 0")
        while let row = try rows.next(), visit(Self.album(row)) {}
    }

    /// The months that have photos, newest first, with how many photos each has.
    ///
    /// A month is `YYYY-MM` of the capture wall clock; last comes "" with the photos that have no
    /// date, if any. The photos of the albums `withheld` are not counted.
    public func months(withheld albumIDs: [Int64] = []) throws(IndexError) -> [(month: String, count: Int)] {
        try read { db in try Self.months(withheld: albumIDs, db) }
    }

    static func months(withheld albumIDs: [Int64], _ db: Database) throws -> [(month: String, count: Int)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT coalesce(substr(captured_at, 1, 7), '') AS month, COUNT(*) AS count FROM photos
                WHERE \(PhotoSQL.shown()) AND \(PhotoSQL.withheld(albumIDs)) GROUP BY month ORDER BY month DESC
                """
        ).map { ($0["month"], $0["count"]) }
    }

    public func changeCounter() throws(IndexError) -> Int64 {
        try read(Self.changeCounter)
    }

    static func changeCounter(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM change_counter") ?? 0
    }

    public func monthChanges(since change: Int64) throws(IndexError) -> Set<String> {
        try read { db in try Self.monthChanges(since: change, db) }
    }

    static func monthChanges(since change: Int64, _ db: Database) throws -> Set<String> {
        Set(
            try String.fetchAll(
                db, sql: "SELECT month FROM month_changes WHERE content_change > ?", arguments: [change]))
    }

    public func albumMedia() throws(IndexError) -> [Int64: AlbumMedia] {
        try read { db in
            let (sql, arguments) = Self.selection("p.album_id, p.kind", PhotoQuery())
            var media: [Int64: AlbumMedia] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT album_id, SUM(kind = 'video'), COUNT(*) FROM (\(sql)) GROUP BY album_id",
                arguments: arguments)
            while let row = try rows.next() {
                let (videos, all): (Int, Int) = (row[1], row[2])
                media[row[0]] = AlbumMedia(stills: all - videos, videos: videos)
            }
            return media
        }
    }

    /// The albums a person means by `text`: its folder relative to its root (several roots may
    /// each have one of that name), or its absolute path.
    public func albums(named text: String) throws(IndexError) -> [AlbumRecord] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM albums WHERE name = ? OR path = ? ORDER BY path",
                arguments: [text, Data(text.utf8)]
            ).map(Self.album)
        }
    }

    /// The most recent scan, finished or not.
    public func lastScan() throws(IndexError) -> ScanRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM scans ORDER BY id DESC LIMIT 1").map { row in
                var counts = ScanCounts()
                counts.found = row["found"]
                counts.new = row["new"]
                counts.changed = row["changed"]
                counts.reread = row["reread"]
                counts.unchanged = row["unchanged"]
                counts.rerendered = row["rerendered"] ?? 0
                counts.moved = row["moved"]
                counts.removed = row["removed"]
                counts.unsupported = row["unsupported"]
                counts.errors = row["errors"]
                counts.unlisted = row["unlisted"]
                counts.warnings = row["warnings"]
                counts.missing = row["missing"]
                counts.keptOffline = row["kept_offline"]
                let finished: Int64? = row["finished_at_ms"]
                return ScanRecord(
                    id: row["id"], startedAt: Date(timeIntervalSince1970: Double(row["started_at_ms"] as Int64) / 1000),
                    finishedAt: finished.map { Date(timeIntervalSince1970: Double($0) / 1000) },
                    state: ScanState(rawValue: row["state"]) ?? .interrupted, reason: row["reason"],
                    full: row["full"], counts: counts,
                    offline: (row["offline"] as String?)?.split(separator: "\n").map(String.init) ?? [])
            }
        }
    }

    /// Files recorded as unreadable (status `error`) that are not missing.
    public func failingFiles() throws(IndexError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos WHERE \(Self.failing)") ?? 0 }
    }

    private static let failing = PhotoSQL.present(.error)

    /// Photo, album and error counts of the whole index.
    public func totals() throws(IndexError) -> IndexTotals {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT
                        (SELECT COUNT(*) FROM photos WHERE kind = 'photo' AND \(PhotoSQL.shown())) AS photos,
                        (SELECT COUNT(*) FROM photos p WHERE kind = 'video' AND \(PhotoSQL.shown("p"))
                            AND NOT EXISTS (SELECT 1 FROM live_photos l WHERE l.video_id = p.id)) AS videos,
                        (SELECT COUNT(DISTINCT still_id) FROM live_photos) AS live_photos,
                        (SELECT COUNT(*) FROM photos WHERE kind = 'photo' AND motion_offset IS NOT NULL
                            AND \(PhotoSQL.shown())) AS motion_photos,
                        (SELECT COUNT(*) FROM albums WHERE photo_count > 0) AS albums,
                        (SELECT COUNT(*) FROM photos WHERE \(Self.failing)) AS errors
                    """)
            var totals = IndexTotals(
                photos: row?["photos"] ?? 0, videos: row?["videos"] ?? 0, livePhotos: row?["live_photos"] ?? 0,
                motionPhotos: row?["motion_photos"] ?? 0, albums: row?["albums"] ?? 0, errors: row?["errors"] ?? 0)
            totals.analyses = try Self.analysisProgress(db)
            if let people = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM faces), (SELECT COUNT(*) FROM people),
                        (SELECT COUNT(*) FROM people WHERE name IS NOT NULL),
                        (SELECT COUNT(*) FROM faces WHERE person_id IS NULL AND hidden = 0)
                    """), people[0] as Int > 0
            {
                totals.people = IndexTotals.PeopleTotals(
                    faces: people[0], people: people[1], named: people[2], ungrouped: people[3])
            }
            return totals
        }
    }

    static func album(_ row: Row) -> AlbumRecord {
        AlbumRecord(
            id: row["id"], pathBytes: [UInt8](row["path"] as Data), name: row["name"], photoCount: row["photo_count"],
            newestCapturedAt: row["newest_captured_at"], oldestCapturedAt: row["oldest_captured_at"],
            coverPhotoID: row["cover_photo_id"], contentChange: row["content_change"])
    }
}
