import Foundation
import GRDB
public import SystemPackage
import TesseraFacts
import TesseraSystem

/// A video browsers cannot play whose web rendition is not there: never made, made from other
/// content or with other settings, or its file gone from the cache.
public struct WebVideoJob: Sendable, Equatable {
    public var photoID: Int64
    public var path: FilePath
    /// The key of its content (its renditions'): the web rendition is named by it.
    public var sourceKey: String
    /// Seconds, when known: what a time limit is measured against.
    public var duration: Double?
    /// Where the video lies in the file when it is a motion photo's MP4; nil for a whole file.
    public var embedded: Range<Int64>?

    public init(photoID: Int64, path: FilePath, sourceKey: String, duration: Double?, embedded: Range<Int64>? = nil) {
        (self.photoID, self.path, self.sourceKey, self.duration) = (photoID, path, sourceKey, duration)
        self.embedded = embedded
    }
}

/// How making a web rendition ended.
public enum WebVideoOutcome: Sendable, Equatable {
    /// The MP4 at `path` in the cache.
    case made(path: String, width: Int, height: Int, bytes: Int64, hasAudio: Bool)
    /// Why it could not be made: kept until the video or the settings change.
    case failed(String)
}

extension PhotoIndex {
    /// The videos (and motion photos' MP4s) browsers cannot play whose web rendition made with `settings` from their
    /// present content is not recorded, or whose recorded file `exists` says is gone.
    public func webVideoJobs(settings: String, exists: (String) -> Bool) throws(IndexError) -> [WebVideoJob] {
        let rows = try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT p.id, p.path, p.format, p.video_codec, p.duration_s, p.thumbnail_key,
                        p.motion_offset, p.motion_length, w.source_key, w.settings, w.path AS made
                    FROM photos p LEFT JOIN web_videos w ON w.photo_id = p.id
                    WHERE p.id IN (
                        SELECT id FROM photos INDEXED BY photos_kind WHERE kind <> 'photo' AND kind = 'video'
                        UNION ALL
                        SELECT id FROM photos INDEXED BY photos_motion WHERE motion_offset IS NOT NULL)
                      AND \(PhotoSQL.shown("p"))
                      AND p.thumbnail_key IS NOT NULL
                    ORDER BY p.id
                    """)
        }
        var jobs: [WebVideoJob] = []
        for row in rows {
            let offset = row["motion_offset"] as Int64?, length = row["motion_length"] as Int64?
            let embedded = offset.flatMap { offset in length.map { offset..<offset + max(0, $0) } }
            // (a motion photo's video is an MP4, whatever the photo's format)
            let format =
                embedded != nil ? .mp4 : (row["format"] as String?).flatMap(ImageFormat.init(rawValue:)) ?? .unsupported
            guard !format.playsInBrowsers(codec: row["video_codec"]), let key = row["thumbnail_key"] as String?
            else { continue }
            let recorded = row["source_key"] as String? == key && row["settings"] as String? == settings
            let made = row["made"] as String?
            if recorded && (made.map(exists) ?? true) { continue }
            jobs.append(
                WebVideoJob(
                    photoID: row["id"], path: FilePath(rawBytes: [UInt8](row["path"] as Data)), sourceKey: key,
                    duration: row["duration_s"], embedded: embedded))
        }
        return jobs
    }

    /// Records how making the web rendition of `job` with `settings` ended, unless the video
    /// changed meanwhile (then its next scan asks again).
    public func recordWebVideo(_ job: WebVideoJob, settings: String, outcome: WebVideoOutcome) throws(IndexError) {
        try write { db in
            guard
                try String.fetchOne(
                    db, sql: "SELECT thumbnail_key FROM photos WHERE id = ?", arguments: [job.photoID])
                    == job.sourceKey
            else { return }
            var values: [(any DatabaseValueConvertible)?] = [job.photoID, job.sourceKey, settings]
            switch outcome {
            case .made(let path, let width, let height, let bytes, let hasAudio):
                values += [path, width, height, bytes, hasAudio, nil]
                try db.execute(sql: "DELETE FROM cache_deletions WHERE path = ?", arguments: [path])
            case .failed(let reason):
                values += [nil, nil, nil, nil, nil, reason]
            }
            values.append(Int64(Date().timeIntervalSince1970 * 1000))
            try db.execute(
                sql: """
                    INSERT INTO web_videos (
                        photo_id, source_key, settings, path, width, height, bytes, has_audio, error, made_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(photo_id) DO UPDATE SET
                        source_key = excluded.source_key, settings = excluded.settings, path = excluded.path,
                        width = excluded.width, height = excluded.height, bytes = excluded.bytes,
                        has_audio = excluded.has_audio, error = excluded.error, made_ms = excluded.made_ms
                    """, arguments: StatementArguments(values))
        }
    }
}
