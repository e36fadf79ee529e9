import GRDB

extension PhotoIndex {
    /// v21: faces and people (docs/PEOPLE.md): each photo's faces with their descriptors, the
    /// index over the descriptors, the people they are grouped into, and what a user said of them.
    static func facesMigration(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE people (
                    id INTEGER PRIMARY KEY,
                    name TEXT COLLATE NOCASE,
                    name_source TEXT CHECK (name_source IN ('user', 'xmp')),
                    hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1))
                );
                CREATE INDEX people_name ON people(name) WHERE name IS NOT NULL;
                CREATE TABLE faces (
                    id INTEGER PRIMARY KEY,
                    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                    x REAL NOT NULL,
                    y REAL NOT NULL,
                    width REAL NOT NULL,
                    height REAL NOT NULL,
                    confidence REAL NOT NULL,
                    descriptor BLOB NOT NULL,
                    person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
                    assigned_by TEXT CHECK (assigned_by IN ('auto', 'user', 'xmp')),
                    hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1))
                );
                CREATE INDEX faces_photo ON faces(photo_id);
                CREATE INDEX faces_person ON faces(person_id);
                CREATE INDEX faces_ungrouped ON faces(id) WHERE person_id IS NULL AND hidden = 0;
                CREATE TABLE face_buckets (
                    bucket INTEGER NOT NULL,
                    face_id INTEGER NOT NULL REFERENCES faces(id) ON DELETE CASCADE,
                    PRIMARY KEY (bucket, face_id)
                ) WITHOUT ROWID;
                CREATE INDEX face_buckets_face ON face_buckets(face_id);
                CREATE TABLE face_rejections (
                    face_id INTEGER NOT NULL REFERENCES faces(id) ON DELETE CASCADE,
                    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
                    PRIMARY KEY (face_id, person_id)
                ) WITHOUT ROWID;
                CREATE INDEX face_rejections_person ON face_rejections(person_id);
                PRAGMA user_version = 21;
                """)
    }

    /// v22: the faces a photo's XMP names (docs/PEOPLE.md), which name the faces found there;
    /// the photos with XMP are read again, once, by the next scan, for them.
    static func faceRegionsMigration(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE photo_face_regions (
                    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    x REAL NOT NULL,
                    y REAL NOT NULL,
                    width REAL NOT NULL,
                    height REAL NOT NULL
                );
                CREATE INDEX photo_face_regions_photo ON photo_face_regions(photo_id);
                INSERT OR IGNORE INTO place_unread SELECT id FROM photos
                    WHERE status != 'unsupported' AND (sidecar IS NOT NULL OR rating IS NOT NULL
                        OR label IS NOT NULL OR title IS NOT NULL OR description IS NOT NULL
                        OR keywords IS NOT NULL OR date_source = 'xmp');
                PRAGMA user_version = 22;
                """)
    }

    /// v23: a change of whom a photo shows marks what the site shows of it.
    ///
    /// A face's person or visibility, or a person's name or visibility, bumps the change counter (the People pages'
    /// key); where a named person is concerned, the photos' albums and months are marked changed
    /// too (their viewer names the people).
    static func peopleChangesMigration(_ db: Database) throws {
        let now = "(SELECT value FROM change_counter)"
        let bump = "UPDATE change_counter SET value = value + 1;"
        func named(_ person: String) -> String {
            "EXISTS (SELECT 1 FROM people WHERE id = \(person) AND name IS NOT NULL)"
        }
        /// The albums and months of `photos` (a SELECT of photo ids) marked changed.
        func mark(_ photos: String) -> String {
            """
            UPDATE albums SET content_change = \(now) WHERE id IN (SELECT album_id FROM photos WHERE id IN (\(photos)));
            INSERT INTO month_changes (month, content_change)
                SELECT DISTINCT substr(coalesce(captured_at, ''), 1, 7), \(now) FROM photos WHERE id IN (\(photos))
                ON CONFLICT(month) DO UPDATE SET content_change = excluded.content_change;
            """
        }
        let whom = "NEW.person_id IS NOT OLD.person_id OR NEW.hidden IS NOT OLD.hidden"
        try db.execute(
            sql: """
                CREATE TRIGGER faces_shown_inserted AFTER INSERT ON faces BEGIN \(bump)
                    \(mark("SELECT NEW.photo_id WHERE \(named("NEW.person_id"))")) END;
                CREATE TRIGGER faces_shown_updated AFTER UPDATE OF person_id, hidden ON faces WHEN \(whom) BEGIN \(bump)
                    \(mark("SELECT NEW.photo_id WHERE \(named("NEW.person_id")) OR \(named("OLD.person_id"))")) END;
                CREATE TRIGGER faces_shown_deleted AFTER DELETE ON faces BEGIN \(bump)
                    \(mark("SELECT OLD.photo_id WHERE \(named("OLD.person_id"))")) END;
                CREATE TRIGGER people_shown_updated AFTER UPDATE OF name, hidden ON people
                    WHEN NEW.name IS NOT OLD.name OR NEW.hidden IS NOT OLD.hidden BEGIN \(bump)
                    \(mark("SELECT photo_id FROM faces WHERE person_id = NEW.id")) END;
                PRAGMA user_version = 23;
                """)
    }
}
