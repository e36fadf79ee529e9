import Foundation
import GRDB
public import SystemPackage
public import TesseraFacts
import TesseraSystem

/// The renditions the index records: of photos, of a copy's content, and the cache files no row
/// refers to any more.
extension PhotoIndex {
    /// The renditions of the photos `ids`, by photo.
    public func renditions(of ids: [Int64]) throws(IndexError) -> [Int64: [RenditionEntry]] {
        try read { db in try Self.renditions(of: ids, db) }
    }

    static func renditions(of ids: [Int64], _ db: Database) throws -> [Int64: [RenditionEntry]] {
        var found: [Int64: [RenditionEntry]] = [:]
        for chunk in ids.chunks(of: 500) {
            let marks = databaseQuestionMarks(count: chunk.count)
            let sql = """
                SELECT photo_id, kind, size, width, height, bytes, path, source FROM renditions
                WHERE photo_id IN (\(marks)) ORDER BY kind, size
                """
            for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(Array(chunk))) {
                guard let kind = RenditionSpec.Kind(rawValue: row["kind"]) else { continue }
                found[row["photo_id"], default: []].append(
                    RenditionEntry(
                        spec: RenditionSpec(kind, row["size"]), width: row["width"], height: row["height"],
                        bytes: row["bytes"],
                        path: row["path"], source: RenditionSource(rawValue: row["source"]) ?? .decoded))
            }
        }
        return found
    }

    /// The renditions, placeholder and analyses' outputs another photo with cache key `key`
    /// already has (a copy of the same content), when it has every one of `specs`, and that
    /// photo's path; of several, one whose analyses are done.
    public func renditions(
        key: String, covering specs: [RenditionSpec]
    ) throws(IndexError) -> (
        renditions: [RenditionEntry], thumbhash: [UInt8], outputs: [AnalysisOutput], source: FilePath
    )? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, thumbhash, path, \(AnalysisStorage.selection) FROM photos
                        WHERE thumbnail_key = ? AND thumbhash IS NOT NULL
                        ORDER BY NOT EXISTS (SELECT 1 FROM analysis_queue WHERE photo_id = photos.id) DESC LIMIT 1
                        """,
                    arguments: [key])
            else { return nil }
            let id: Int64 = row["id"]
            let entries = try Self.renditions(of: [id], db)[id] ?? []
            let wanted = entries.filter { specs.contains($0.spec) }
            guard wanted.count == Set(specs).count else { return nil }
            return (
                wanted, [UInt8](row["thumbhash"] as Data), AnalysisStorage.outputs(row, from: 3),
                FilePath(rawBytes: [UInt8](row["path"] as Data))
            )
        }
    }

    /// Rendition files due for deletion: no row refers to them any more.
    ///
    /// Paths are recorded in the transaction that dropped their last reference, so a crash
    /// between that commit and the deletion of the files loses nothing: the next call finds
    /// them. A path some row refers to again is dropped from the list instead.
    public func pendingCacheDeletions() throws(IndexError) -> [String] {
        try write { db in
            try db.execute(
                sql: """
                    DELETE FROM cache_deletions
                    WHERE EXISTS (SELECT 1 FROM renditions WHERE renditions.path = cache_deletions.path)
                       OR EXISTS (SELECT 1 FROM web_videos WHERE web_videos.path = cache_deletions.path)
                    """)
            return try String.fetchAll(db, sql: "SELECT path FROM cache_deletions ORDER BY path")
        }
    }

    /// Forgets paths whose files are gone.
    public func forgetCacheDeletions(_ paths: [String]) throws(IndexError) {
        try write { db in
            for chunk in paths.chunks(of: 500) {
                try db.execute(
                    sql: "DELETE FROM cache_deletions WHERE path IN (\(databaseQuestionMarks(count: chunk.count)))",
                    arguments: StatementArguments(Array(chunk)))
            }
        }
    }

    /// Which of `paths` some rendition or web video row refers to (for the cache sweep).
    public func referencedPaths(among paths: [String]) throws(IndexError) -> Set<String> {
        try read { db in
            var referenced = try Self.renditionPaths(among: paths, db, shownOnly: false)
            for chunk in paths.chunks(of: 500) {
                referenced.formUnion(
                    try String.fetchAll(
                        db,
                        sql: "SELECT path FROM web_videos WHERE path IN (\(databaseQuestionMarks(count: chunk.count)))",
                        arguments: StatementArguments(Array(chunk))))
            }
            return referenced
        }
    }

    public func shownRenditions(among paths: [String]) throws(IndexError) -> Set<String> {
        try read { db in try Self.shownRenditions(among: paths, db) }
    }

    static func shownRenditions(among paths: [String], _ db: Database) throws -> Set<String> {
        try renditionPaths(among: paths, db, shownOnly: true)
    }

    static func renditionPaths(among paths: [String], _ db: Database, shownOnly: Bool) throws -> Set<String> {
        var referenced: Set<String> = []
        let shown =
            shownOnly
            ? " AND EXISTS (SELECT 1 FROM photos p WHERE p.id = photo_id AND \(PhotoSQL.shown("p")))"
            : ""
        for chunk in paths.chunks(of: 500) {
            referenced.formUnion(
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT DISTINCT path FROM renditions WHERE path IN "
                        + "(\(databaseQuestionMarks(count: chunk.count)))\(shown)",
                    arguments: StatementArguments(Array(chunk))))
        }
        return referenced
    }

    /// Records the paths of `paths` that no rendition row refers to any more in `cache_deletions`.
    static func scheduleDeletion(of paths: Set<String>, _ db: Database) throws {
        for path in paths {
            let referenced =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM renditions WHERE path = ?)", arguments: [path]) ?? false
            if !referenced {
                try db.execute(sql: "INSERT OR IGNORE INTO cache_deletions (path) VALUES (?)", arguments: [path])
            }
        }
    }
}
