import GRDB

/// The columns a `PhotoRecord` is read from, selected in this order and read by position:
/// looking each of some fifty values up by name (a case-insensitive search of the row's
/// columns) was most of the cost of reading a row.
enum RecordColumn: Int, CaseIterable {
    case id, path, albumID, albumName, status, error, errorCode, format, width, height, orientation
    case displayWidth, displayHeight, bitDepth, coding, hdr, capturedAt, utcOffset, dateSource, sortInstant
    case make, model, lensModel, exposureTime, fNumber, iso, focalLength, focalLength35mm
    case gpsLatitude, gpsLongitude, gpsAltitude, warnings, rating, label, title, description, keywords, sidecar
    case kind, duration, videoCodec, rotation, frameRate, posterTime, motionOffset, motionLength
    case contentHash, thumbhash, contentIdentifier, webVideo, exposureBias

    /// Each column as the SELECT names it, in case order (photos as `p`, their album as `a`).
    private static let expressions = [
        "p.id", "p.path", "p.album_id", "a.name", "p.status", "p.error", "p.error_code", "p.format", "p.width",
        "p.height", "p.orientation", "p.display_width", "p.display_height", "p.bit_depth", "p.coding", "p.hdr",
        "p.captured_at", "p.utc_offset", "p.date_source", "p.sort_instant_ms", "p.make", "p.model", "p.lens_model",
        "p.exposure_time", "p.f_number", "p.iso", "p.focal_length", "p.focal_length_35mm", "p.gps_latitude",
        "p.gps_longitude", "p.gps_altitude", "p.warnings", "p.rating", "p.label", "p.title", "p.description",
        "p.keywords", "p.sidecar", "p.kind", "p.duration_s", "p.video_codec", "p.rotation", "p.frame_rate",
        "p.poster_time_s", "p.motion_offset", "p.motion_length", "p.content_hash", "p.thumbhash",
        "p.content_identifier",
        "(SELECT w.path FROM web_videos w WHERE w.photo_id = p.id AND w.source_key = p.thumbnail_key)",
        "p.exposure_bias",
    ]

    /// `SELECT`'s list for `record`, over `photos p JOIN albums a`.
    static let selection = expressions.joined(separator: ", ")
}

extension Row {
    /// The value of `column` (an optional type reads NULL as nil).
    subscript<Value: DatabaseValueConvertible>(_ column: RecordColumn) -> Value {
        self[column.rawValue]
    }
}
