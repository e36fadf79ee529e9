import Foundation
import GRDB
public import SystemPackage

/// A cache folder as a check found it holding every file the index recorded there: its
/// inode and status change time then, and how many files it held.
public struct CacheFolderStamp: Sendable, Equatable {
    public var inode: UInt64
    public var changeNanoseconds: Int64
    public var files: Int

    public init(inode: UInt64, changeNanoseconds: Int64, files: Int) {
        self.inode = inode
        self.changeNanoseconds = changeNanoseconds
        self.files = files
    }
}

/// One cache folder as the index knows it: (asked only when needed) how many distinct
/// rendition files it should hold, and their paths.
public struct RenditionFolder {
    public let path: String
    private let count: () throws(IndexError) -> Int
    private let list: () throws(IndexError) -> [String]

    /// A folder whose rendition files `fileCount` counts and `paths` lists, each when asked.
    public init(
        path: String, fileCount: @escaping () throws(IndexError) -> Int,
        paths: @escaping () throws(IndexError) -> [String]
    ) {
        (self.path, self.count, self.list) = (path, fileCount, paths)
    }

    /// How many distinct rendition files the index records in the folder.
    public func fileCount() throws(IndexError) -> Int { try count() }

    /// The rendition files the index records in the folder, in order.
    public func paths() throws(IndexError) -> [String] { try list() }
}

/// What a check of the rendition cache asks: every recorded rendition path in order, and
/// what to render again for the files found gone.
extension PhotoIndex {
    /// Calls `body` with each folder of recorded rendition paths, in byte order, from the
    /// first whose paths are at or after `from` (and before `before`), until it returns false.
    ///
    /// A folder costs one seek in the path index; its count and paths are read only when
    /// asked. One read transaction.
    public func forEachRenditionFolder(
        from: String, before: String? = nil, _ body: (RenditionFolder) throws -> Bool
    ) throws(IndexError) {
        try read { db in
            var bound = from
            while true {
                guard
                    let first = try String.fetchOne(
                        db, sql: "SELECT path FROM renditions WHERE path >= ? ORDER BY path LIMIT 1", arguments: [bound]
                    )
                else { return }
                if let before, first >= before { return }
                // '0' is the byte after '/': "folder0" bounds every path inside "folder/".
                let folder = String(first[..<(first.lastIndex(of: "/") ?? first.startIndex)])
                guard try body(Self.renditionFolder(folder, in: db)) else { return }
                bound = folder + "0"
            }
        }
    }

    /// The folder `path` of the cache, its counts read from `db` when asked.
    private static func renditionFolder(_ path: String, in db: Database) -> RenditionFolder {
        // '0' is the byte after '/': "folder0" bounds every path inside "folder/".
        let bounds: StatementArguments = [path + "/", path + "0"]
        return RenditionFolder(
            path: path,
            fileCount: { () throws(IndexError) -> Int in
                do {
                    return try Int.fetchOne(
                        db, sql: "SELECT COUNT(DISTINCT path) FROM renditions WHERE path >= ? AND path < ?",
                        arguments: bounds) ?? 0
                } catch {
                    throw PhotoIndex.indexError(error, path: FilePath(path))
                }
            },
            paths: { () throws(IndexError) -> [String] in
                do {
                    return try String.fetchAll(
                        db, sql: "SELECT DISTINCT path FROM renditions WHERE path >= ? AND path < ? ORDER BY path",
                        arguments: bounds)
                } catch {
                    throw PhotoIndex.indexError(error, path: FilePath(path))
                }
            })
    }

    /// Every recorded cache folder stamp, by folder path.
    public func cacheFolderStamps() throws(IndexError) -> [String: CacheFolderStamp] {
        try read { db in
            var stamps: [String: CacheFolderStamp] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, inode, ctime_ns, files FROM cache_folders") {
                let inode: Int64 = row[1]
                stamps[row[0]] = CacheFolderStamp(
                    inode: UInt64(bitPattern: inode), changeNanoseconds: row[2], files: row[3])
            }
            return stamps
        }
    }

    /// Records what one check found: `stamps` replace those of their folders, and the stamps
    /// of `forgotten` folders (no longer holding renditions) are dropped.
    ///
    /// One transaction.
    public func recordCacheFolders(
        _ stamps: [String: CacheFolderStamp], forgetting forgotten: [String]
    ) throws(IndexError) {
        guard !stamps.isEmpty || !forgotten.isEmpty else { return }
        try write { db in
            for folder in forgotten {
                try db.execute(sql: "DELETE FROM cache_folders WHERE path = ?", arguments: [folder])
            }
            for (folder, stamp) in stamps {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO cache_folders (path, inode, ctime_ns, files) VALUES (?, ?, ?, ?)",
                    arguments: [folder, Int64(bitPattern: stamp.inode), stamp.changeNanoseconds, stamp.files])
            }
        }
    }

    /// The photos with a rendition at one of `paths`, whose file is still indexed and settled
    /// (not missing, not failed), with their rendering whatever the settings.
    public func filesRendered(at paths: [String]) throws(IndexError) -> [IndexedFile] {
        try read { db in
            var files: [Int64: IndexedFile] = [:]
            for chunk in paths.chunks(of: 500) {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, path, device, inode, size, mtime_ns, \(Self.retrySQL), sidecar_size,
                            sidecar_mtime_ns, content_hash, thumbnail_key, render_settings, thumbhash IS NOT NULL
                        FROM photos WHERE \(PhotoSQL.shown()) AND id IN (SELECT photo_id FROM renditions
                            WHERE path IN (\(databaseQuestionMarks(count: chunk.count))))
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
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, path, device, inode, size, mtime_ns, \(Self.retrySQL), sidecar_size, sidecar_mtime_ns,
                        content_hash, thumbnail_key, render_settings, thumbhash IS NOT NULL
                    FROM photos WHERE path >= ? AND path < ? AND id > ? AND \(PhotoSQL.shown())
                        AND thumbnail_key IS NOT NULL ORDER BY id LIMIT ?
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
