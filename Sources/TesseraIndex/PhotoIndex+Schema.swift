import Foundation
import GRDB

extension PhotoIndex {
    /// The schema version, also written to `PRAGMA user_version`; docs/INDEX.md describes it.
    public static let schemaVersion = 23

    /// What marks a photo's groups to be decided again (`refreshGroups`): a new row, or a
    /// change of anything stacks and copies are decided by (as of schema `version`).
    static func pendingTriggers(version: Int) -> String {
        let decidedBy =
            [
                "path", "album_id", "status", "missing_since_ms", "content_hash", "phash", "thumbhash", "format",
                "display_width", "display_height", "captured_at", "make", "model", "rating", "exposure_bias",
                "burst_id",
                "camera_serial",
            ] + (version >= 16 ? ["phash_detail"] : [])
        let changed = decidedBy.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
        // (not INSERT OR IGNORE: a trigger takes the conflict policy of the statement that fired it)
        let mark =
            "INSERT INTO group_pending SELECT NEW.id "
            + "WHERE NOT EXISTS (SELECT 1 FROM group_pending WHERE photo_id = NEW.id);"
        return """
            CREATE TRIGGER photos_group_inserted AFTER INSERT ON photos BEGIN \(mark) END;
            CREATE TRIGGER photos_group_updated AFTER UPDATE ON photos WHEN \(changed) BEGIN \(mark) END;
            """
    }

    /// What a change of a group's member marks: its photo's album and month.
    ///
    /// `shownWhen`: when only whether the photo is shown changes its page (a copy kept is shown
    /// as if alone), a change that leaves that as it was marks nothing.
    static func memberTriggers(_ table: String, shownWhen shown: String?) -> String {
        func mark(_ row: String) -> String {
            """
            UPDATE change_counter SET value = value + 1;
            UPDATE albums SET content_change = (SELECT value FROM change_counter)
                WHERE id = (SELECT album_id FROM photos WHERE id = \(row).photo_id);
            INSERT INTO month_changes (month, content_change)
                SELECT substr(coalesce(captured_at, ''), 1, 7), (SELECT value FROM change_counter)
                FROM photos WHERE id = \(row).photo_id
                ON CONFLICT(month) DO UPDATE SET content_change = excluded.content_change;
            """
        }
        let (inserted, updated, deleted) =
            shown.map {
                ("WHEN NOT (NEW.\($0))", "WHEN (NEW.\($0)) IS NOT (OLD.\($0))", "WHEN NOT (OLD.\($0))")
            } ?? ("", "", "")
        return """
            CREATE TRIGGER \(table)_inserted AFTER INSERT ON \(table) \(inserted) BEGIN \(mark("NEW")) END;
            CREATE TRIGGER \(table)_updated AFTER UPDATE ON \(table) \(updated) BEGIN \(mark("NEW")) END;
            CREATE TRIGGER \(table)_deleted AFTER DELETE ON \(table) \(deleted) BEGIN \(mark("OLD")) END;
            """
    }

    /// The SQL of band `band` (0–3) of a photo's perceptual hash: 16 of its bits, as its
    /// index on `photos` names them (a query must use the very same expression).
    static func phashBand(_ band: Int) -> String {
        "(phash >> \(16 * band)) & 65535"
    }

    /// What marks an album and a month changed.
    ///
    /// Every write of a photo row takes the next value of `change_counter` and records it on the
    /// album and the month of the row before and after the write. Renditions are written only with
    /// their photo's row (`apply`), so a change of renditions marks them too, at the cost of one
    /// trigger a photo rather than one a rendition.
    static let changeTriggers = {
        let now = "(SELECT value FROM change_counter)"
        let upsert = "ON CONFLICT(month) DO UPDATE SET content_change = excluded.content_change"
        func month(_ row: String) -> String { "substr(coalesce(\(row).captured_at, ''), 1, 7)" }
        /// The album and month of `row` (of `other` too, when either differs).
        func mark(_ row: String, or other: String? = nil) -> String {
            let albums = other.map { "IN (\(row).album_id, \($0).album_id)" } ?? "= \(row).album_id"
            let months = other.map { "SELECT \(month(row)) UNION SELECT \(month($0))" } ?? "SELECT \(month(row))"
            return """
                UPDATE albums SET content_change = \(now) WHERE id \(albums);
                INSERT INTO month_changes (month, content_change)
                    SELECT *, \(now) FROM (\(months)) WHERE true \(upsert);
                """
        }
        let bump = "UPDATE change_counter SET value = value + 1;"
        return """
            CREATE TRIGGER photos_inserted AFTER INSERT ON photos BEGIN \(bump) \(mark("NEW")) END;
            CREATE TRIGGER photos_updated AFTER UPDATE ON photos BEGIN \(bump) \(mark("NEW", or: "OLD")) END;
            CREATE TRIGGER photos_deleted AFTER DELETE ON photos BEGIN \(bump) \(mark("OLD")) END;
            """
    }()

    /// What a web video's row changes beside it: its album and month are marked changed (the
    /// page plays it now), and a file it no longer names is due for deletion.
    static let webVideoTriggers = {
        let now = "(SELECT value FROM change_counter)"
        let mark = """
            UPDATE change_counter SET value = value + 1;
            UPDATE albums SET content_change = \(now) WHERE id = (SELECT album_id FROM photos WHERE id = NEW.photo_id);
            INSERT INTO month_changes (month, content_change)
                SELECT substr(coalesce(captured_at, ''), 1, 7), \(now) FROM photos WHERE id = NEW.photo_id
                ON CONFLICT(month) DO UPDATE SET content_change = excluded.content_change;
            """
        let release = """
            INSERT OR IGNORE INTO cache_deletions (path) SELECT OLD.path
                WHERE OLD.path IS NOT NULL AND NOT EXISTS (SELECT 1 FROM web_videos WHERE path = OLD.path);
            """
        return """
            CREATE TRIGGER web_videos_inserted AFTER INSERT ON web_videos BEGIN \(mark) END;
            CREATE TRIGGER web_videos_updated AFTER UPDATE ON web_videos BEGIN \(mark) \(release) END;
            CREATE TRIGGER web_videos_deleted AFTER DELETE ON web_videos BEGIN \(release) END;
            """
    }()

    /// The longest a video without a Live Photo identifier may run and still be taken for the
    /// motion of the still of its name (Apple's are about 3 s; a few seconds more for exports).
    public static let livePhotoSeconds = 4
}
