import Foundation
import GRDB
public import SystemPackage
import TesseraFacts
import TesseraSystem

/// What readers ask of the index: photos newest first, albums, scans.
extension PhotoIndex {
    /// Photos newest first (ties by path bytes), or failed or unsupported files by path.
    public func photos(_ query: PhotoQuery) throws(IndexError) -> [PhotoRecord] {
        try read { db in try Self.photos(query, db) }
    }

    static func photos(_ query: PhotoQuery, _ db: Database) throws -> [PhotoRecord] {
        let (sql, arguments) = selection(RecordColumn.selection, query)
        return try records(Row.fetchAll(db, sql: sql, arguments: arguments), db)
    }

    /// See `PhotoReading.outlines(_:)`.
    public func outlines(_ query: PhotoQuery, expected: Int) throws(IndexError) -> [PhotoOutline] {
        try read { db in try Self.outlines(query, expected: expected, db) }
    }

    static func outlines(_ query: PhotoQuery, expected: Int, _ db: Database) throws -> [PhotoOutline] {
        let (sql, arguments) = selection(
            "p.id, p.album_id, p.width, p.height, p.orientation, p.captured_at || coalesce(p.utc_offset, ''), p.kind, "
                + "p.gps_latitude IS NOT NULL", query)
        // Read in place, row by row: a collection of any size holds its outlines, never its rows.
        var outlines: [PhotoOutline] = []
        outlines.reserveCapacity(max(0, min(expected, 10_000_000)))
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            outlines.append(
                PhotoOutline(
                    id: row[0], albumID: row[1], width: row[2], height: row[3], orientation: row[4],
                    capturedAt: row[5], isVideo: row[6] as String? == "video",
                    hasPosition: row[7]))
        }
        return outlines
    }

    /// See `PhotoReading.photos(ids:)`.
    public func photos(ids: [Int64]) throws(IndexError) -> [PhotoRecord] {
        try read { db in try Self.photos(ids: ids, db) }
    }

    static func photos(ids: [Int64], _ db: Database) throws -> [PhotoRecord] {
        var rows: [Int64: Row] = [:]
        for chunk in ids.chunks(of: 500) {
            let sql = """
                SELECT \(RecordColumn.selection) FROM photos p JOIN albums a ON a.id = p.album_id
                WHERE p.id IN (\(databaseQuestionMarks(count: chunk.count)))
                """
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(Array(chunk))) {
                rows[row[.id]] = row
            }
        }
        return try records(ids.compactMap { rows[$0] }, db)
    }

    /// The condition of photos with a face shown of the query's person: by name (the column's
    /// NOCASE) or number (`person`), or by number alone (`personID`).
    private static func person(
        _ query: PhotoQuery, _ conditions: inout [String], _ arguments: inout [(any DatabaseValueConvertible)?]
    ) {
        var people: [(name: String?, id: Int64)] = []
        if let name = query.person { people.append((name, Int64(name) ?? -1)) }
        if let id = query.personID { people.append((nil, id)) }
        for (name, id) in people {
            conditions.append(
                """
                p.id IN (SELECT f.photo_id FROM faces f JOIN people e ON e.id = f.person_id
                    WHERE f.hidden = 0 AND (e.name = ? OR e.id = ?))
                """)
            arguments += [name, id]
        }
    }

    /// The conditions of `query` on the photos' albums, with their arguments.
    private static func albumConditions(
        _ query: PhotoQuery, _ conditions: inout [String], _ arguments: inout [(any DatabaseValueConvertible)?]
    ) {
        if let albumID = query.albumID {
            conditions.append("p.album_id = ?")
            arguments.append(albumID)
        }
        if !query.withheldAlbumIDs.isEmpty {
            conditions.append(PhotoSQL.withheld(query.withheldAlbumIDs, "p"))
        }
        if let folder = query.folder {
            // Its path, or one that continues it after a slash ('0' sorts just after '/').
            conditions.append("p.album_id IN (SELECT id FROM albums WHERE path = ? OR (path >= ? AND path < ?))")
            arguments += [Data(folder), Data(folder + [UInt8(ascii: "/")]), Data(folder + [UInt8(ascii: "0")])]
        }
    }

    /// The SELECT of `columns` (over `photos p JOIN albums a`) for `query`, in its order.
    static func selection(_ columns: String, _ query: PhotoQuery) -> (String, StatementArguments) {
        var conditions: [String]
        switch query.kind {
        case .photos:
            // A Live Photo's video is its still's motion, not an item of its own.
            conditions = [
                PhotoSQL.shown("p"),
                "(p.kind = 'photo' OR NOT EXISTS (SELECT 1 FROM live_photos l WHERE l.video_id = p.id))",
            ]
        case .errors: conditions = [PhotoSQL.present(.error, "p")]
        case .unsupported: conditions = [PhotoSQL.present(.unsupported, "p")]
        case .warnings: conditions = [PhotoSQL.present(.warning, "p")]
        }
        var arguments: [(any DatabaseValueConvertible)?] = []
        albumConditions(query, &conditions, &arguments)
        // Undated photos (no instant) come after the dated ones.
        var order = query.kind == .photos ? "p.sort_instant_ms IS NULL, p.sort_instant_ms DESC, p.path" : "p.path"
        var from = "photos p"
        if query.month == "" {
            conditions.append("p.captured_at IS NULL")
        } else if let month = query.month {
            // The month's local dates ('~' sorts after every character of an ISO-8601 date).
            conditions.append("p.captured_at >= ? AND p.captured_at < ?")
            arguments += [month, month + "~"]
            if query.kind == .photos, let (start, end) = Self.instants(around: month) {
                // ...within the instants they can be (every dated photo has one, at most a UTC
                // offset from its local time): read in order along photos_newest, a month of
                // any size is never sorted whole.
                conditions.append("p.sort_instant_ms >= ? AND p.sort_instant_ms < ?")
                arguments += [start, end]
                (order, from) = ("p.sort_instant_ms DESC, p.path", "photos p INDEXED BY photos_newest")
            }
        }
        if query.stackFacesOnly {
            conditions.append("NOT EXISTS (SELECT 1 FROM stack_members s WHERE s.photo_id = p.id AND s.position > 0)")
        }
        if query.keptCopiesOnly {
            conditions.append(
                """
                NOT EXISTS (SELECT 1 FROM copy_members c WHERE c.photo_id = p.id AND c.position > 0
                    AND NOT EXISTS (SELECT 1 FROM stack_members s WHERE s.photo_id = p.id AND s.position = 0))
                """)
        }
        if query.positionedOnly { conditions.append("p.gps_latitude IS NOT NULL AND p.gps_longitude IS NOT NULL") }
        if let media = query.media {
            conditions.append("p.kind = ?")
            arguments.append(media.rawValue)
        }
        if let place = query.place {
            conditions.append(
                """
                p.id IN (SELECT photo_id FROM photo_places WHERE place_id IN (
                    SELECT id FROM places WHERE instr(search_keys, ?) > 0))
                """)
            arguments.append("|" + PlaceName.searchKey(place) + "|")
        }
        Self.person(query, &conditions, &arguments)
        if let filter = query.placeFilter {
            let parts = [("l.region", filter.region), ("l.locality", filter.locality)].compactMap { column, value in
                value.map { (column, $0) }
            }
            conditions.append(
                """
                p.id IN (SELECT q.photo_id FROM photo_places q JOIN places l ON l.id = q.place_id
                    WHERE l.country_code = ? AND l.country = ?\(parts.map { " AND ifnull(\($0.0), '') = ?" }.joined()))
                """)
            arguments += [filter.countryCode, filter.country] + parts.map(\.1)
        }
        if let rating = query.minimumRating {
            conditions.append("p.rating >= ?")
            arguments.append(rating)
        }
        if let keyword = query.keyword {
            let escaped = keyword.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
            conditions.append(
                """
                EXISTS (SELECT 1 FROM photo_keywords k WHERE k.photo_id = p.id
                    AND (k.keyword = ? OR k.keyword LIKE ? ESCAPE '\\' OR k.keyword LIKE ? ESCAPE '\\'
                        OR k.keyword LIKE ? ESCAPE '\\'))
                """)
            arguments += [keyword, "%/" + escaped, escaped + "/%", "%/" + escaped + "/%"]
        }
        var sql = """
            SELECT \(columns) FROM \(from) JOIN albums a ON a.id = p.album_id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order)
            """
        if let limit = query.limit {
            sql += " LIMIT ?"
            arguments.append(limit)
        }
        return (sql, StatementArguments(arguments))
    }

    /// The instants (milliseconds since 1970) a photo taken in `month` (YYYY-MM, local time) can
    /// have, a day wider on each side than any UTC offset; nil for a month that is not one.
    static func instants(around month: String) -> (start: Int64, end: Int64)? {
        let parts = month.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let number = Int(parts[1]), (1...12).contains(number),
            (1...9999).contains(year)
        else { return nil }
        let first = WallClock(year: year, month: number, day: 1, hour: 0, minute: 0, second: 0)
        let next =
            number == 12
            ? WallClock(year: year + 1, month: 1, day: 1, hour: 0, minute: 0, second: 0)
            : WallClock(year: year, month: number + 1, day: 1, hour: 0, minute: 0, second: 0)
        let margin: Int64 = 2 * 86_400
        return ((first.secondsAsUTC - margin) * 1000, (next.secondsAsUTC + margin) * 1000)
    }

    /// Whole records of `rows` (RecordColumn's), with their renditions and Live Photo videos.
    private static func records(_ rows: [Row], _ db: Database) throws -> [PhotoRecord] {
        let ids = rows.map { $0[.id] as Int64 }
        let renditions = try Self.renditions(of: ids, db)
        let motion = try Self.livePhotoVideos(of: ids, db)
        let stacks = try Self.stacksFaced(by: ids, db)
        let places = try Self.places(of: ids, db)
        let people = try Self.namedPeople(of: ids, db)
        return rows.map { row in
            var record = Self.record(row, renditions: renditions[row[.id]] ?? [])
            record.livePhotoVideo = motion[record.id]
            record.stack = stacks[record.id]
            record.place = places[record.id]
            record.people = people[record.id] ?? []
            return record
        }
    }

    /// The stacks whose faces are among `ids`, by face: their kind and other members, in order.
    static func stacksFaced(by ids: [Int64], _ db: Database) throws -> [Int64: PhotoRecord.StackFace] {
        var stacks: [Int64: PhotoRecord.StackFace] = [:]
        for chunk in ids.chunks(of: 500) {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT f.photo_id, s.kind, m.photo_id FROM stack_members f JOIN stacks s ON s.id = f.stack_id
                    JOIN stack_members m ON m.stack_id = f.stack_id AND m.position > 0
                    WHERE f.position = 0 AND f.photo_id IN (\(databaseQuestionMarks(count: chunk.count)))
                    ORDER BY f.photo_id, m.position
                    """, arguments: StatementArguments(Array(chunk)))
            for row in rows {
                let face: Int64 = row[0]
                stacks[face, default: PhotoRecord.StackFace(kind: Stack.Kind(rawValue: row[1]) ?? .burst)]
                    .memberIDs.append(row[2])
            }
        }
        return stacks
    }

    /// Whether the index holds files directly inside `folder` (an album: compared by its exact bytes).
    public func isAlbum(_ folder: FilePath) throws(IndexError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM albums WHERE path = ?"), arguments: [Data(folder.rawBytes)])
                ?? false
        }
    }

    /// The row of the file at `path` (compared by its exact bytes), whatever its status; nil when
    /// the index has none.
    public func file(at path: FilePath) throws(IndexError) -> PhotoRecord? {
        try read { db in
            // Statements cached on the connection: `inspect` asks this once per file, and preparing
            // them was most of its cost.
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT \(RecordColumn.selection) FROM photos p JOIN albums a ON a.id = p.album_id
                            WHERE p.path = ?
                            """),
                    arguments: [Data(path.rawBytes)])
            else { return nil }
            let id: Int64 = row[.id]
            var record = Self.record(row, renditions: try Self.renditions(of: [id], db)[id] ?? [])
            // The live_photos view compares names across the album: asked only when the album
            // holds a video at all (`photos_kind` answers that at once).
            let album: Int64 = row[.albumID]
            if !record.format.isVideo,
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM photos WHERE kind <> 'photo' AND album_id = ? LIMIT 1"),
                    arguments: [album]) == true
            {
                record.livePhotoVideo = try Self.livePhotoVideos(of: [id], db)[id]
            }
            return record
        }
    }

    /// The videos of the Live Photos among the stills `ids`, by still.
    static func livePhotoVideos(of ids: [Int64], _ db: Database) throws -> [Int64: LivePhotoVideo] {
        var videos: [Int64: LivePhotoVideo] = [:]
        for chunk in ids.chunks(of: 500) {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT l.still_id, v.id, v.path, v.format, v.duration_s, v.video_codec,
                        (SELECT w.path FROM web_videos w WHERE w.photo_id = v.id AND w.source_key = v.thumbnail_key)
                    FROM live_photos l JOIN photos v ON v.id = l.video_id
                    WHERE l.still_id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """, arguments: StatementArguments(Array(chunk)))
            for row in rows {
                videos[row[0]] = LivePhotoVideo(
                    id: row[1], pathBytes: [UInt8](row[2] as Data), format: ImageFormat(rawValue: row[3]) ?? .mov,
                    duration: row[4], codec: row[5], webVideo: row[6])
            }
        }
        return videos
    }

    /// A row selected with `RecordColumn.selection` as a record.
    static func record(_ row: Row, renditions: [RenditionEntry]) -> PhotoRecord {
        var gps: GPSPosition?
        if let latitude = row[.gpsLatitude] as Double?, let longitude = row[.gpsLongitude] as Double? {
            gps = GPSPosition(latitude: latitude, longitude: longitude, altitude: row[.gpsAltitude])
        }
        let warnings = (row[.warnings] as String?).flatMap {
            try? JSONDecoder().decode([String].self, from: Data($0.utf8))
        }
        let camera = Camera(
            make: row[.make], model: row[.model], lensModel: row[.lensModel], exposureTime: row[.exposureTime],
            exposureBias: row[.exposureBias], fNumber: row[.fNumber], iso: row[.iso], focalLength: row[.focalLength],
            focalLength35mm: row[.focalLength35mm])
        let keywords = (row[.keywords] as String?).flatMap {
            try? JSONDecoder().decode([String].self, from: Data($0.utf8))
        }
        let annotations = Annotations(
            rating: row[.rating], label: row[.label], title: row[.title], description: row[.description],
            keywords: keywords ?? [], sidecar: (row[.sidecar] as Data?).map { String(decoding: $0, as: UTF8.self) })
        var video: PhotoRecord.Video?
        if row[.kind] as String? == "video" {
            video = PhotoRecord.Video(
                duration: row[.duration], codec: row[.videoCodec], rotation: row[.rotation],
                frameRate: row[.frameRate], posterTime: row[.posterTime])
            video?.webVideo = row[.webVideo]
        }
        var motion: EmbeddedVideo?
        if let offset = row[.motionOffset] as Int64?, let length = row[.motionLength] as Int64? {
            motion = EmbeddedVideo(
                offset: offset, length: length, duration: row[.duration], codec: row[.videoCodec])
        }
        let dateSource = (row[.dateSource] as String?).flatMap(DateSource.init(rawValue:))
        var record = PhotoRecord(
            id: row[.id], pathBytes: [UInt8](row[.path] as Data), albumID: row[.albumID],
            albumName: row[.albumName],
            status: PhotoRecord.Status(rawValue: row[.status]) ?? .error, error: row[.error],
            errorCode: row[.errorCode],
            format: ImageFormat(rawValue: row[.format]) ?? .unsupported, width: row[.width], height: row[.height],
            orientation: row[.orientation], displayWidth: row[.displayWidth], displayHeight: row[.displayHeight],
            bitDepth: row[.bitDepth], coding: row[.coding], hdr: row[.hdr], capturedAt: row[.capturedAt],
            utcOffset: row[.utcOffset], dateSource: dateSource, sortInstantMilliseconds: row[.sortInstant],
            camera: camera, annotations: annotations, gps: gps, warnings: warnings ?? [],
            contentHash: row[.contentHash], renditions: renditions,
            thumbhash: (row[.thumbhash] as Data?).map { [UInt8]($0) }, video: video, motion: motion,
            contentIdentifier: row[.contentIdentifier])
        if motion != nil { record.motionWebVideo = row[.webVideo] }
        return record
    }
}
