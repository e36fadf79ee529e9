import GRDB

/// What `verify()` found.
public enum IndexVerification: Sendable, Equatable {
    case sound
    /// Lookup tables (SQLite indexes) disagreed with the rows; rebuilt from them.
    case repaired(problems: [String])
}

/// Whether the index file is sound, checked when a crash may have left it damaged.
extension PhotoIndex {
    /// Runs `PRAGMA integrity_check` (not `quick_check`, which does not compare the SQLite
    /// indexes with the rows: the damage a crash on a bad disk most often leaves); when it finds
    /// damage, rebuilds every SQLite index from the rows (`REINDEX`) and checks again.
    ///
    /// - Throws: `IndexError` `.corrupt` when the rows themselves are damaged, saying how to build
    ///   a new index; `IndexError` for any other failure.
    public func verify() throws(IndexError) -> IndexVerification {
        let problems: [String]
        do {
            problems = try pool.read { db in try Self.integrityCheck(db) }
        } catch let error as DatabaseError
            where IndexError.Code(sqliteResultCode: error.extendedResultCode.rawValue) == .corrupt
        {
            problems = [error.message ?? "\(error)"]
        } catch {
            throw Self.indexError(error, path: path)
        }
        guard !problems.isEmpty else { return .sound }
        let remaining: [String]
        do {
            remaining = try pool.write { db in
                try db.execute(sql: "REINDEX")
                return try Self.integrityCheck(db)
            }
        } catch {
            remaining = [(error as? DatabaseError)?.message ?? "\(error)"]
        }
        guard remaining.isEmpty else {
            let shown = remaining.prefix(3).joined(separator: "; ") + (remaining.count > 3 ? "; …" : "")
            throw IndexError(.corrupt, path: path, Self.damaged(shown, path: path))
        }
        return .repaired(problems: problems)
    }

    /// What to say of a damaged file: what is wrong, and how to build a new index.
    static func damaged(_ problems: String, path: some CustomStringConvertible) -> String {
        "the index file is damaged (\(problems)). Move it aside (mv \(path) \(path).damaged) and scan again to "
            + "build a new one: photos are read again, and renditions already in the cache are kept"
    }

    /// The problems `PRAGMA integrity_check` reports (at most 20); none when the file is sound.
    private static func integrityCheck(_ db: Database) throws -> [String] {
        let lines = try String.fetchAll(db, sql: "PRAGMA integrity_check(20)")
        return lines == ["ok"] ? [] : lines
    }
}
