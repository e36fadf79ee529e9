public import Foundation
import GRDB
public import SystemPackage
import TesseraSystem

/// A missing file, as `tessera prune` lists it.
public struct MissingFile: Sendable {
    public var id: Int64
    public var path: FilePath
    public var since: Date
}

/// Files that went away: nothing a scan does not see is deleted at once.
///
/// A file found gone from a root that is present becomes *missing*: its row and renditions stay,
/// hidden from every reader query, until the grace period ends (`expireMissing`) or `tessera
/// prune` removes it. A file that comes back (same path, or moved with the same inode) is
/// simply there again.
extension PhotoIndex {
    /// Whether the index holds any file under `directory`.
    public func hasFiles(under directory: FilePath) throws(IndexError) -> Bool {
        let (low, high) = Self.prefixRange(directory)
        return try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM photos WHERE path >= ? AND path < ?)", arguments: [low, high])
                ?? false
        }
    }

    /// Settles files a scan found gone: one whose content another present row still has (it
    /// was moved or copied elsewhere, then deleted here) loses its row at once, since nothing
    /// is lost with it; the others become missing since now.
    ///
    /// - Returns: how many rows went as moved, and how many became missing.
    public func retire(ids: [Int64]) throws(IndexError) -> (moved: Int, missing: Int) {
        guard !ids.isEmpty else { return (0, 0) }
        let now = Self.nowMilliseconds
        let leaving = Set(ids)
        return try write { db in
            var moved: [Int64] = []
            var missing: [Int64] = []
            for chunk in ids.chunks(of: 500) {
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT id, thumbnail_key FROM photos WHERE id IN "
                        + "(\(databaseQuestionMarks(count: chunk.count)))",
                    arguments: StatementArguments(Array(chunk)))
                for row in rows {
                    let id: Int64 = row[0]
                    let elsewhere =
                        try (row[1] as String?).map { key in
                            try Int64.fetchAll(
                                db, sql: "SELECT id FROM photos WHERE thumbnail_key = ? AND \(PhotoSQL.present())",
                                arguments: [key]
                            ).contains { !leaving.contains($0) }
                        } ?? false
                    if elsewhere { moved.append(id) } else { missing.append(id) }
                }
            }
            try Self.delete(ids: moved, db)
            for chunk in missing.chunks(of: 500) {
                try db.execute(
                    sql: "UPDATE photos SET missing_since_ms = ? WHERE id IN "
                        + "(\(databaseQuestionMarks(count: chunk.count)))",
                    arguments: StatementArguments([now] + Array(chunk)))
            }
            return (moved.count, missing.count)
        }
    }

    /// Marks missing every file that lies under none of `roots` (roots no longer configured).
    ///
    /// - Returns: how many became missing.
    @discardableResult
    public func markMissing(outside roots: [FilePath]) throws(IndexError) -> Int {
        let (condition, arguments) = Self.outside(roots)
        return try write { db in
            try db.execute(
                sql: "UPDATE photos SET missing_since_ms = ? WHERE \(PhotoSQL.present()) AND \(condition)",
                arguments: [Self.nowMilliseconds] + arguments)
            return db.changesCount
        }
    }

    /// How many files that are not missing lie under none of `roots`.
    public func fileCount(outside roots: [FilePath]) throws(IndexError) -> Int {
        let (condition, arguments) = Self.outside(roots)
        return try read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM photos WHERE \(PhotoSQL.present()) AND \(condition)",
                arguments: arguments
            ) ?? 0
        }
    }

    /// A condition on `path` true for rows under none of `roots`: the gaps between their path
    /// ranges, each a range the path index answers at once (roots never overlap).
    private static func outside(_ roots: [FilePath]) -> (String, StatementArguments) {
        let ranges = roots.map(prefixRange).sorted { $0.0.lexicographicallyPrecedes($1.0) }
        guard let first = ranges.first, let last = ranges.last else { return ("1", []) }
        var gaps = ["path < ?"]
        var arguments: StatementArguments = [first.0]
        for (before, after) in zip(ranges, ranges.dropFirst()) {
            gaps.append("(path >= ? AND path < ?)")
            arguments += [before.1, after.0]
        }
        gaps.append("path >= ?")
        arguments += [last.1]
        return ("(" + gaps.joined(separator: " OR ") + ")", arguments)
    }

    /// Clears the mark of the missing files a scan saw again.
    ///
    /// - Returns: how many came back.
    @discardableResult
    public func unmarkMissing(where seen: (Int64) -> Bool) throws(IndexError) -> Int {
        try write { db in
            let back = try Int64.fetchAll(db, sql: "SELECT id FROM photos WHERE missing_since_ms IS NOT NULL").filter(
                seen)
            for chunk in back.chunks(of: 500) {
                try db.execute(
                    sql: "UPDATE photos SET missing_since_ms = NULL WHERE id IN "
                        + "(\(databaseQuestionMarks(count: chunk.count)))",
                    arguments: StatementArguments(Array(chunk)))
            }
            return back.count
        }
    }

    /// How many files under `directory` are missing (found through `photos_missing` alone).
    public func missingCount(under directory: FilePath) throws(IndexError) -> Int {
        let (low, high) = Self.prefixRange(directory)
        return try read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM photos INDEXED BY photos_missing
                    WHERE missing_since_ms IS NOT NULL AND path >= ? AND path < ?
                    """,
                arguments: [low, high]) ?? 0
        }
    }

    /// Missing files, oldest first; with `before`, only those missing since then or earlier.
    public func missingFiles(before: Date? = nil) throws(IndexError) -> [MissingFile] {
        let limit = before.map { Int64($0.timeIntervalSince1970 * 1000) } ?? Int64.max
        return try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, path, missing_since_ms FROM photos
                    WHERE missing_since_ms IS NOT NULL AND missing_since_ms <= ? ORDER BY missing_since_ms, path
                    """,
                arguments: [limit]
            ).map { row in
                MissingFile(
                    id: row[0], path: FilePath(rawBytes: [UInt8](row[1] as Data)),
                    since: Date(timeIntervalSince1970: Double(row[2] as Int64) / 1000))
            }
        }
    }
}
