import Foundation
import GRDB

/// A person the faces were grouped into, as `tessera people list` shows them.
public struct PersonSummary: Sendable, Equatable, Codable {
    public var id: Int64
    /// A user's name for them, or the one their photos' XMP gave; nil for a group not yet named.
    public var name: String?
    public var hidden: Bool
    /// Their faces that are not hidden.
    public var faces: Int
    /// The paths of their photos, each once, newest first.
    public var photos: [String]
}

/// One face as the index keeps it, with its photo and person.
public struct FaceSummary: Sendable, Equatable, Codable {
    public var id: Int64
    public var photoID: Int64
    public var path: String
    /// Fractions of the upright photo's width and height, from its top left.
    public var x, y, width, height: Double
    public var confidence: Double
    public var personID: Int64?
    public var personName: String?
    /// Who named the person: `user` or `xmp` (a region in one of their photos).
    public var nameSource: String?
    /// Who gave it its person: `auto` (the grouping), `user`, or `xmp` (a name in the photo).
    public var assignedBy: String?
    public var hidden: Bool
    /// Its person is hidden (with all their faces).
    public var personHidden = false
}

extension PhotoIndex {
    /// Every person with a face shown, or hidden too with `hidden`, most faces first.
    public func people(hidden: Bool = false) throws(IndexError) -> [PersonSummary] {
        try read { db in
            var people: [Int64: PersonSummary] = [:]
            var order: [Int64] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT e.id, e.name, e.hidden, p.path_text FROM people e
                    JOIN faces f ON f.person_id = e.id AND f.hidden = 0
                    JOIN photos p ON p.id = f.photo_id AND \(PhotoSQL.shown("p"))
                    WHERE ? OR e.hidden = 0
                    ORDER BY e.id, p.captured_at DESC, p.path
                    """,
                arguments: [hidden])
            while let row = try rows.next() {
                let id: Int64 = row[0]
                if people[id] == nil {
                    people[id] = PersonSummary(id: id, name: row[1], hidden: row[2], faces: 0, photos: [])
                    order.append(id)
                }
                people[id]?.faces += 1
                let path: String = row[3]
                if people[id]?.photos.last != path, people[id]?.photos.contains(path) == false {
                    people[id]?.photos.append(path)
                }
            }
            return order.compactMap { people[$0] }.sorted { ($0.faces, -$0.id) > ($1.faces, -$1.id) }
        }
    }

    /// The faces of a photo, or of a person (`person`), in the order they were found.
    public func faces(photo: Int64? = nil, person: Int64? = nil) throws(IndexError) -> [FaceSummary] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT f.id, f.photo_id, p.path_text, f.x, f.y, f.width, f.height, f.confidence, f.person_id,
                        e.name, f.assigned_by, f.hidden, e.name_source, coalesce(e.hidden, 0)
                    FROM faces f JOIN photos p ON p.id = f.photo_id LEFT JOIN people e ON e.id = f.person_id
                    WHERE (?1 IS NULL OR f.photo_id = ?1) AND (?2 IS NULL OR f.person_id = ?2)
                    ORDER BY f.id
                    """,
                arguments: [photo, person]
            ).map {
                FaceSummary(
                    id: $0[0], photoID: $0[1], path: $0[2], x: $0[3], y: $0[4], width: $0[5], height: $0[6],
                    confidence: $0[7], personID: $0[8], personName: $0[9], nameSource: $0[12], assignedBy: $0[10],
                    hidden: $0[11], personHidden: $0[13])
            }
        }
    }
}

/// A person as the site shows them (docs/PEOPLE.md): how many photos show them, and the face to
/// show them by.
public struct PersonCount: Sendable, Equatable {
    public var id: Int64
    /// Nil for a group not yet named.
    public var name: String?
    /// The photos of the query with a face of theirs shown.
    public var count: Int
    /// Their largest, clearest face among those photos: its photo, and its box in fractions of
    /// the upright photo from its top left.
    public var photoID: Int64
    public var x, y, width, height: Double
}

extension PhotoIndex {
    /// See `PhotoReading.personCounts(_:unnamed:)`.
    public func personCounts(_ query: PhotoQuery, unnamed: Bool) throws(IndexError) -> [PersonCount] {
        try read { db in try Self.personCounts(query, unnamed: unnamed, db) }
    }

    static func personCounts(_ query: PhotoQuery, unnamed: Bool, _ db: Database) throws -> [PersonCount] {
        let (shown, arguments) = selection("p.id", query)
        // (SQLite takes the bare columns from the row that gave MAX: the face it names.)
        return try Row.fetchAll(
            db,
            sql: """
                SELECT e.id, e.name, COUNT(DISTINCT f.photo_id), MAX(f.width * f.height * f.confidence),
                    f.photo_id, f.x, f.y, f.width, f.height
                FROM (\(shown)) s JOIN faces f ON f.photo_id = s.id AND f.hidden = 0
                JOIN people e ON e.id = f.person_id AND e.hidden = 0
                WHERE e.name IS NOT NULL OR \(unnamed ? "1" : "0")
                GROUP BY e.id ORDER BY e.name, e.id
                """, arguments: arguments
        ).map {
            PersonCount(
                id: $0[0], name: $0[1], count: $0[2], photoID: $0[4], x: $0[5], y: $0[6], width: $0[7], height: $0[8])
        }
    }

    /// The names of the people shown in each of `ids` (named, not hidden), left to right, by photo.
    static func namedPeople(of ids: [Int64], _ db: Database) throws -> [Int64: [String]] {
        var names: [Int64: [String]] = [:]
        for chunk in ids.chunks(of: 500) {
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT f.photo_id, e.name FROM faces f JOIN people e ON e.id = f.person_id
                    WHERE f.photo_id IN (\(databaseQuestionMarks(count: chunk.count)))
                        AND f.hidden = 0 AND e.hidden = 0 AND e.name IS NOT NULL
                    ORDER BY f.photo_id, f.x
                    """, arguments: StatementArguments(Array(chunk)))
            while let row = try rows.next() {
                let (photo, name): (Int64, String) = (row[0], row[1])
                if names[photo]?.contains(name) != true { names[photo, default: []].append(name) }
            }
        }
        return names
    }
}
