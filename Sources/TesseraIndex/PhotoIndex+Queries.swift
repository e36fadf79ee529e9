public import Foundation
import GRDB
import SystemPackage
public import TesseraMetadata
import TesseraSystem

/// What readers ask of the index: photos newest first, albums, scans.
extension PhotoIndex {
    /// Which files `photos(_:)` returns.
    public struct PhotoQuery: Sendable {
        /// An album's name (its directory relative to its root) or its absolute path.
        public var album: String?
        public var limit: Int?
        /// Only files that failed, instead of displayable photos.
        public var errors = false

        public init(album: String? = nil, limit: Int? = nil, errors: Bool = false) {
            self.album = album
            self.limit = limit
            self.errors = errors
        }
    }

    /// Photos newest first (ties by path bytes), in the `PhotoJSON` shape.
    public func photos(_ query: PhotoQuery) throws(IndexError) -> [PhotoJSON] {
        try read { db in
            var conditions = [query.errors ? "p.status = 'error'" : "p.status IN ('ok', 'warning')"]
            var arguments: [(any DatabaseValueConvertible)?] = []
            if let album = query.album {
                conditions.append("(a.name = ? OR a.path = ?)")
                arguments += [album, Data(album.utf8)]
            }
            let order = query.errors ? "p.path" : "p.sort_instant_ms DESC, p.path"
            var sql = """
                SELECT p.*, a.name AS album_name FROM photos p JOIN albums a ON a.id = p.album_id
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order)
                """
            if let limit = query.limit {
                sql += " LIMIT ?"
                arguments.append(limit)
            }
            let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
            let ids = rows.map { $0["id"] as Int64 }
            var thumbnails: [Int64: [String: String]] = [:]
            for chunk in stride(from: 0, to: ids.count, by: 500).map({ ids[$0..<min($0 + 500, ids.count)] }) {
                let marks = databaseQuestionMarks(count: chunk.count)
                for row in try Row.fetchAll(
                    db, sql: "SELECT photo_id, size, path FROM thumbnails WHERE photo_id IN (\(marks))",
                    arguments: StatementArguments(Array(chunk))) {
                    thumbnails[row["photo_id"], default: [:]][String(row["size"] as Int)] = row["path"]
                }
            }
            return rows.map { row in Self.json(row, thumbnails: thumbnails[row["id"]] ?? [:]) }
        }
    }

    /// Albums, newest first by their newest photo; empty ones are not kept.
    public func albums() throws(IndexError) -> [AlbumRecord] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM albums WHERE photo_count > 0 ORDER BY newest_instant_ms DESC, path"
            ).map { row in
                AlbumRecord(
                    id: row["id"], path: String(decoding: row["path"] as Data, as: UTF8.self), name: row["name"],
                    photoCount: row["photo_count"], newestCapturedAt: row["newest_captured_at"],
                    oldestCapturedAt: row["oldest_captured_at"], coverPhotoID: row["cover_photo_id"])
            }
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
                counts.unchanged = row["unchanged"]
                counts.moved = row["moved"]
                counts.removed = row["removed"]
                counts.unsupported = row["unsupported"]
                counts.errors = row["errors"]
                counts.warnings = row["warnings"]
                let finished: Int64? = row["finished_at_ms"]
                return ScanRecord(
                    id: row["id"], startedAt: Date(timeIntervalSince1970: Double(row["started_at_ms"] as Int64) / 1000),
                    finishedAt: finished.map { Date(timeIntervalSince1970: Double($0) / 1000) },
                    state: ScanState(rawValue: row["state"]) ?? .interrupted, reason: row["reason"],
                    full: row["full"], counts: counts)
            }
        }
    }

    /// Photo, album and error counts of the whole index.
    public func totals() throws(IndexError) -> (photos: Int, albums: Int, errors: Int) {
        try read { db in
            let photos = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos WHERE status IN ('ok', 'warning')") ?? 0
            let albums = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM albums WHERE photo_count > 0") ?? 0
            let errors = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos WHERE status = 'error'") ?? 0
            return (photos, albums, errors)
        }
    }

    static func json(_ row: Row, thumbnails: [String: String]) -> PhotoJSON {
        let path = FilePath(rawBytes: row["path"] as Data)
        let format = ImageFormat(rawValue: row["format"]) ?? .unsupported
        var json = PhotoJSON(path: path, format: format, error: row["error"])
        json.width = row["width"]
        json.height = row["height"]
        json.orientation = row["orientation"]
        json.displayWidth = row["display_width"]
        json.displayHeight = row["display_height"]
        json.capturedAt = row["captured_at"]
        json.utcOffset = row["utc_offset"]
        json.dateSource = row["date_source"]
        json.make = row["make"]
        json.model = row["model"]
        json.lensModel = row["lens_model"]
        json.exposureTime = row["exposure_time"]
        json.fNumber = row["f_number"]
        json.iso = row["iso"]
        json.focalLength = row["focal_length"]
        json.coding = row["coding"]
        if let latitude = row["gps_latitude"] as Double?, let longitude = row["gps_longitude"] as Double? {
            json.gps = ExifFields.GPS(latitude: latitude, longitude: longitude, altitude: row["gps_altitude"])
        }
        let warnings = (row["warnings"] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        json.warnings = warnings ?? []
        json.album = row["album_name"]
        json.thumbnails = thumbnails
        json.status = row["status"]
        return json
    }
}
