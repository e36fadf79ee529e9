import Foundation
import GRDB
import TesseraFacts

/// Faces and the people they are grouped into (docs/PEOPLE.md): what the faces analysis wrote,
/// and the grouping that gives each new face a person.
extension PhotoIndex {
    /// The distance under which a face joins a person one of whose faces it is near: stricter
    /// than the model's 0.6, since a face joins through any one neighbour (measured on the
    /// labelled faces: 97 % of the pairs of one person are within it, no pair of two people).
    static let joiningDistance: Float = 0.5

    /// Replaces the faces of photo `id` with `found`, keeping what was decided of each face found
    /// again (the same box, as much as half of their union): its person, who decided it, whether
    /// it is hidden, and the people it is not.
    static func replaceFaces(of id: Int64, with found: [FoundFace], _ db: Database) throws {
        struct Old {
            var id: Int64, box: (Double, Double, Double, Double), person: Int64?, by: String?, hidden: Bool
        }
        let old = try Row.fetchAll(
            db, sql: "SELECT id, x, y, width, height, person_id, assigned_by, hidden FROM faces WHERE photo_id = ?",
            arguments: [id]
        ).map { Old(id: $0[0], box: ($0[1], $0[2], $0[3], $0[4]), person: $0[5], by: $0[6], hidden: $0[7]) }
        var taken = Set<Int64>()
        let bits = try bucketBits(db) ?? FaceBuckets.fewestBits
        for face in found where face.descriptor.count == FaceBuckets.dimensions {
            let box = (face.x, face.y, face.width, face.height)
            let match = old.filter { !taken.contains($0.id) }.max { overlap($0.box, box) < overlap($1.box, box) }
                .flatMap { overlap($0.box, box) >= 0.5 ? $0 : nil }
            if let match { taken.insert(match.id) }
            try db.cachedStatement(
                sql: """
                    INSERT INTO faces (
                        photo_id, x, y, width, height, confidence, descriptor, person_id, assigned_by, hidden)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                id, face.x, face.y, face.width, face.height, face.confidence, FaceBuckets.blob(face.descriptor),
                match?.person, match?.by, match?.hidden ?? false,
            ])
            let faceID = db.lastInsertedRowID
            for bucket in FaceBuckets.buckets(of: face.descriptor, bits: bits) {
                try db.cachedStatement(sql: "INSERT INTO face_buckets (bucket, face_id) VALUES (?, ?)")
                    .execute(arguments: [bucket, faceID])
            }
            if let match {
                try db.execute(
                    sql: "INSERT INTO face_rejections SELECT ?, person_id FROM face_rejections WHERE face_id = ?",
                    arguments: [faceID, match.id])
            }
        }
        guard !old.isEmpty else { return }
        try db.execute(sql: "DELETE FROM faces WHERE id IN (\(old.map { String($0.id) }.joined(separator: ",")))")
        try forgetEmptyPeople(Set(old.compactMap(\.person)), db)
    }

    /// The area two boxes share over the area of their union.
    private static func overlap(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Double
    {
        let width = max(0, min(a.0 + a.2, b.0 + b.2) - max(a.0, b.0))
        let height = max(0, min(a.1 + a.3, b.1 + b.3) - max(a.1, b.1))
        let shared = width * height
        let union = a.2 * a.3 + b.2 * b.3 - shared
        return union > 0 ? shared / union : 0
    }

    /// Those of `people` left with no face, none of them named by a user, go (only the people a
    /// change touched are looked at: writing a photo's faces costs the same at any library size).
    static func forgetEmptyPeople(_ people: Set<Int64>, _ db: Database) throws {
        for person in people {
            try db.cachedStatement(
                sql: """
                    DELETE FROM people WHERE id = ? AND name_source IS NOT 'user'
                        AND NOT EXISTS (SELECT 1 FROM faces f WHERE f.person_id = people.id)
                    """
            ).execute(arguments: [person])
        }
    }

    /// Gives each face that has no person one (docs/PEOPLE.md, "Grouping").
    ///
    /// The person most of its near faces have (within `joiningDistance`, found through `face_buckets`), never one
    /// already in its photo or one a user said it is not; else a person of its own. Faces are
    /// taken in the order they were found, a batch a transaction; what a user decided is never
    /// changed. Returns how many faces were given a person.
    public func groupFaces(batch: Int = 256) throws(IndexError) -> Int {
        var grouped = 0
        // (the faces counted once: a count at every batch would read the whole table each time)
        let faces = try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM faces") ?? 0 }
        while true {
            let done = try write { db in try Self.groupFaces(limit: batch, faces: faces, db) }
            grouped += done
            if done == 0 { return grouped }
        }
    }

    /// The bits `face_buckets` was made with; nil when it is to be made again.
    static func bucketBits(_ db: Database) throws -> Int? {
        try String.fetchOne(db, sql: "SELECT value FROM state WHERE key = ?", arguments: [FaceBuckets.stateKey])
            .flatMap(Int.init).flatMap { (FaceBuckets.fewestBits...FaceBuckets.mostBits).contains($0) ? $0 : nil }
    }

    /// Makes the index over the descriptors again when the faces have outgrown it, or it was made
    /// another way; returns how many faces it was made for (0: it was right).
    ///
    /// Its bits are `FaceBuckets.bits(for:)`. A part at a time, each a transaction: the state that
    /// names its bits is written last, so a kill midway leaves it to be made again whole.
    public func fitFaceBuckets() throws(IndexError) -> Int {
        let (faces, bits) = try write { db -> (Int, Int?) in
            let faces = try Int.fetchOne(db, sql: "SELECT count(*) FROM faces") ?? 0
            let made = try Self.bucketBits(db)
            let bits = max(FaceBuckets.bits(for: faces), made ?? 0)
            guard made != bits else { return (faces, nil) }
            try db.execute(sql: "DELETE FROM state WHERE key = ?", arguments: [FaceBuckets.stateKey])
            try db.execute(sql: "DELETE FROM face_buckets")
            return (faces, bits)
        }
        guard let bits else { return 0 }
        var after: Int64 = 0
        while true {
            let last = try write { db -> Int64? in
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT id, descriptor FROM faces WHERE id > ? ORDER BY id LIMIT 20000",
                    arguments: [after])
                let insert = try db.cachedStatement(sql: "INSERT INTO face_buckets (bucket, face_id) VALUES (?, ?)")
                var last: Int64?
                while let row = try rows.next() {
                    let id: Int64 = row[0]
                    last = id
                    guard let descriptor = FaceBuckets.descriptor(row[1]) else { continue }
                    for bucket in FaceBuckets.buckets(of: descriptor, bits: bits) {
                        try insert.execute(arguments: [bucket, id])
                    }
                }
                return last
            }
            guard let last else { break }
            after = last
        }
        try setState(FaceBuckets.stateKey, String(bits))
        // (a rewrite of the whole index leaves a write-ahead log as large: folded back at once)
        checkpoint()
        return faces
    }

    /// Groups up to `limit` faces without a person, in an index of about `faces` faces.
    static func groupFaces(limit: Int, faces count: Int, _ db: Database) throws -> Int {
        // The faces a photo's XMP names first: the faces near them then join their named people.
        var faces = try Row.fetchAll(
            db,
            sql: """
                SELECT f.id, f.photo_id, f.descriptor FROM photo_face_regions r JOIN faces f ON f.photo_id = r.photo_id
                WHERE f.person_id IS NULL AND f.hidden = 0 GROUP BY f.id ORDER BY f.id LIMIT ?
                """,
            arguments: [limit])
        if faces.isEmpty {
            faces = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, photo_id, descriptor FROM faces WHERE person_id IS NULL AND hidden = 0
                    ORDER BY id LIMIT ?
                    """,
                arguments: [limit])
        }
        let bits = try bucketBits(db) ?? FaceBuckets.fewestBits
        let flips = FaceBuckets.flips(faces: count, bits: bits)
        for face in faces {
            let id: Int64 = face[0], photo: Int64 = face[1]
            if let named = try Self.namedPerson(face: id, photo: photo, db) {
                try db.execute(
                    sql: "UPDATE faces SET person_id = ?, assigned_by = 'xmp' WHERE id = ?", arguments: [named, id])
                continue
            }
            let person =
                try Self.nearestPerson(face: id, photo: photo, descriptor: face[2], bits: bits, flips: flips, db)
                ?? {
                    try db.execute(sql: "INSERT INTO people DEFAULT VALUES")
                    return db.lastInsertedRowID
                }()
            try db.execute(
                sql: "UPDATE faces SET person_id = ?, assigned_by = coalesce(assigned_by, 'auto') WHERE id = ?",
                arguments: [person, id])
        }
        return faces.count
    }

