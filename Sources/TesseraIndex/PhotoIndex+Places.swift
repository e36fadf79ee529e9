import GRDB
public import TesseraFacts

/// What one naming of places did.
public struct PlaceRefresh: Sendable, Equatable {
    /// Photos whose place was named again (with a position, words, or neither).
    public var photos = 0
    /// Of them, those given a place.
    public var named = 0
    /// Whether every photo with a position was named again: the place data changed.
    public var whole = false
}

extension PhotoIndex {
    /// Names the places of the photos waiting for it, from the positions and words the index holds.
    ///
    /// Those waiting are in `place_pending` (new, moved, or a position or words new, changed or
    /// gone); when `data` (what identifies the place data and the rules) is not what the places
    /// were named by, every photo. No photo is read. Records them in `places` and `photo_places`
    /// (docs/PLACES.md).
    ///
    /// `name` gives a photo's place, or nil (nothing names one, at sea, out of range).
    public func refreshPlaces(
        data: String, name: (PlaceEvidence) -> PlaceName?
    ) throws(IndexError) -> PlaceRefresh {
        try write { db in
            var refresh = PlaceRefresh()
            if try String.fetchOne(db, sql: "SELECT value FROM state WHERE key = 'place_data'") != data {
                try db.execute(sql: "INSERT OR IGNORE INTO place_pending SELECT id FROM photos")
                try db.execute(
                    sql: "INSERT OR REPLACE INTO state (key, value) VALUES ('place_data', ?)", arguments: [data])
                refresh.whole = true
            }
            // The places the waiting photos are in now: those left without a photo go at the end.
            let left = try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT place_id FROM photo_places
                    WHERE photo_id IN (SELECT photo_id FROM place_pending)
                    """)
            var known: [String: Int64] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT q.photo_id, p.gps_latitude, p.gps_longitude, p.path_text,
                        w.city, w.region, w.country, w.country_code, w.sublocation
                    FROM place_pending q JOIN photos p ON p.id = q.photo_id
                    LEFT JOIN photo_location_words w ON w.photo_id = q.photo_id
                    """)
            while let row = try rows.next() {
                let photo: Int64 = row[0]
                refresh.photos += 1
                let position = (row[1] as Double?).flatMap { latitude in
                    (row[2] as Double?).map { GPSPosition(latitude: latitude, longitude: $0) }
                }
                let words = LocationWords(
                    city: row[4], region: row[5], country: row[6], countryCode: row[7], sublocation: row[8])
                let evidence = PlaceEvidence(position: position, words: words.nonEmpty, path: row[3] ?? "")
                guard let place = name(evidence) else {
                    try db.cachedStatement(sql: "DELETE FROM photo_places WHERE photo_id = ?").execute(
                        arguments: [photo])
                    continue
                }
                // (keyed by name and by what it is found by: a place named from words has no other
                // names, from a position it has, and its row gains them)
                let key = [
                    place.countryCode, place.country, place.region ?? "", place.locality ?? "", place.searchKeys,
                ]
                .joined(separator: "\u{1F}")
                let id = try known[key] ?? Self.placeID(db, place)
                known[key] = id
                let row: [DatabaseValue] = [
                    id.databaseValue, place.near.databaseValue, place.distance.databaseValue,
                    place.sublocation.databaseValue, place.source.rawValue.databaseValue,
                ]
                // (written only when it changed: a write marks the photo's pages changed)
                let old = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT place_id, near, distance_km, sublocation, source FROM photo_places
                            WHERE photo_id = ?
                            """), arguments: [photo])
                if old.map({ Array($0.databaseValues) }) != row {
                    try db.cachedStatement(sql: "DELETE FROM photo_places WHERE photo_id = ?").execute(
                        arguments: [photo])
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO photo_places (photo_id, place_id, near, distance_km, sublocation, source)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """
                    ).execute(arguments: StatementArguments([photo.databaseValue] + row))
                }
                refresh.named += 1
            }
            try db.execute(sql: "DELETE FROM place_pending")
            // (each by its index: a scan that names one photo costs no pass over a million; the
            // places of photos deleted since go when all are named again)
            for place in left {
                try db.cachedStatement(
                    sql: """
                        DELETE FROM places WHERE id = ?1
                            AND NOT EXISTS (SELECT 1 FROM photo_places WHERE place_id = ?1)
                        """
                ).execute(arguments: [place])
            }
            if refresh.whole {
                try db.execute(sql: "DELETE FROM places WHERE id NOT IN (SELECT place_id FROM photo_places)")
            }
            return refresh
        }
    }

    /// The row of `place`, added when new; its search keys gain the place's it lacks (a place
    /// named from words alone has no alternate names; from its position, it has).
    private static func placeID(_ db: Database, _ place: PlaceName) throws -> Int64 {
        let keys = place.searchKeys
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO places (country_code, country, region, locality, search_keys)
                VALUES (?, ?, ?, ?, ?)
                """
        ).execute(arguments: [place.countryCode, place.country, place.region, place.locality, keys])
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT id, search_keys FROM places WHERE country_code = ? AND country = ?
                            AND ifnull(region, '') = ? AND ifnull(locality, '') = ?
                        """),
                arguments: [place.countryCode, place.country, place.region ?? "", place.locality ?? ""])
        else { return db.lastInsertedRowID }
        let (id, old): (Int64, String) = (row[0], row[1])
        let merged = PlaceName.mergedKeys(old, keys)
        if merged != old {
            try db.cachedStatement(sql: "UPDATE places SET search_keys = ? WHERE id = ?").execute(arguments: [
                merged, id,
            ])
        }
        return id
    }

    /// How many photos wait for their place to be named.
    public func pendingPlaces() throws(IndexError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place_pending") ?? 0 }
    }
}
