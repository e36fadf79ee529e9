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
}
