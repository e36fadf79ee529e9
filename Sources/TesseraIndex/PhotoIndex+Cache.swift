import Foundation
import GRDB
public import SystemPackage

/// What a check of the rendition cache asks: every recorded rendition path in order, and
/// what to render again for the files found gone.
extension PhotoIndex {
    /// One cache folder as the index knows it: how many distinct rendition files it should
    /// hold, and (asked only when needed) their paths.
    public struct RenditionFolder {
        public let path: String
        public let fileCount: Int
        let db: Database

        /// The recorded rendition paths in this folder.
        public func paths() throws(IndexError) -> [String] {
            do {
                return try String.fetchAll(
                    db, sql: "SELECT DISTINCT path FROM renditions WHERE path >= ? AND path < ? ORDER BY path",
                    arguments: [path + "/", path + "0"])
            } catch {
                throw PhotoIndex.indexError(error, path: FilePath(path))
            }
        }
    }

    /// Calls `body` with each folder of recorded rendition paths, in byte order, from the
    /// first whose paths are at or after `from` (and before `before`), until it returns false.
    /// A folder costs two seeks and a count in the path index; its paths are read only when
    /// asked. One read transaction.
    public func forEachRenditionFolder(
        from: String, before: String? = nil, _ body: (RenditionFolder) throws -> Bool
    ) throws(IndexError) {
        try read { db in
            var bound = from
            while true {
                guard let first = try String.fetchOne(
                    db, sql: "SELECT path FROM renditions WHERE path >= ? ORDER BY path LIMIT 1", arguments: [bound])
                else { return }
                if let before, first >= before { return }
                // '0' is the byte after '/': "folder0" bounds every path inside "folder/".
                let folder = String(first[..<(first.lastIndex(of: "/") ?? first.startIndex)])
                let count = try Int.fetchOne(
                    db, sql: "SELECT COUNT(DISTINCT path) FROM renditions WHERE path >= ? AND path < ?",
                    arguments: [folder + "/", folder + "0"]) ?? 0
                guard try body(RenditionFolder(path: folder, fileCount: count, db: db)) else { return }
                bound = folder + "0"
            }
        }
    }

    /// The photos with a rendition at one of `paths`, whose file is still indexed and settled
    /// (not missing, not failed), with their rendering whatever the settings.
    public func filesRendered(at paths: [String]) throws(IndexError) -> [IndexedFile] {
        try read { db in
            var files: [Int64: IndexedFile] = [:]
            for chunk in stride(from: 0, to: paths.count, by: 500).map({ paths[$0..<min($0 + 500, paths.count)] }) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT id, path, device, inode, size, mtime_ns, \(Self.retrySQL), sidecar_size, sidecar_mtime_ns,
                        content_hash, thumbnail_key, render_settings, thumbhash IS NOT NULL
                    FROM photos WHERE missing_since_ms IS NULL AND status IN ('ok', 'warning') AND id IN
                        (SELECT photo_id FROM renditions WHERE path IN (\(databaseQuestionMarks(count: chunk.count))))
                    """, arguments: StatementArguments(Array(chunk)))
                for row in rows {
                    let file = Self.indexedFile(row)
                    files[file.id] = file
                }
            }
            return files.values.sorted { $0.id < $1.id }
        }
    }

    /// Every settled photo under `root` (not missing, not failed, with renditions), with its
    /// rendering, in id order, `batch` at a time.
    public func forEachRenderedFile(
        under root: FilePath, batch: Int = 10_000, _ body: ([IndexedFile]) throws -> Void
    ) throws(IndexError) {
        let (low, high) = Self.prefixRange(root)
        try forEachPage(batch: batch, id: \.id, body) { db, after in
            try Row.fetchAll(db, sql: """
                SELECT id, path, device, inode, size, mtime_ns, \(Self.retrySQL), sidecar_size, sidecar_mtime_ns,
                    content_hash, thumbnail_key, render_settings, thumbhash IS NOT NULL
                FROM photos WHERE path >= ? AND path < ? AND id > ? AND missing_since_ms IS NULL
                    AND status IN ('ok', 'warning') AND thumbnail_key IS NOT NULL ORDER BY id LIMIT ?
                """, arguments: [low, high, after, batch]
            ).map(Self.indexedFile)
        }
    }

    /// A value scans carry from one to the next (`state` table); nil when never set.
    public func state(_ key: String) throws(IndexError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM state WHERE key = ?", arguments: [key]) }
    }

    public func setState(_ key: String, _ value: String) throws(IndexError) {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }
}
