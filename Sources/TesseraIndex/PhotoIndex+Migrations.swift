import Foundation
import GRDB

// The schema's history, one step a version: a shipped step is never edited (docs/INDEX.md).
extension PhotoIndex {
    /// Migrations in order, up to `version`.
    ///
    /// Never edit one that has shipped: add the next.
    static func migrator(upTo version: Int = schemaVersion) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE albums (
                        id INTEGER PRIMARY KEY,
                        path BLOB NOT NULL UNIQUE,
                        root BLOB NOT NULL,
                        name TEXT NOT NULL,
                        photo_count INTEGER NOT NULL DEFAULT 0,
                        newest_captured_at TEXT,
                        oldest_captured_at TEXT,
                        newest_instant_ms INTEGER,
                        oldest_instant_ms INTEGER,
                        cover_photo_id INTEGER REFERENCES photos(id) ON DELETE SET NULL
                    );
                    CREATE TABLE photos (
                        id INTEGER PRIMARY KEY,
                        path BLOB NOT NULL UNIQUE,
                        path_text TEXT NOT NULL,
                        album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
                        device INTEGER NOT NULL,
                        inode INTEGER NOT NULL,
                        size INTEGER NOT NULL,
                        mtime_ns INTEGER NOT NULL,
                        content_hash TEXT,
                        \(Self.statusColumn),
                        error TEXT,
                        warnings TEXT NOT NULL DEFAULT '[]',
                        format TEXT NOT NULL CHECK (format IN ('jpeg', 'png', 'unsupported')),
                        width INTEGER,
                        height INTEGER,
                        orientation INTEGER CHECK (orientation BETWEEN 1 AND 8),
                        display_width INTEGER,
                        display_height INTEGER,
                        bit_depth INTEGER,
                        coding TEXT,
                        captured_at TEXT,
                        utc_offset TEXT,
                        date_source TEXT CHECK (date_source IN
                            ('exif-original', 'exif-digitized', 'png', 'filename', 'exif-modified', 'mtime')),
                        sort_instant_ms INTEGER,
                        make TEXT,
                        model TEXT,
                        lens_model TEXT,
                        exposure_time REAL,
                        f_number REAL,
                        iso INTEGER,
                        focal_length REAL,
                        gps_latitude REAL,
                        gps_longitude REAL,
                        gps_altitude REAL,
                        thumbnail_key TEXT,
                        scan_id INTEGER REFERENCES scans(id) ON DELETE SET NULL,
                        CHECK (status NOT IN ('ok', 'warning') OR (sort_instant_ms IS NOT NULL AND width IS NOT NULL))
                    );
                    CREATE INDEX photos_newest ON photos(sort_instant_ms DESC, path);
                    CREATE INDEX photos_album_newest ON photos(album_id, sort_instant_ms DESC, path);
                    CREATE INDEX photos_identity ON photos(device, inode);
                    CREATE INDEX photos_thumbnail_key ON photos(thumbnail_key);
                    CREATE INDEX photos_status ON photos(status) WHERE status IN ('error', 'warning');
                    CREATE TABLE thumbnails (
                        photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        size INTEGER NOT NULL,
                        side INTEGER NOT NULL,
                        path TEXT NOT NULL,
                        PRIMARY KEY (photo_id, size)
                    ) WITHOUT ROWID;
                    CREATE TABLE scans (
                        id INTEGER PRIMARY KEY,
                        started_at_ms INTEGER NOT NULL,
                        finished_at_ms INTEGER,
                        state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'interrupted', 'failed')),
                        full INTEGER NOT NULL DEFAULT 0,
                        roots TEXT NOT NULL,
                        found INTEGER NOT NULL DEFAULT 0,
                        new INTEGER NOT NULL DEFAULT 0,
                        changed INTEGER NOT NULL DEFAULT 0,
                        unchanged INTEGER NOT NULL DEFAULT 0,
                        moved INTEGER NOT NULL DEFAULT 0,
                        removed INTEGER NOT NULL DEFAULT 0,
                        unsupported INTEGER NOT NULL DEFAULT 0,
                        errors INTEGER NOT NULL DEFAULT 0,
                        warnings INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE walk_errors (
                        scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
                        path BLOB NOT NULL,
                        path_text TEXT NOT NULL,
                        reason TEXT NOT NULL
                    );
                    PRAGMA user_version = 1;
                    """)
        }
        guard version >= 2 else { return migrator }
        migrator.registerMigration("v2") { db in
            // error_code: the PhotoError code of a failed file, so transient failures are retried.
            // cache_deletions: thumbnail keys whose files are to be deleted, written in the same
            // transaction that drops the last row referring to them, removed once the files are.
            // scans.reason: why a scan failed or was interrupted.
            try db.execute(
                sql: """
                    ALTER TABLE photos ADD COLUMN error_code TEXT;
                    ALTER TABLE scans ADD COLUMN reason TEXT;
                    CREATE TABLE cache_deletions (key TEXT PRIMARY KEY) WITHOUT ROWID;
                    PRAGMA user_version = 2;
                    """)
        }
        guard version >= 3 else { return migrator }
        migrator.registerMigration("v3") { db in
            // renditions: squares and fits of every kept size, replacing thumbnails; every existing
            // thumbnail becomes a square rendition row (its byte count unknown until rendered again).
            // thumbhash: the placeholder. render_settings: the sizes and settings the photo's
            // renditions were made with; a scan compares it with the configuration.
            // cache_deletions now lists files, since a size can go without its key; keys still
            // pending there are left by a crash, and the scan after a crash sweeps the whole cache.
            // scans.rerendered: unchanged photos whose renditions a scan brought up to date.
            // photos is rebuilt (SQLite cannot alter a CHECK) without the list of formats, which
            // grows with the formats Tessera reads; the other constraints stay.
            // photo_pairs: a RAW file and the JPEG (or HEIF…) of the same shot beside it (same
            // folder, same name but for the extension), so a front end can show one of them.
            try db.execute(
                sql: """
                    CREATE TABLE renditions (
                        photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('square', 'fit')),
                        size INTEGER NOT NULL,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        bytes INTEGER,
                        path TEXT NOT NULL,
                        source TEXT NOT NULL DEFAULT 'decoded',
                        PRIMARY KEY (photo_id, kind, size)
                    ) WITHOUT ROWID;
                    CREATE INDEX renditions_path ON renditions(path);
                    INSERT INTO renditions (photo_id, kind, size, width, height, bytes, path)
                        SELECT photo_id, 'square', size, side, side, NULL, path FROM thumbnails;
                    DROP TABLE thumbnails;
                    CREATE TABLE photos_v3 (
                        id INTEGER PRIMARY KEY,
                        path BLOB NOT NULL UNIQUE,
                        path_text TEXT NOT NULL,
                        album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
                        device INTEGER NOT NULL,
                        inode INTEGER NOT NULL,
                        size INTEGER NOT NULL,
                        mtime_ns INTEGER NOT NULL,
                        content_hash TEXT,
                        \(Self.statusColumn),
                        error TEXT,
                        warnings TEXT NOT NULL DEFAULT '[]',
                        format TEXT NOT NULL,
                        width INTEGER,
                        height INTEGER,
                        orientation INTEGER CHECK (orientation BETWEEN 1 AND 8),
                        display_width INTEGER,
                        display_height INTEGER,
                        bit_depth INTEGER,
                        coding TEXT,
                        captured_at TEXT,
                        utc_offset TEXT,
                        date_source TEXT CHECK (date_source IN
                            ('exif-original', 'exif-digitized', 'png', 'filename', 'exif-modified', 'mtime')),
                        sort_instant_ms INTEGER,
                        make TEXT,
                        model TEXT,
                        lens_model TEXT,
                        exposure_time REAL,
                        f_number REAL,
                        iso INTEGER,
                        focal_length REAL,
                        gps_latitude REAL,
                        gps_longitude REAL,
                        gps_altitude REAL,
                        thumbnail_key TEXT,
                        scan_id INTEGER REFERENCES scans(id) ON DELETE SET NULL,
                        error_code TEXT,
                        thumbhash BLOB,
                        render_settings TEXT,
                        CHECK (status NOT IN ('ok', 'warning') OR (sort_instant_ms IS NOT NULL AND width IS NOT NULL))
                    );
                    INSERT INTO photos_v3 SELECT *, NULL, NULL FROM photos;
                    DROP TABLE photos;
                    ALTER TABLE photos_v3 RENAME TO photos;
                    CREATE INDEX photos_newest ON photos(sort_instant_ms DESC, path);
                    CREATE INDEX photos_album_newest ON photos(album_id, sort_instant_ms DESC, path);
                    CREATE INDEX photos_identity ON photos(device, inode);
                    CREATE INDEX photos_thumbnail_key ON photos(thumbnail_key);
                    CREATE INDEX photos_status ON photos(status) WHERE status IN ('error', 'warning');
                    CREATE VIEW photo_pairs AS
                        SELECT raw.id AS raw_id, other.id AS photo_id
                        FROM photos raw JOIN photos other ON other.album_id = raw.album_id AND other.id <> raw.id
                        WHERE raw.format = 'raw' AND other.format NOT IN ('raw', 'unsupported')
                          AND lower(substr(raw.path_text, 1, length(raw.path_text)
                                - length(replace(raw.path_text,
                                    rtrim(raw.path_text, replace(raw.path_text, '.', '')), ''))))
                            = lower(substr(other.path_text, 1, length(other.path_text)
                                - length(replace(other.path_text,
                                    rtrim(other.path_text, replace(other.path_text, '.', '')), ''))));
                    DROP TABLE cache_deletions;
                    CREATE TABLE cache_deletions (path TEXT PRIMARY KEY) WITHOUT ROWID;
                    ALTER TABLE scans ADD COLUMN rerendered INTEGER NOT NULL DEFAULT 0;
                    PRAGMA user_version = 3;
                    """)
        }
        guard version >= 4 else { return migrator }
        // v4: what a rescan asks of every directory, answered from one index without touching
        // the table; the rows a scan wrote, found without reading the others; and a month's
        // photos (the album site's timeline), found without reading every row.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: """
                    CREATE INDEX photos_rescan ON photos(
                        album_id, path, device, inode, size, mtime_ns, status, error_code, render_settings, thumbhash,
                        content_hash, thumbnail_key);
                    CREATE INDEX photos_scan ON photos(scan_id, path);
                    CREATE INDEX photos_month ON photos(captured_at, status);
                    PRAGMA user_version = 4;
                    """)
        }
        guard version >= 5 else { return migrator }
        // v5: nothing a scan does not see is deleted at once. missing_since_ms: when a scan of
        // the file's present root first found the file gone; the row and its renditions stay,
        // hidden from readers, until the grace period ends or `tessera prune` removes it.
        // scans.missing: files a scan found gone; scans.offline: the folders it found offline
        // (an unmounted disk), one a line; scans.kept_offline: indexed files it kept there.
        // photos_month gains missing_since_ms, so that the months still come from it alone.
        migrator.registerMigration("v5") { db in
            try db.execute(
                sql: """
                    ALTER TABLE photos ADD COLUMN missing_since_ms INTEGER;
                    CREATE INDEX photos_missing ON photos(missing_since_ms) WHERE missing_since_ms IS NOT NULL;
                    DROP INDEX photos_month;
                    CREATE INDEX photos_month ON photos(captured_at, status, missing_since_ms);
                    ALTER TABLE scans ADD COLUMN missing INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE scans ADD COLUMN kept_offline INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE scans ADD COLUMN offline TEXT;
                    PRAGMA user_version = 5;
                    """)
        }
        guard version >= 6 else { return migrator }
        // v6: state, what scans carry from one to the next: where the check of the rendition
        // cache stopped (cache_checked_through) and the time zone dates were resolved in
        // (time_zone).
        migrator.registerMigration("v6") { db in
            try db.execute(
                sql: """
                    CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                    PRAGMA user_version = 6;
                    """)
        }
        guard version >= 7 else { return migrator }
        // v7: hdr, the transfer of a high dynamic range photo ('pq' or 'hlg'; NULL for SDR),
        // whose renditions are tone-mapped.
        migrator.registerMigration("v7") { db in
            try db.execute(
                sql: """
                    ALTER TABLE photos ADD COLUMN hdr TEXT;
                    PRAGMA user_version = 7;
                    """)
        }
        guard version >= 8 else { return migrator }
        // v8: metadata beyond EXIF. rating, label, title, description and keywords (a JSON array;
        // photo_keywords holds them one a row, for search) from XMP, embedded or in a sidecar;
        // focal_length_35mm; sidecar (its name beside the photo), sidecar_size and
        // sidecar_mtime_ns, which a rescan compares as it compares the photo's own. A photo
        // without a date is 'undated' (captured_at and sort_instant_ms NULL: listed after the
        // dated ones), never dated by its mtime; date_source gains 'xmp' and 'gps-offset'.
        // photos is rebuilt (SQLite cannot alter a CHECK); rows dated by their mtime become undated.
        migrator.registerMigration("v8") { db in
            try db.execute(
                sql: """
                    DROP VIEW photo_pairs;
                    CREATE TABLE photos_v8 (
                        id INTEGER PRIMARY KEY,
                        path BLOB NOT NULL UNIQUE,
                        path_text TEXT NOT NULL,
                        album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
                        device INTEGER NOT NULL,
                        inode INTEGER NOT NULL,
                        size INTEGER NOT NULL,
                        mtime_ns INTEGER NOT NULL,
                        content_hash TEXT,
                        \(Self.statusColumn),
                        error TEXT,
                        warnings TEXT NOT NULL DEFAULT '[]',
                        format TEXT NOT NULL,
                        width INTEGER,
                        height INTEGER,
                        orientation INTEGER CHECK (orientation BETWEEN 1 AND 8),
                        display_width INTEGER,
                        display_height INTEGER,
                        bit_depth INTEGER,
                        coding TEXT,
                        captured_at TEXT,
                        utc_offset TEXT,
                        date_source TEXT CHECK (date_source IN ('exif-original', 'gps-offset', 'exif-digitized',
                            'xmp', 'png',
                            'filename', 'exif-modified', 'undated')),
                        sort_instant_ms INTEGER,
                        make TEXT,
                        model TEXT,
                        lens_model TEXT,
                        exposure_time REAL,
                        f_number REAL,
                        iso INTEGER,
                        focal_length REAL,
                        gps_latitude REAL,
                        gps_longitude REAL,
                        gps_altitude REAL,
                        thumbnail_key TEXT,
                        scan_id INTEGER REFERENCES scans(id) ON DELETE SET NULL,
                        error_code TEXT,
                        thumbhash BLOB,
                        render_settings TEXT,
                        missing_since_ms INTEGER,
                        hdr TEXT,
                        focal_length_35mm REAL,
                        rating INTEGER CHECK (rating BETWEEN -1 AND 5),
                        label TEXT,
                        title TEXT,
                        description TEXT,
                        keywords TEXT,
                        sidecar BLOB,
                        sidecar_size INTEGER,
                        sidecar_mtime_ns INTEGER,
                        CHECK (status NOT IN ('ok', 'warning') OR (width IS NOT NULL
                            AND (sort_instant_ms IS NOT NULL OR date_source = 'undated')))
                    );
                    INSERT INTO photos_v8 (
                        id, path, path_text, album_id, device, inode, size, mtime_ns, content_hash, status, error,
                        warnings, format, width, height, orientation, display_width, display_height, bit_depth,
                        coding, captured_at, utc_offset, date_source, sort_instant_ms, make, model, lens_model,
                        exposure_time, f_number, iso, focal_length, gps_latitude, gps_longitude, gps_altitude,
                        thumbnail_key, scan_id, error_code, thumbhash, render_settings, missing_since_ms, hdr)
                        SELECT id,
                            path,
                            path_text,
                            album_id,
                            device,
                            inode,
                            size,
                            mtime_ns,
                            content_hash,
                            status,
                            error,
                            warnings,
                            format,
                            width,
                            height,
                            orientation,
                            display_width,
                            display_height,
                            bit_depth,
                            coding,
                            CASE WHEN date_source = 'mtime' THEN NULL ELSE captured_at END,
                            CASE WHEN date_source = 'mtime' THEN NULL ELSE utc_offset END,
                            CASE WHEN date_source = 'mtime' THEN 'undated' ELSE date_source END,
                            CASE WHEN date_source = 'mtime' THEN NULL ELSE sort_instant_ms END,
                            make,
                            model,
                            lens_model,
                            exposure_time,
                            f_number,
                            iso,
                            focal_length,
                            gps_latitude,
                            gps_longitude,
                            gps_altitude,
                            thumbnail_key,
                            scan_id,
                            error_code,
                            thumbhash,
                            render_settings,
                            missing_since_ms,
                            hdr
                        FROM photos;
                    DROP TABLE photos;
                    ALTER TABLE photos_v8 RENAME TO photos;
                    CREATE INDEX photos_newest ON photos(sort_instant_ms DESC, path);
                    CREATE INDEX photos_album_newest ON photos(album_id, sort_instant_ms DESC, path);
                    CREATE INDEX photos_identity ON photos(device, inode);
                    CREATE INDEX photos_thumbnail_key ON photos(thumbnail_key);
                    CREATE INDEX photos_status ON photos(status) WHERE status IN ('error', 'warning');
                    CREATE INDEX photos_rescan ON photos(
                        album_id, path, device, inode, size, mtime_ns, status, error_code, render_settings, thumbhash,
                        content_hash, thumbnail_key, sidecar_size, sidecar_mtime_ns);
                    CREATE INDEX photos_scan ON photos(scan_id, path);
                    CREATE INDEX photos_missing ON photos(missing_since_ms) WHERE missing_since_ms IS NOT NULL;
                    CREATE INDEX photos_month ON photos(captured_at, status, missing_since_ms);
                    CREATE INDEX photos_rating ON photos(rating) WHERE rating IS NOT NULL;
                    CREATE VIEW photo_pairs AS
                        SELECT raw.id AS raw_id, other.id AS photo_id
                        FROM photos raw JOIN photos other ON other.album_id = raw.album_id AND other.id <> raw.id
                        WHERE raw.format = 'raw' AND other.format NOT IN ('raw', 'unsupported')
                          AND lower(substr(raw.path_text, 1, length(raw.path_text)
                                - length(replace(raw.path_text,
                                    rtrim(raw.path_text, replace(raw.path_text, '.', '')), ''))))
                            = lower(substr(other.path_text, 1, length(other.path_text)
                                - length(replace(other.path_text,
                                    rtrim(other.path_text, replace(other.path_text, '.', '')), ''))));
                    CREATE TABLE photo_keywords (
                        photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        keyword TEXT NOT NULL COLLATE NOCASE,
                        PRIMARY KEY (photo_id, keyword)
                    ) WITHOUT ROWID;
                    CREATE INDEX photo_keywords_keyword ON photo_keywords(keyword);
                    PRAGMA user_version = 8;
                    """)
        }
        guard version >= 9 else { return migrator }
        // v9: videos. kind ('photo' or 'video'); a video's duration_s, video_codec, rotation
        // (clockwise degrees of its display matrix, also its orientation), frame_rate and
        // poster_time_s (the frame its renditions show); content_identifier, Apple's Live Photo
        // identifier (a still's maker note, its video's Keys), and the live_photos view that
        // pairs them; motion_offset and motion_length, a motion photo's embedded MP4 (its
        // duration_s and video_codec are that video's). date_source gains 'quicktime' (Apple's
        // creationdate, with its offset) and 'container-utc' (mvhd/Matroska, an instant in UTC);
        // photos is rebuilt for that CHECK, as SQLite's ALTER TABLE cannot change one.
        migrator.registerMigration("v9") { db in
            try rebuildPhotos(db) { create in
                let old = "'filename', 'exif-modified', 'undated')"
                guard create.contains(old) else {
                    throw DatabaseError(message: "photos: date_source CHECK not as v8 wrote it")
                }
                return create.replacingOccurrences(
                    of: old, with: "'filename', 'exif-modified', 'undated', 'quicktime', 'container-utc')")
            }
            try db.execute(
                sql: """
                    ALTER TABLE photos ADD COLUMN kind TEXT NOT NULL DEFAULT 'photo' CHECK (kind IN ('photo', 'video'));
                    ALTER TABLE photos ADD COLUMN duration_s REAL;
                    ALTER TABLE photos ADD COLUMN video_codec TEXT;
                    ALTER TABLE photos ADD COLUMN rotation INTEGER CHECK (rotation IN (0, 90, 180, 270));
                    ALTER TABLE photos ADD COLUMN frame_rate REAL;
                    ALTER TABLE photos ADD COLUMN poster_time_s REAL;
                    ALTER TABLE photos ADD COLUMN content_identifier TEXT;
                    ALTER TABLE photos ADD COLUMN motion_offset INTEGER;
                    ALTER TABLE photos ADD COLUMN motion_length INTEGER;
                    CREATE INDEX photos_kind ON photos(kind) WHERE kind <> 'photo';
                    CREATE INDEX photos_content_identifier ON photos(content_identifier, album_id)
                        WHERE content_identifier IS NOT NULL;
                    CREATE VIEW live_photos AS
                        SELECT still.id AS still_id, video.id AS video_id
                        FROM photos video JOIN photos still
                            ON still.content_identifier = video.content_identifier AND still.album_id = video.album_id
                        WHERE video.kind = 'video' AND still.kind = 'photo'
                          AND \(PhotoSQL.readable("video")) AND \(PhotoSQL.readable("still"))
                          AND \(PhotoSQL.present("video")) AND \(PhotoSQL.present("still"))
                        UNION ALL
                        -- Without identifiers: a short video and a still of the same name in one folder.
                        SELECT still.id, video.id
                        FROM photos video JOIN photos still ON still.album_id = video.album_id AND still.id <> video.id
                        WHERE video.kind = 'video' AND still.kind = 'photo'
                          AND video.duration_s <= \(Self.livePhotoSeconds)
                          AND video.content_identifier IS NULL AND still.content_identifier IS NULL
                          AND \(PhotoSQL.readable("video")) AND \(PhotoSQL.readable("still"))
                          AND \(PhotoSQL.present("video")) AND \(PhotoSQL.present("still"))
                          AND lower(substr(video.path_text, 1, length(video.path_text) - length(replace(video.path_text,
                                rtrim(video.path_text, replace(video.path_text, '.', '')), ''))))
                            = lower(substr(still.path_text, 1, length(still.path_text) - length(replace(still.path_text,
                                rtrim(still.path_text, replace(still.path_text, '.', '')), ''))));
                    PRAGMA user_version = 9;
                    """)
        }
        guard version >= 10 else { return migrator }
        // v10: scans.reread, files a scan read again as they were (`--full`, retries), which
        // `changed` no longer counts; scans.unlisted, what the walk could not list (`errors`
        // counted it before).
        migrator.registerMigration("v10") { db in
            try db.execute(
                sql: """
                    ALTER TABLE scans ADD COLUMN reread INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE scans ADD COLUMN unlisted INTEGER NOT NULL DEFAULT 0;
                    PRAGMA user_version = 10;
                    """)
        }
        guard version >= 11 else { return migrator }
        // v11: cache_folders, each rendition folder as the last cache check found it whole, so
        // that the next one lists only the folders changed since.
        migrator.registerMigration("v11") { db in
            try db.execute(
                sql: """
                    CREATE TABLE cache_folders (
                        path TEXT PRIMARY KEY, inode INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, files INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    PRAGMA user_version = 11;
                    """)
        }
        guard version >= 12 else { return migrator }
        // v12: which albums and months changed since a given moment, kept by triggers so that no
        // write path can forget it: an album site rebuilds only those (`changes` in docs/INDEX.md).
        migrator.registerMigration("v12") { db in
            try db.execute(sql: "ALTER TABLE albums ADD COLUMN content_change INTEGER NOT NULL DEFAULT 0")
            try db.execute(
                sql: """
                    CREATE TABLE change_counter (value INTEGER NOT NULL);
                    INSERT INTO change_counter (value) VALUES (1);
                    UPDATE albums SET content_change = 1;
                    CREATE TABLE month_changes (
                        month TEXT PRIMARY KEY, content_change INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    INSERT INTO month_changes (month, content_change)
                        SELECT DISTINCT substr(coalesce(captured_at, ''), 1, 7), 1 FROM photos WHERE true
                        ON CONFLICT(month) DO NOTHING;
                    PRAGMA user_version = 12;
                    """)
            try db.execute(sql: Self.changeTriggers)
        }
        guard version >= 13 else { return migrator }
        // v13: photos_album_stem, each file by folder and name without extension (as the
        // live_photos and photo_pairs views compare them), so that pairing a file looks its
        // partner up instead of reading every file of its folder: quadratic in a folder's size
        // before (50 ms for the stills of one 200-photo folder; hours for a phone's 30,000).
        // web_videos, the MP4 made of each video browsers cannot play (or why it could not be);
        // writing one marks its album and month changed, and a file no row refers to any more
        // goes to cache_deletions, as a rendition's does.
        migrator.registerMigration("v13") { db in
            try db.execute(
                sql: """
                    CREATE INDEX photos_album_stem ON photos(album_id, lower(substr(path_text, 1, length(path_text)
                        - length(replace(path_text, rtrim(path_text, replace(path_text, '.', '')), '')))));
                    CREATE TABLE web_videos (
                        photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        source_key TEXT NOT NULL,
                        settings TEXT NOT NULL,
                        path TEXT,
                        width INTEGER,
                        height INTEGER,
                        bytes INTEGER,
                        has_audio INTEGER,
                        error TEXT,
                        made_ms INTEGER NOT NULL,
                        CHECK ((path IS NULL) <> (error IS NULL))
                    );
                    CREATE INDEX web_videos_path ON web_videos(path) WHERE path IS NOT NULL;
                    PRAGMA user_version = 13;
                    """)
            try db.execute(sql: Self.webVideoTriggers)
        }
        guard version >= 14 else { return migrator }
        // v14: photos_motion, the motion photos alone, so that a scan finds those whose MP4
        // browsers cannot play (Samsung's HEVC) without reading every row. phash, what a photo
        // shows (`PerceptualHash`), and an index on each of its four 16-bit bands, so that the
        // photos near one are found by a few lookups (docs/DUPLICATES.md); a photo without one
        // is decoded again by the next scan.
        migrator.registerMigration("v14") { db in
            let phashIndexes = (0..<4).map {
                "CREATE INDEX photos_phash_\($0) ON photos(\(Self.phashBand($0))) WHERE phash IS NOT NULL;"
            }.joined(separator: "\n")
            try db.execute(
                sql: """
                    CREATE INDEX photos_motion ON photos(id) WHERE motion_offset IS NOT NULL;
                    ALTER TABLE photos ADD COLUMN phash INTEGER;
                    \(phashIndexes)
                    PRAGMA user_version = 14;
                    """)
        }
        guard version >= 15 else { return migrator }
        // v15: exposure_bias, what an exposure bracket steps; burst_id, what a burst's frames share;
        // camera_serial, what pairs a RAW with its JPEG under another name. Stacks and copies as the
        // scans decide them (docs/DUPLICATES.md), so that a front end shows each stack's face and
        // hides copies with one query: a group's rows, each member's position in it (0: the
        // face, or the copy to keep). A member's row goes with its photo's; a change of either
        // marks the photo's album and month changed, as the page shows it otherwise.
        migrator.registerMigration("v15") { db in
            try db.execute(
                sql: """
                    ALTER TABLE photos ADD COLUMN exposure_bias REAL;
                    ALTER TABLE photos ADD COLUMN burst_id TEXT;
                    ALTER TABLE photos ADD COLUMN camera_serial TEXT;
                    CREATE TABLE stacks (
                        id INTEGER PRIMARY KEY,
                        kind TEXT NOT NULL CHECK (kind IN ('raw-pair', 'burst', 'bracket')),
                        why TEXT NOT NULL
                    );
                    CREATE TABLE stack_members (
                        photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        stack_id INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL
                    );
                    CREATE INDEX stack_members_stack ON stack_members(stack_id, position);
                    CREATE TABLE copy_groups (
                        id INTEGER PRIMARY KEY,
                        rule TEXT NOT NULL CHECK (rule IN ('same-bytes', 'same-picture')),
                        why TEXT NOT NULL
                    );
                    CREATE TABLE copy_members (
                        photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        group_id INTEGER NOT NULL REFERENCES copy_groups(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        distance INTEGER
                    );
                    CREATE INDEX copy_members_group ON copy_members(group_id, position);
                    CREATE TABLE group_pending (photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE);
                    CREATE TABLE sharpness (key TEXT PRIMARY KEY, value REAL NOT NULL) WITHOUT ROWID;
                    PRAGMA user_version = 15;
                    """)
            try db.execute(
                sql: Self.memberTriggers("stack_members", shownWhen: nil)
                    + Self.memberTriggers("copy_members", shownWhen: "position = 0") + Self.pendingTriggers(version: 15)
            )
        }
        guard version >= 16 else { return migrator }
        // v16: phash_detail, the 256-bit second look that parts different pictures whose phash
        // is near by chance; a photo without one is hashed again from a rendition by the next
        // scan, and its groups decided again.
        migrator.registerMigration("v16") { db in
            try db.execute(
                sql: """
                    ALTER TABLE photos ADD COLUMN phash_detail BLOB;
                    DROP TRIGGER photos_group_inserted;
                    DROP TRIGGER photos_group_updated;
                    \(Self.pendingTriggers(version: 16))
                    PRAGMA user_version = 16;
                    """)
        }
        guard version >= 18 else { return migrator }
        // v18 (17 is the cluster's PostgreSQL schema): analysis_queue, the photos each per-photo
        // analysis waits for (docs/INDEX.md, "Analyses"). The perceptual hashes are the first:
        // the photos without them wait for it, as the scans of v14 and v16 hashed them.
        migrator.registerMigration("v18") { db in
            try db.execute(
                sql: """
                    CREATE TABLE analysis_queue (
                        analysis TEXT NOT NULL,
                        photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        version INTEGER NOT NULL,
                        failure TEXT,
                        PRIMARY KEY (analysis, photo_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX analysis_queue_photo ON analysis_queue(photo_id);
                    INSERT INTO analysis_queue (analysis, photo_id, version)
                        SELECT 'picture-hashes', id, 1 FROM photos
                        WHERE thumbnail_key IS NOT NULL AND (phash IS NULL OR phash_detail IS NULL);
                    INSERT OR REPLACE INTO state (key, value) VALUES ('analysis:picture-hashes', '1');
                    PRAGMA user_version = 18;
                    """)
        }
        guard version >= 19 else { return migrator }
        // v19: places (docs/PLACES.md): the place named from each photo's position, and the
        // photos whose place is to be named again; every photo with a position waits at first,
        // named by the next scan from the positions the index already holds.
        migrator.registerMigration("v19") { db in
            try db.execute(
                sql: """
                    CREATE TABLE places (
                        id INTEGER PRIMARY KEY,
                        country_code TEXT NOT NULL,
                        country TEXT NOT NULL,
                        region TEXT,
                        locality TEXT NOT NULL,
                        search_keys TEXT NOT NULL
                    );
                    CREATE UNIQUE INDEX places_name ON places(country_code, ifnull(region, ''), locality);
                    CREATE TABLE photo_places (
                        photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        place_id INTEGER NOT NULL REFERENCES places(id),
                        near INTEGER NOT NULL CHECK (near IN (0, 1)),
                        distance_km REAL NOT NULL,
                        source TEXT NOT NULL CHECK (source IN ('gps'))
                    );
                    CREATE INDEX photo_places_place ON photo_places(place_id);
                    CREATE TABLE place_pending (photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE);
                    CREATE TRIGGER photos_place_inserted AFTER INSERT ON photos WHEN NEW.gps_latitude IS NOT NULL
                    BEGIN INSERT OR REPLACE INTO place_pending VALUES (NEW.id); END;
                    CREATE TRIGGER photos_place_updated AFTER UPDATE OF gps_latitude, gps_longitude ON photos
                    WHEN OLD.gps_latitude IS NOT NEW.gps_latitude OR OLD.gps_longitude IS NOT NEW.gps_longitude
                    BEGIN INSERT OR REPLACE INTO place_pending VALUES (NEW.id); END;
                    INSERT INTO place_pending SELECT id FROM photos WHERE gps_latitude IS NOT NULL;
                    PRAGMA user_version = 19;
                    """)
        }
        guard version >= 20 else { return migrator }
        // v20: places from words too (docs/PLACES.md): each photo's own location words, a place
        // without a town, a distance only where a position decided it, and what decided it. The
        // places are named again; the photos whose XMP or sidecar may hold words never recorded
        // (a sidecar, or a fact only XMP gives) are read again, once, by the next scan.
        migrator.registerMigration("v20") { db in
            try db.execute(
                sql: """
                    DROP TABLE photo_places;
                    DROP TABLE places;
                    CREATE TABLE places (
                        id INTEGER PRIMARY KEY,
                        country_code TEXT NOT NULL,
                        country TEXT NOT NULL,
                        region TEXT,
                        locality TEXT,
                        search_keys TEXT NOT NULL
                    );
                    CREATE UNIQUE INDEX places_name
                        ON places(country_code, country, ifnull(region, ''), ifnull(locality, ''));
                    CREATE TABLE photo_places (
                        photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        place_id INTEGER NOT NULL REFERENCES places(id),
                        near INTEGER NOT NULL CHECK (near IN (0, 1)),
                        distance_km REAL,
                        sublocation TEXT,
                        source TEXT NOT NULL CHECK (source IN ('gps', 'words', 'correction'))
                    );
                    CREATE INDEX photo_places_place ON photo_places(place_id);
                    CREATE TABLE photo_location_words (
                        photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        city TEXT,
                        region TEXT,
                        country TEXT,
                        country_code TEXT,
                        sublocation TEXT
                    );
                    CREATE TABLE place_unread (photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE);
                    INSERT INTO place_unread SELECT id FROM photos
                        WHERE status != 'unsupported' AND (sidecar IS NOT NULL OR rating IS NOT NULL
                            OR label IS NOT NULL OR title IS NOT NULL OR description IS NOT NULL
                            OR keywords IS NOT NULL OR date_source = 'xmp');
                    DROP TRIGGER photos_place_inserted;
                    DROP TRIGGER photos_place_updated;
                    CREATE TRIGGER photos_place_inserted AFTER INSERT ON photos
                    BEGIN INSERT OR REPLACE INTO place_pending VALUES (NEW.id); END;
                    CREATE TRIGGER photos_place_updated AFTER UPDATE OF gps_latitude, gps_longitude, path ON photos
                    WHEN OLD.gps_latitude IS NOT NEW.gps_latitude OR OLD.gps_longitude IS NOT NEW.gps_longitude
                        OR OLD.path IS NOT NEW.path
                    BEGIN INSERT OR REPLACE INTO place_pending VALUES (NEW.id); END;
                    DELETE FROM state WHERE key = 'place_data';
                    PRAGMA user_version = 20;
                    """)
            // (a photo's place is on its pages: naming it again marks its album and month changed)
            try db.execute(sql: Self.memberTriggers("photo_places", shownWhen: nil))
        }
        guard version >= 21 else { return migrator }
        migrator.registerMigration("v21", migrate: Self.facesMigration)
        guard version >= 22 else { return migrator }
        migrator.registerMigration("v22", migrate: Self.faceRegionsMigration)
        guard version >= 23 else { return migrator }
        migrator.registerMigration("v23", migrate: Self.peopleChangesMigration)
        return migrator
    }

    /// The status column as the migrations that make `photos` declare it.
    static let statusColumn = "status TEXT NOT NULL CHECK (status IN ('ok', 'warning', 'error', 'unsupported'))"

    /// Rebuilds `photos` with its CREATE statement changed by `change`, as SQLite documents
    /// for changes ALTER TABLE cannot make: a new table, the rows copied, the old one dropped,
    /// the new one renamed, and its indexes and the views recreated as they were.
    static func rebuildPhotos(_ db: Database, change: (String) throws -> String) throws {
        guard
            let create = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'photos'"),
            let open = create.firstIndex(of: "(")
        else { throw DatabaseError(message: "photos: no table to rebuild") }
        let indexes = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'photos' AND sql IS NOT NULL")
        let views = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'view'")
        // Dropping the table drops its triggers: they are made again on the new one.
        let triggers = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'photos' AND sql IS NOT NULL")
        for view in views { try db.execute(sql: "DROP VIEW \((view["name"] as String).quotedDatabaseIdentifier)") }
        try db.execute(sql: "CREATE TABLE photos_rebuilt " + (try change(String(create[open...]))))
        try db.execute(sql: "INSERT INTO photos_rebuilt SELECT * FROM photos")
        try db.execute(sql: "DROP TABLE photos")
        try db.execute(sql: "ALTER TABLE photos_rebuilt RENAME TO photos")
        for index in indexes { try db.execute(sql: index) }
        for view in views { try db.execute(sql: view["sql"] as String) }
        for trigger in triggers { try db.execute(sql: trigger) }
    }
}
