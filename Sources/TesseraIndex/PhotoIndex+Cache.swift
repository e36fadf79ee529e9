import Foundation
import GRDB

/// What a check of the rendition cache asks: every recorded rendition path in order, and
/// what to render again for the files found gone.
extension PhotoIndex {
    /// Calls `body` with rendition paths in byte order, those after `after` (or, with
    /// `through`, those up to and including it), until it returns false. One read transaction.
    public func forEachRenditionPath(after: String? = nil, through: String? = nil, _ body: (String) -> Bool) throws(IndexError) {
        try read { db in
            let paths: DatabaseValueCursor<String>
            if let through {
                paths = try String.fetchCursor(db, sql: "SELECT path FROM renditions WHERE path <= ? ORDER BY path", arguments: [through])
            } else {
                paths = try String.fetchCursor(db, sql: "SELECT path FROM renditions WHERE path > ? ORDER BY path", arguments: [after ?? ""])
            }
            while let path = try paths.next(), body(path) {}
        }
    }

    /// The photos with a rendition at one of `paths`, whose file is still indexed and settled
    /// (not missing, not failed), with their rendering whatever the settings.
    public func filesRendered(at paths: [String]) throws(IndexError) -> [IndexedFile] {
        try read { db in
            var files: [Int64: IndexedFile] = [:]
            for chunk in stride(from: 0, to: paths.count, by: 500).map({ paths[$0..<min($0 + 500, paths.count)] }) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT id, path, device, inode, size, mtime_ns, \(Self.retrySQL),
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
