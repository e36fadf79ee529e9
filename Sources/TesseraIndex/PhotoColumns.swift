import Foundation
import GRDB
import TesseraFacts
import TesseraSystem

/// The `photos` columns of one file, in schema order, and the upsert that writes them.
struct PhotoColumns {
    static let names = [
        "path", "path_text", "album_id", "device", "inode", "size", "mtime_ns", "content_hash", "status", "error",
        "warnings", "format", "width", "height", "orientation", "display_width", "display_height", "bit_depth",
        "coding", "captured_at", "utc_offset", "date_source", "sort_instant_ms", "make", "model", "lens_model",
        "exposure_time", "f_number", "iso", "focal_length", "gps_latitude", "gps_longitude", "gps_altitude",
        "thumbnail_key", "scan_id", "error_code", "thumbhash", "render_settings", "hdr", "focal_length_35mm",
        "exposure_bias", "burst_id", "camera_serial",
        "rating", "label", "title", "description", "keywords", "sidecar", "sidecar_size", "sidecar_mtime_ns",
        "kind", "duration_s", "video_codec", "rotation", "frame_rate", "poster_time_s", "content_identifier",
        "motion_offset", "motion_length", "phash", "phash_detail",
    ]
    /// The photo's keywords, for `photo_keywords`.
    var keywords: [String] = []
    /// The photo's location words, for `photo_location_words`.
    var location: LocationWords?
    /// The faces its XMP names, for `photo_face_regions`.
    var faceRegions: [FaceRegion] = []

    var values: [String: (any DatabaseValueConvertible)?] = [:]
    var albumID: Int64 {
        get { values["album_id"] as? Int64 ?? 0 }
        set { values["album_id"] = newValue }
    }
    var scanID: Int64 {
        get { values["scan_id"] as? Int64 ?? 0 }
        set { values["scan_id"] = newValue }
    }

    init(update: FileUpdate) {
        let bytes = update.path.rawBytes
        values["path"] = Data(bytes)
        values["path_text"] = String(decoding: bytes, as: UTF8.self)
        values["device"] = Int64(bitPattern: update.identity.device)
        values["inode"] = Int64(bitPattern: update.identity.inode)
        values["size"] = update.identity.size
        values["mtime_ns"] = update.identity.mtimeNanoseconds
        values["sidecar"] = update.sidecar.map { Data($0.name) }
        values["sidecar_size"] = update.sidecar?.stamp.size
        values["sidecar_mtime_ns"] = update.sidecar?.stamp.mtimeNanoseconds
        var warnings: [String] = []
        switch update.content {
        case .photo(let facts, let extra, let rendered):
            warnings = facts.warnings + extra
            values["status"] = warnings.isEmpty ? "ok" : "warning"
            values["content_hash"] = rendered.contentHash
            values["thumbnail_key"] = rendered.key
            values["thumbhash"] = rendered.thumbhash.map { Data($0) }
            for output in rendered.analyses.compactMap(\.output) {
                values.merge(AnalysisStorage.columns(of: output)) { $1 }
            }
            values["render_settings"] = rendered.settings
            values["poster_time_s"] = rendered.posterTime
            fill(facts)
        case .failed(let format, let error, let facts):
            values["status"] = "error"
            values["error"] = error.reason
            values["error_code"] = error.code.description
            values["format"] = format.rawValue
            values["kind"] = format.isVideo ? "video" : "photo"
            if let facts {
                warnings = facts.warnings
                fill(facts)
            }
        case .unsupported(let reason):
            values["kind"] = "photo"
            values["status"] = "unsupported"
            values["error"] = reason
            values["format"] = ImageFormat.unsupported.rawValue
        }
        let encoded = (try? JSONEncoder().encode(warnings)).map { String(decoding: $0, as: UTF8.self) }
        values["warnings"] = encoded ?? "[]"
    }

