import GRDB
import TesseraFacts

/// What the site's map needs of one photo with a position (docs/PLACES.md).
public struct MapPoint: Sendable, Equatable {
    public var id: Int64
    public var albumID: Int64
    public var latitude: Double
    public var longitude: Double
    /// The cache path of its smallest square rendition, nil when it has none.
    public var square: String?
    /// Its place's town, else region, else country, when it has a place.
    public var placeName: String?

    public init(
        id: Int64, albumID: Int64, latitude: Double, longitude: Double, square: String? = nil, placeName: String? = nil
    ) {
        (self.id, self.albumID, self.latitude, self.longitude) = (id, albumID, latitude, longitude)
        (self.square, self.placeName) = (square, placeName)
    }
}

extension PhotoIndex {
    /// See `PhotoReading.forEachMapPoint(_:_:)`.
    public func forEachMapPoint(_ query: PhotoQuery, _ visit: (MapPoint) -> Void) throws(IndexError) {
        try read { db in try Self.forEachMapPoint(query, visit, db) }
    }

    static func forEachMapPoint(_ query: PhotoQuery, _ visit: (MapPoint) -> Void, _ db: Database) throws {
        var positioned = query
        positioned.positionedOnly = true
        let (sql, arguments) = selection(
            """
            p.id, p.album_id, p.gps_latitude, p.gps_longitude,
            (SELECT r.path FROM renditions r WHERE r.photo_id = p.id AND r.kind = 'square' ORDER BY r.size LIMIT 1),
            (SELECT coalesce(l.locality, l.region, l.country) FROM photo_places q JOIN places l ON l.id = q.place_id
                WHERE q.photo_id = p.id)
            """, positioned)
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            let latitude: Double = row[2], longitude: Double = row[3]
            // (a position the readers refused is never stored; one written by another tool might be)
            guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
                latitude != 0 || longitude != 0
            else { continue }
            visit(
                MapPoint(
                    id: row[0], albumID: row[1], latitude: latitude, longitude: longitude, square: row[4],
                    placeName: row[5]))
        }
    }

    /// The places of `ids`, by photo.
    static func places(of ids: [Int64], _ db: Database) throws -> [Int64: PlaceName] {
        var places: [Int64: PlaceName] = [:]
        for chunk in ids.chunks(of: 500) {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT q.photo_id, l.country, l.country_code, l.region, l.locality, q.near, q.distance_km,
                        q.sublocation, q.source
                    FROM photo_places q JOIN places l ON l.id = q.place_id
                    WHERE q.photo_id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """, arguments: StatementArguments(Array(chunk)))
            for row in rows {
                places[row[0]] = PlaceName(
                    country: row[1], countryCode: row[2], region: row[3], locality: row[4], near: row[5],
                    distance: row[6], sublocation: row[7], source: PlaceName.Source(rawValue: row[8]) ?? .gps)
            }
        }
        return places
    }
}

/// How many photos one place holds (a row of `places`), for the site's Places pages.
public struct PlaceCount: Sendable, Equatable {
    public var countryCode: String
    public var country: String
    public var region: String?
    public var locality: String?
    public var count: Int

    public init(countryCode: String, country: String, region: String?, locality: String?, count: Int) {
        (self.countryCode, self.country, self.region, self.locality, self.count) = (
            countryCode, country, region, locality, count
        )
    }
}

/// Photos of one place or of a place and those within it: a country, its region, or a town.
public struct PlaceFilter: Sendable, Equatable {
    public var countryCode: String
    public var country: String
    /// Nil: any region; "" the places without one.
    public var region: String?
    /// Nil: any locality; "" the places without one.
    public var locality: String?

    public init(countryCode: String, country: String, region: String? = nil, locality: String? = nil) {
        (self.countryCode, self.country, self.region, self.locality) = (countryCode, country, region, locality)
    }
}

extension PhotoIndex {
    /// See `PhotoReading.placeCounts(_:)`.
    public func placeCounts(_ query: PhotoQuery) throws(IndexError) -> [PlaceCount] {
        try read { db in try Self.placeCounts(query, db) }
    }

    static func placeCounts(_ query: PhotoQuery, _ db: Database) throws -> [PlaceCount] {
        let (shown, arguments) = selection("p.id", query)
        return try Row.fetchAll(
            db,
            sql: """
                SELECT l.country_code, l.country, l.region, l.locality, COUNT(*) FROM (\(shown)) s
                JOIN photo_places q ON q.photo_id = s.id JOIN places l ON l.id = q.place_id
                GROUP BY l.id ORDER BY l.country, l.region, l.locality
                """, arguments: arguments
        ).map { PlaceCount(countryCode: $0[0], country: $0[1], region: $0[2], locality: $0[3], count: $0[4]) }
    }
}
