import Foundation
import GRDB
import TesseraFacts

/// What a user decides of people and faces (docs/PEOPLE.md): facts the grouping never undoes.
public enum PeopleDecision: Codable, Sendable, Equatable {
    /// Names a person (nil: takes the name away).
    case name(person: Int64, name: String?)
    /// Makes `people` one with `into`: their faces are its, placed by the user.
    case merge(into: Int64, people: [Int64])
    /// Moves `faces` out of `person` into a new person: they are not it, now or after any scan.
    case split(person: Int64, faces: [Int64])
    /// Hides a person (their faces never show, and new faces of theirs stay hidden with them) or
    /// one face; `hidden` false shows it again.
    case hide(person: Int64?, face: Int64?, hidden: Bool)
    /// Removes every face and person; a scan with faces on finds the faces again.
    case forgetAll
}

extension PhotoIndex {
    /// Carries out `decision`, and says what was done in a line.
    ///
    /// Throws naming a person or face that is not there.
    public func apply(_ decision: PeopleDecision) throws(IndexError) -> String {
        try write { db in try Self.apply(decision, db) }
    }

    static func apply(_ decision: PeopleDecision, _ db: Database) throws -> String {
        switch decision {
        case .name(let person, let name):
            try requirePeople([person], db)
            let name = name?.trimmingCharacters(in: .whitespacesAndNewlines)
            let named = name.flatMap { $0.isEmpty ? nil : $0 }
            try db.execute(
                sql: "UPDATE people SET name = ?, name_source = ? WHERE id = ?",
                arguments: [named, named == nil ? nil : "user", person])
            return named.map { "person \(person) is \($0)" } ?? "person \(person) has no name"
        case .merge(let into, let others):
            let others = others.filter { $0 != into }
            try requirePeople([into] + others, db)
            for other in others {
                try db.execute(
                    sql: """
                        UPDATE people SET name = coalesce(name, (SELECT name FROM people WHERE id = ?2)),
                            name_source = coalesce(name_source, (SELECT name_source FROM people WHERE id = ?2))
                        WHERE id = ?1
                        """,
                    arguments: [into, other])
                try db.execute(
                    sql: "UPDATE faces SET person_id = ?, assigned_by = 'user' WHERE person_id = ?",
                    arguments: [into, other])
                try db.execute(
                    sql: "UPDATE OR IGNORE face_rejections SET person_id = ? WHERE person_id = ?",
                    arguments: [into, other])
                try db.execute(sql: "DELETE FROM people WHERE id = ?", arguments: [other])
            }
            // (every face of the person is the user's now: the grouping joins it to no other)
            try db.execute(sql: "UPDATE faces SET assigned_by = 'user' WHERE person_id = ?", arguments: [into])
            return "\(others.map { "person \($0)" }.joined(separator: ", ")) merged into person \(into)"
        case .split(let person, let faces):
            try requirePeople([person], db)
            let theirs = Set(
                try Int64.fetchAll(db, sql: "SELECT id FROM faces WHERE person_id = ?", arguments: [person]))
            if let stranger = faces.first(where: { !theirs.contains($0) }) {
                throw DatabaseError(message: "face \(stranger) is not one of person \(person)'s")
            }
            try db.execute(sql: "INSERT INTO people DEFAULT VALUES")
            let new = db.lastInsertedRowID
            for face in faces {
                try db.execute(
                    sql: "UPDATE faces SET person_id = ?, assigned_by = 'user' WHERE id = ?", arguments: [new, face])
                try db.execute(
                    sql: "INSERT OR IGNORE INTO face_rejections (face_id, person_id) VALUES (?, ?)",
                    arguments: [face, person])
            }
            try forgetEmptyPeople([person], db)
            return "\(faces.count == 1 ? "face" : "faces") \(faces.map(String.init).joined(separator: ", ")) "
                + "moved out of person \(person) into person \(new)"
        case .hide(let person, let face, let hidden):
            if let person {
                try requirePeople([person], db)
                try db.execute(sql: "UPDATE people SET hidden = ? WHERE id = ?", arguments: [hidden, person])
            }
            if let face {
                try db.execute(sql: "UPDATE faces SET hidden = ? WHERE id = ?", arguments: [hidden, face])
                guard db.changesCount > 0 else { throw DatabaseError(message: "no face \(face)") }
            }
            let what = [person.map { "person \($0)" }, face.map { "face \($0)" }].compactMap { $0 }
            return "\(what.joined(separator: " and ")) \(hidden ? "hidden" : "shown")"
        case .forgetAll:
            let faces = try Int.fetchOne(db, sql: "SELECT count(*) FROM faces") ?? 0
            let people = try Int.fetchOne(db, sql: "SELECT count(*) FROM people") ?? 0
            try db.execute(
                sql: """
                    DELETE FROM faces;
                    DELETE FROM people;
                    DELETE FROM analysis_queue WHERE analysis = 'faces';
                    DELETE FROM state WHERE key IN (?, ?);
                    """,
                arguments: [AnalysisStorage.stateKey(.faces), FaceBuckets.stateKey])
            return "\(faces) faces and \(people) people forgotten"
        }
    }

    private static func requirePeople(_ people: [Int64], _ db: Database) throws {
        for person in people
        where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM people WHERE id = ?)", arguments: [person])
            != true
        {
            throw DatabaseError(message: "no person \(person) (tessera people list)")
        }
    }
}