    private mutating func fill(_ facts: PhotoFacts) {
        values["format"] = facts.format.rawValue
        values["kind"] = facts.format.isVideo ? "video" : "photo"
        values["duration_s"] = facts.video.map(\.duration) ?? facts.motion?.duration
        values["video_codec"] = facts.video?.codec ?? facts.motion?.codec
        values["motion_offset"] = facts.motion?.offset
        values["motion_length"] = facts.motion?.length
        values["rotation"] = facts.video?.rotation
        values["frame_rate"] = facts.video?.frameRate
        values["content_identifier"] = facts.contentIdentifier
        values["burst_id"] = facts.burstIdentifier
        values["width"] = facts.width
        values["height"] = facts.height
        values["orientation"] = facts.orientation
        values["display_width"] = facts.displayWidth
        values["display_height"] = facts.displayHeight
        values["bit_depth"] = facts.bitDepth
        values["coding"] = facts.coding
        values["hdr"] = facts.hdr?.rawValue
        values["captured_at"] = facts.captureDate?.wallClock.iso8601
        values["utc_offset"] = facts.captureDate?.utcOffset?.description
        values["date_source"] = (facts.captureDate?.source ?? .undated).rawValue
        values["sort_instant_ms"] = facts.captureDate?.instantMilliseconds
        let camera = facts.camera
        values["make"] = camera.make
        values["model"] = camera.model
        values["lens_model"] = camera.lensModel
        values["exposure_time"] = camera.exposureTime
        values["exposure_bias"] = camera.exposureBias
        values["f_number"] = camera.fNumber
        values["iso"] = camera.iso
        values["focal_length"] = camera.focalLength
        values["focal_length_35mm"] = camera.focalLength35mm
        values["camera_serial"] = camera.serialNumber
        let annotations = facts.annotations
        values["rating"] = annotations.rating
        values["label"] = annotations.label
        values["title"] = annotations.title
        values["description"] = annotations.description
        keywords = annotations.keywords
        values["keywords"] =
            keywords.isEmpty
            ? nil : (try? JSONEncoder().encode(keywords)).map { String(decoding: $0, as: UTF8.self) }
        values["gps_latitude"] = facts.gps?.latitude
        values["gps_longitude"] = facts.gps?.longitude
        values["gps_altitude"] = facts.gps?.altitude
        location = facts.location
        faceRegions = facts.faceRegions ?? []
    }

    /// INSERT, or UPDATE every column of the row with the same path (its id survives), and
    /// its keywords; returns its id.
    func upsert(_ db: Database) throws -> Int64 {
        // (each statement prepared once a connection: a file's row is written in a few of them)
        let row: [(any DatabaseValueConvertible)?] = Self.names.map { values[$0] ?? nil }
        try db.cachedStatement(sql: Self.upsertSQL).execute(arguments: StatementArguments(row))
        let id =
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM photos WHERE path = ?"),
                arguments: StatementArguments(Array(row.prefix(1))))  // (`names` starts with "path")
            ?? 0
        try db.cachedStatement(sql: "DELETE FROM photo_keywords WHERE photo_id = ?").execute(arguments: [id])
        for keyword in keywords {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO photo_keywords (photo_id, keyword) VALUES (?, ?)")
                .execute(arguments: [id, keyword])
        }
        try recordLocation(db, id: id)
        try recordFaceRegions(db, id: id)
        return id
    }

    /// The faces its XMP names; when it names or named some, its faces that the grouping or a
    /// name placed are grouped again (a name given since wins over the grouping).
    private func recordFaceRegions(_ db: Database, id: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM photo_face_regions WHERE photo_id = ?").execute(arguments: [id])
        guard db.changesCount > 0 || !faceRegions.isEmpty else { return }
        for region in faceRegions {
            try db.cachedStatement(
                sql: "INSERT INTO photo_face_regions (photo_id, name, x, y, width, height) VALUES (?, ?, ?, ?, ?, ?)"
            ).execute(arguments: [id, region.name, region.x, region.y, region.width, region.height])
        }
        try db.cachedStatement(
            sql: """
                UPDATE faces SET person_id = NULL, assigned_by = NULL
                WHERE photo_id = ? AND assigned_by IN ('auto', 'xmp')
                """
        ).execute(arguments: [id])
    }

    /// The photo's location words; its place waits to be named again when it has or had some.
    private func recordLocation(_ db: Database, id: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM photo_location_words WHERE photo_id = ?").execute(arguments: [id])
        let had = db.changesCount > 0
        if let words = location {
            try db.cachedStatement(
                sql: """
                    INSERT INTO photo_location_words (photo_id, city, region, country, country_code, sublocation)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [id, words.city, words.region, words.country, words.countryCode, words.sublocation])
        }
        if had || location != nil {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO place_pending VALUES (?)").execute(arguments: [id])
        }
        // (read now: what it says of its place is recorded)
        try db.cachedStatement(sql: "DELETE FROM place_unread WHERE photo_id = ?").execute(arguments: [id])
    }

    /// INSERT of every column, or UPDATE of the row with the same path.
    private static let upsertSQL: String = {
        let updates = names.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let (columns, marks) = (names.joined(separator: ", "), databaseQuestionMarks(count: names.count))
        return "INSERT INTO photos (\(columns)) VALUES (\(marks)) ON CONFLICT(path) DO UPDATE SET \(updates)"
    }()
}