    /// The person a region of the photo's XMP names at the face (the region that holds the
    /// face's centre and shares the most of it): the person of that name a user named first,
    /// else one a photo named, else a new one of that name; nil when no region is there, the
    /// person is already in the photo, or a user said the face is not them.
    private static func namedPerson(face id: Int64, photo: Int64, _ db: Database) throws -> Int64? {
        guard
            let name = try String.fetchOne(
                db,
                sql: """
                    SELECT r.name FROM photo_face_regions r JOIN faces f ON f.id = ?
                    WHERE r.photo_id = ? AND f.x + f.width / 2 BETWEEN r.x AND r.x + r.width
                        AND f.y + f.height / 2 BETWEEN r.y AND r.y + r.height
                    ORDER BY (min(f.x + f.width, r.x + r.width) - max(f.x, r.x))
                        * (min(f.y + f.height, r.y + r.height) - max(f.y, r.y)) DESC
                    LIMIT 1
                    """,
                arguments: [id, photo])
        else { return nil }
        let known = try Int64.fetchOne(
            db, sql: "SELECT id FROM people WHERE name = ? ORDER BY name_source = 'user' DESC, id LIMIT 1",
            arguments: [name])
        guard let known else {
            try db.execute(sql: "INSERT INTO people (name, name_source) VALUES (?, 'xmp')", arguments: [name])
            return db.lastInsertedRowID
        }
        let taken = try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM faces WHERE photo_id = ?1 AND person_id = ?2)
                    OR EXISTS (SELECT 1 FROM face_rejections WHERE face_id = ?3 AND person_id = ?2)
                """,
            arguments: [photo, known, id])
        return taken == true ? nil : known
    }

    /// The person of the faces near `descriptor`, if any may have it.
    private static func nearestPerson(
        face id: Int64, photo: Int64, descriptor blob: Data, bits: Int, flips: Int, _ db: Database
    ) throws
        -> Int64?
    {
        guard let descriptor = FaceBuckets.descriptor(blob) else { return nil }
        let buckets = FaceBuckets.probes(of: descriptor, bits: bits, flips: flips)
        let excluded = Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT person_id FROM faces WHERE photo_id = ? AND person_id IS NOT NULL
                    UNION SELECT person_id FROM face_rejections WHERE face_id = ?
                    """,
                arguments: [photo, id]))
        let near =
            "SELECT face_id FROM face_buckets WHERE bucket IN (\(buckets.map(String.init).joined(separator: ",")))"
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT f.person_id, f.descriptor FROM faces f
                WHERE f.id IN (\(near)) AND f.person_id IS NOT NULL AND f.id != ?
                """,
            arguments: [id])
        var votes: [Int64: (count: Int, nearest: Float)] = [:]
        while let row = try rows.next() {
            let person: Int64 = row[0]
            guard !excluded.contains(person), let other = FaceBuckets.descriptor(row[1]) else { continue }
            let distance = FaceBuckets.distance(descriptor, other)
            guard distance < joiningDistance else { continue }
            let vote = votes[person] ?? (0, .infinity)
            votes[person] = (vote.count + 1, min(vote.nearest, distance))
        }
        let ranked = votes.sorted { a, b in
            (a.value.count, -a.value.nearest, -a.key) > (b.value.count, -b.value.nearest, -b.key)
        }.map(\.key)
        guard let best = ranked.first else { return nil }
        // The face bridges groups the grouping made apart (a person's first faces found before the
        // faces between them): they are one person, unless a user decided otherwise.
        for other in ranked.dropFirst() where try mayJoin(other, into: best, db) {
            try db.execute(sql: "UPDATE faces SET person_id = ? WHERE person_id = ?", arguments: [best, other])
            try db.execute(
                sql: "UPDATE OR IGNORE face_rejections SET person_id = ? WHERE person_id = ?", arguments: [best, other])
            try db.execute(sql: "DELETE FROM people WHERE id = ?", arguments: [other])
        }
        return best
    }

    /// Whether the grouping may make person `other` one with `person`: `other` only its own doing
    /// (no face a user or a photo's name placed, no name, not hidden), `person` not hidden (it
    /// may have a name: the group joins the named person), never in one photo, and no face of
    /// either said not to be the other.
    private static func mayJoin(_ other: Int64, into person: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT NOT EXISTS (SELECT 1 FROM people WHERE id = ?2 AND (name IS NOT NULL OR hidden = 1))
                    AND NOT EXISTS (SELECT 1 FROM people WHERE id = ?1 AND hidden = 1)
                    AND NOT EXISTS (SELECT 1 FROM faces WHERE person_id = ?2 AND assigned_by != 'auto')
                    AND NOT EXISTS (SELECT 1 FROM faces a JOIN faces b ON a.photo_id = b.photo_id
                        WHERE a.person_id = ?1 AND b.person_id = ?2)
                    AND NOT EXISTS (SELECT 1 FROM face_rejections r JOIN faces f ON f.id = r.face_id
                        WHERE (f.person_id = ?1 AND r.person_id = ?2) OR (f.person_id = ?2 AND r.person_id = ?1))
                """,
            arguments: [person, other]) ?? false
    }
}
