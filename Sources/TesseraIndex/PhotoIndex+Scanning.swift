public import Foundation
import GRDB
public import SystemPackage
public import TesseraFacts
public import TesseraSystem

/// A file a scan did not write, as the scan's end needs it.
public struct UnwrittenFile: Sendable {
    public var id: Int64
    public var device: UInt64
    public var pathBytes: Data
}

/// The writes a scan makes: each call is one transaction.
extension PhotoIndex {
    /// Starts a scan row; any scan still marked running was cut short and becomes `interrupted`.
    ///
    /// - Returns: the new scan's id, and whether an earlier scan had been interrupted.
    public func beginScan(roots: [FilePath], full: Bool) throws(IndexError) -> (id: Int64, recovered: Bool) {
        try write { db in
            try db.execute(sql: "UPDATE scans SET state = 'interrupted' WHERE state = 'running'")
            let recovered = db.changesCount > 0
            try db.execute(
                sql: "INSERT INTO scans (started_at_ms, state, full, roots) VALUES (?, 'running', ?, ?)",
                arguments: [Self.nowMilliseconds, full, roots.map(\.string).joined(separator: "\n")])
            return (db.lastInsertedRowID, recovered)
        }
    }

    /// Records how scan `id` ended; `reason` says why when it failed, `offline` which folders
    /// it found offline.
    public func finishScan(
        id: Int64, counts: ScanCounts, state: ScanState, reason: String? = nil, offline: [FilePath] = []
    ) throws(IndexError) {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE scans SET finished_at_ms = ?, state = ?, reason = ?, found = ?, new = ?, changed = ?, reread = ?,
                        unchanged = ?, rerendered = ?, moved = ?, removed = ?, unsupported = ?, errors = ?, unlisted = ?, warnings = ?,
                        missing = ?, kept_offline = ?, offline = ?
                    WHERE id = ?
                    """,
                arguments: [
                    Self.nowMilliseconds, state.rawValue, reason, counts.found, counts.new, counts.changed,
                    counts.reread,
                    counts.unchanged, counts.rerendered, counts.moved, counts.removed, counts.unsupported,
                    counts.errors, counts.unlisted,
                    counts.warnings, counts.missing, counts.keptOffline,
                    offline.isEmpty ? nil : offline.map(\.string).joined(separator: "\n"), id,
                ])
        }
    }

    /// The indexed files directly inside `directory` (given as its exact bytes), keyed by name.
    ///
    /// - Parameter settled: the render settings of this scan. A photo rendered with them that has
    ///   its ThumbHash is settled: its `rendering` is nil, so a rescan of an unchanged library
    ///   decodes no strings (it is asked once per directory of every scan).
    /// - Parameter expecting: about how many files the directory holds, to size the answer once.
    /// - Parameter newDecoders: whether the decoders changed since the last complete scan: then
    ///   every file recorded with an error or as unsupported (a format they now read) is read
    ///   again, not only those whose error may go away by itself, and every HEIF and AVIF photo
    ///   (an HDR one renders anew; the others' renditions are found in the cache by their
    ///   unchanged key).
    /// - Parameter newReaders: whether the metadata readers changed since the last complete
    ///   scan: then every file is read again (its renditions are found by their unchanged key).
    public func files(
        inDirectory directory: [UInt8], settled: String? = nil, expecting: Int = 0, newDecoders: Bool = false,
        newReaders: Bool = false
    ) throws(IndexError) -> [NameKey: IndexedFile] {
        try read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT p.id, p.path, p.device, p.inode, p.size, p.mtime_ns,
                        \(Self.retrySQL) OR (?3 AND (p.status IN ('error', 'unsupported') OR p.format IN ('heif', 'avif'))) OR ?4,
                        p.sidecar_size, p.sidecar_mtime_ns,
                        CASE WHEN p.render_settings = ?2 AND p.thumbhash IS NOT NULL AND \(Self.hashesRecordedSQL("p")) THEN NULL ELSE p.content_hash END,
                        p.thumbnail_key, p.render_settings, p.thumbhash IS NOT NULL, \(Self.hashesRecordedSQL("p"))
                    FROM photos p JOIN albums a ON p.album_id = a.id WHERE a.path = ?1
                    """)
            let rows = try Row.fetchCursor(statement, arguments: [Data(directory), settled, newDecoders, newReaders])
            var files: [NameKey: IndexedFile] = [:]
            files.reserveCapacity(expecting)
            let nameStart = directory.count + 1
            while let row = try rows.next() {
                let file = Self.indexedFile(row)
                files[NameKey(file.pathBytes.dropFirst(nameStart))] = file
            }
            return files
        }
    }

    /// Indexed files with this device and inode (a moved file keeps both on one filesystem).
    public func files(device: UInt64, inode: UInt64) throws(IndexError) -> [IndexedFile] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, path, device, inode, size, mtime_ns, \(Self.retrySQL), sidecar_size, sidecar_mtime_ns,
                        content_hash, thumbnail_key, render_settings, thumbhash IS NOT NULL, \(Self.hashesRecordedSQL())
                    FROM photos WHERE device = ? AND inode = ?
                    """,
                arguments: [Int64(bitPattern: device), Int64(bitPattern: inode)]
            ).map(Self.indexedFile)
        }
    }

    /// Every file under `root` that scan `excludingScan` did not write and that is not missing
    /// already, in id order, `batch` at a time.
    public func forEachFile(
        under root: FilePath, excludingScan: Int64, batch: Int = 10_000, _ body: ([UnwrittenFile]) throws -> Void
    ) throws(IndexError) {
        let (low, high) = Self.prefixRange(root)
        try forEachPage(batch: batch, id: \.id, body) { db, after in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, device, path FROM photos WHERE path >= ? AND path < ? AND id > ?
                        AND scan_id IS NOT ? AND missing_since_ms IS NULL ORDER BY id LIMIT ?
                    """,
                arguments: [low, high, after, excludingScan, batch]
            ).map { UnwrittenFile(id: $0[0], device: UInt64(bitPattern: $0[1]), pathBytes: $0[2]) }
        }
    }

    /// Gives `body` the rows `fetch` reads after each page's last id (0 first), a page at a time,
    /// until one comes back empty: memory stays one page's whatever the library's size.
    func forEachPage<Item>(
        batch: Int, id: KeyPath<Item, Int64>, _ body: ([Item]) throws -> Void,
        fetch: (Database, _ after: Int64) throws -> [Item]
    ) throws(IndexError) {
        var after: Int64 = 0
        while true {
            let page = try read { db in try fetch(db, after) }
            guard let last = page.last else { return }
            do {
                try body(page)
            } catch {
                throw Self.indexError(error, path: path)
            }
            after = last[keyPath: id]
        }
    }

    /// How many files under `root` scan `excludingScan` did not write: all of them, counted on
    /// the path index alone, less the ones it wrote, from `photos_scan` (none, for an unchanged
    /// library), so no table row is read.
    public func fileCount(under root: FilePath, excludingScan: Int64) throws(IndexError) -> Int {
        let (low, high) = Self.prefixRange(root)
        return try read { db in
            let all =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM photos WHERE path >= ? AND path < ?", arguments: [low, high]) ?? 0
            let written =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM photos WHERE scan_id = ? AND path >= ? AND path < ?",
                    arguments: [excludingScan, low, high]) ?? 0
            return all - written
        }
    }

    /// Ids of files under `directory` (used to keep what an unreadable directory hides).
    public func fileIDs(under directory: FilePath) throws(IndexError) -> [Int64] {
        let (low, high) = Self.prefixRange(directory)
        return try read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM photos WHERE path >= ? AND path < ?", arguments: [low, high])
        }
    }

    /// The renditions of the photos `ids`, by photo.
    public func renditions(of ids: [Int64]) throws(IndexError) -> [Int64: [RenditionEntry]] {
        try read { db in try Self.renditions(of: ids, db) }
    }

    static func renditions(of ids: [Int64], _ db: Database) throws -> [Int64: [RenditionEntry]] {
        var found: [Int64: [RenditionEntry]] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ ids[$0..<min($0 + 500, ids.count)] }) {
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

    /// The renditions, placeholder and perceptual hash another photo with cache key `key`
    /// already has (a copy of the same content), when it has every one of `specs`, and that
    /// photo's path.
    public func renditions(
        key: String, covering specs: [RenditionSpec]
    ) throws(IndexError) -> (
        renditions: [RenditionEntry], thumbhash: [UInt8], perceptualHash: UInt64?, detailHash: DetailHash?,
        source: FilePath
    )? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, thumbhash, phash, phash_detail, path FROM photos
                        WHERE thumbnail_key = ? AND thumbhash IS NOT NULL
                        ORDER BY \(Self.hashesRecordedSQL()) DESC LIMIT 1
                        """,
                    arguments: [key])
            else { return nil }
            let id: Int64 = row["id"]
            let entries = try Self.renditions(of: [id], db)[id] ?? []
            let wanted = entries.filter { specs.contains($0.spec) }
            guard wanted.count == Set(specs).count else { return nil }
            return (
                wanted, [UInt8](row["thumbhash"] as Data), (row["phash"] as Int64?).map { UInt64(bitPattern: $0) },
                (row["phash_detail"] as Data?).flatMap { DetailHash(bytes: $0) },
                FilePath(rawBytes: [UInt8](row["path"] as Data))
            )
        }
    }

    /// Writes file updates, moves and new renditions in one transaction, recording `scanID`.
    ///
    /// Rendition files no row refers to any more are recorded in `cache_deletions`, in the
    /// same transaction; `pendingCacheDeletions()` lists them for deleting.
    public func apply(
        _ updates: [FileUpdate], moves: [FileMove], renditions: [RenditionUpdate] = [], scanID: Int64
    ) throws(IndexError) {
        try write { db in
            var albumIDs: [FilePath: Int64] = [:]
            func albumID(_ albumPath: FilePath, root: FilePath) throws -> Int64 {
                if let id = albumIDs[albumPath] { return id }
                let bytes = Data(albumPath.rawBytes)
                if let id = try Int64.fetchOne(db, sql: "SELECT id FROM albums WHERE path = ?", arguments: [bytes]) {
                    albumIDs[albumPath] = id
                    return id
                }
                try db.execute(
                    sql: "INSERT INTO albums (path, root, name) VALUES (?, ?, ?)",
                    arguments: [bytes, Data(root.rawBytes), Self.albumName(albumPath, root: root)])
                albumIDs[albumPath] = db.lastInsertedRowID
                return db.lastInsertedRowID
            }
            var released: Set<String> = []
            for move in moves {
                try db.execute(
                    sql: "UPDATE photos SET path = ?, path_text = ?, album_id = ?, scan_id = ? WHERE id = ?",
                    arguments: [
                        Data(move.path.rawBytes), String(decoding: move.path.rawBytes, as: UTF8.self),
                        try albumID(move.albumPath, root: move.root), scanID, move.id,
                    ])
            }
            for update in updates {
                var values = PhotoColumns(update: update)
                values.albumID = try albumID(update.albumPath, root: update.root)
                values.scanID = scanID
                let id = try values.upsert(db)
                released.formUnion(
                    try String.fetchAll(db, sql: "SELECT path FROM renditions WHERE photo_id = ?", arguments: [id]))
                try db.execute(sql: "DELETE FROM renditions WHERE photo_id = ?", arguments: [id])
                if case .photo(_, _, let rendered) = update.content {
                    try Self.insert(rendered.renditions, photo: id, db)
                }
            }
            for update in renditions {
                released.formUnion(
                    try String.fetchAll(
                        db, sql: "SELECT path FROM renditions WHERE photo_id = ?", arguments: [update.photoID]))
                // Renditions are written with their photo's row, whose trigger marks its album and
                // month changed (`changeTriggers`).
                try db.execute(
                    sql:
                        """
                        UPDATE photos SET thumbnail_key = ?, render_settings = ?, thumbhash = coalesce(?, thumbhash),
                            phash = coalesce(?, phash), phash_detail = coalesce(?, phash_detail) WHERE id = ?
                        """,
                    arguments: [
                        update.key, update.settings, update.thumbhash.map { Data($0) },
                        update.perceptualHash.map { Int64(bitPattern: $0) }, update.detailHash.map { Data($0.bytes) },
                        update.photoID,
                    ])
                for entry in update.renditions {
                    try db.execute(
                        sql: "DELETE FROM renditions WHERE photo_id = ? AND kind = ? AND size = ?",
                        arguments: [update.photoID, entry.spec.kind.rawValue, entry.spec.size])
                }
                try Self.insert(update.renditions, photo: update.photoID, db)
                for row in try Row.fetchAll(
                    db, sql: "SELECT kind, size FROM renditions WHERE photo_id = ?", arguments: [update.photoID])
                {
                    let spec = RenditionSpec.Kind(rawValue: row["kind"]).map { RenditionSpec($0, row["size"]) }
                    guard let spec, !update.configured.contains(spec) else { continue }
                    try db.execute(
                        sql: "DELETE FROM renditions WHERE photo_id = ? AND kind = ? AND size = ?",
                        arguments: [update.photoID, spec.kind.rawValue, spec.size])
                }
            }
            try Self.scheduleDeletion(of: released, db)
        }
    }

    private static func insert(_ renditions: [RenditionEntry], photo id: Int64, _ db: Database) throws {
        for entry in renditions {
            try db.execute(
                sql: """
                    INSERT INTO renditions (photo_id, kind, size, width, height, bytes, path, source)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, entry.spec.kind.rawValue, entry.spec.size, entry.width, entry.height, entry.bytes, entry.path,
                    entry.source.rawValue,
                ])
            try db.execute(sql: "DELETE FROM cache_deletions WHERE path = ?", arguments: [entry.path])
        }
    }

    /// Deletes rows by id; their rendition files are scheduled for deletion.
    public func delete(ids: [Int64]) throws(IndexError) {
        guard !ids.isEmpty else { return }
        try write { db in try Self.delete(ids: ids, db) }
    }

    static func delete(ids: [Int64], _ db: Database) throws {
        var released: Set<String> = []
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ ids[$0..<min($0 + 500, ids.count)] }) {
            let marks = databaseQuestionMarks(count: chunk.count)
            let arguments = StatementArguments(Array(chunk))
            released.formUnion(
                try String.fetchAll(
                    db, sql: "SELECT path FROM renditions WHERE photo_id IN (\(marks))", arguments: arguments))
            try db.execute(sql: "DELETE FROM photos WHERE id IN (\(marks))", arguments: arguments)
        }
        try scheduleDeletion(of: released, db)
    }

    /// Recomputes counts, date range and cover of every album, and drops empty ones.
    public func refreshAlbums() throws(IndexError) {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE albums SET
                        photo_count = (SELECT COUNT(*) FROM photos p
                            WHERE p.album_id = albums.id AND p.status IN ('ok', 'warning') AND p.missing_since_ms IS NULL),
                        newest_instant_ms = (SELECT MAX(sort_instant_ms) FROM photos p
                            WHERE p.album_id = albums.id AND p.status IN ('ok', 'warning') AND p.missing_since_ms IS NULL),
                        oldest_instant_ms = (SELECT MIN(sort_instant_ms) FROM photos p
                            WHERE p.album_id = albums.id AND p.status IN ('ok', 'warning') AND p.missing_since_ms IS NULL),
                        cover_photo_id = (SELECT id FROM photos p
                            WHERE p.album_id = albums.id AND p.status IN ('ok', 'warning') AND p.missing_since_ms IS NULL
                            ORDER BY sort_instant_ms DESC, path LIMIT 1);
                    UPDATE albums SET
                        newest_captured_at = (SELECT captured_at FROM photos WHERE id = albums.cover_photo_id),
                        oldest_captured_at = (SELECT captured_at FROM photos p
                            WHERE p.album_id = albums.id AND p.status IN ('ok', 'warning') AND p.missing_since_ms IS NULL
                            ORDER BY sort_instant_ms IS NULL, sort_instant_ms ASC, path DESC LIMIT 1);
                    DELETE FROM albums WHERE NOT EXISTS (SELECT 1 FROM photos WHERE album_id = albums.id);
                    """)
        }
    }

    /// Records a directory the walk could not read.
    public func recordWalkError(scanID: Int64, path: FilePath, reason: String) throws(IndexError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO walk_errors (scan_id, path, path_text, reason) VALUES (?, ?, ?, ?)",
                arguments: [scanID, Data(path.rawBytes), String(decoding: path.rawBytes, as: UTF8.self), reason])
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
            for chunk in stride(from: 0, to: paths.count, by: 500).map({ paths[$0..<min($0 + 500, paths.count)] }) {
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
            for chunk in stride(from: 0, to: paths.count, by: 500).map({ paths[$0..<min($0 + 500, paths.count)] }) {
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

    private static func renditionPaths(among paths: [String], _ db: Database, shownOnly: Bool) throws -> Set<String> {
        var referenced: Set<String> = []
        let shown =
            shownOnly
            ? " AND EXISTS (SELECT 1 FROM photos p WHERE p.id = photo_id AND p.status IN ('ok', 'warning') AND p.missing_since_ms IS NULL)"
            : ""
        for chunk in stride(from: 0, to: paths.count, by: 500).map({ paths[$0..<min($0 + 500, paths.count)] }) {
            referenced.formUnion(
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT DISTINCT path FROM renditions WHERE path IN (\(databaseQuestionMarks(count: chunk.count)))\(shown)",
                    arguments: StatementArguments(Array(chunk))))
        }
        return referenced
    }

    /// Records the paths of `paths` that no rendition row refers to any more in `cache_deletions`.
    private static func scheduleDeletion(of paths: Set<String>, _ db: Database) throws {
        for path in paths {
            let referenced =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM renditions WHERE path = ?)", arguments: [path]) ?? false
            if !referenced {
                try db.execute(sql: "INSERT OR IGNORE INTO cache_deletions (path) VALUES (?)", arguments: [path])
            }
        }
    }

    /// Whether a row's error is one that may go away by itself (see `PhotoError.Code.isTransient`).
    static let retrySQL = "(status = 'error' AND error_code IN ('io', 'vanished', 'permission'))"

    /// Whether a row (of `photos` as `table`) has both its perceptual and its detail hash.
    static func hashesRecordedSQL(_ table: String = "photos") -> String {
        "(\(table).phash IS NOT NULL AND \(table).phash_detail IS NOT NULL)"
    }

    static func indexedFile(_ row: Row) -> IndexedFile {
        var rendering: IndexedFile.Rendering?
        // A NULL hash (no renditions, or settled) ends the row: the rest is not decoded.
        if let hash = row[9] as String?, let key = row[10] as String? {
            rendering = .init(
                contentHash: hash, key: key, settings: row[11], hasThumbhash: row[12], hasPerceptualHash: row[13])
        }
        var sidecar: SidecarStamp?
        if let size = row[7] as Int64?, let mtime = row[8] as Int64? {
            sidecar = SidecarStamp(size: size, mtimeNanoseconds: mtime)
        }
        return IndexedFile(
            id: row[0], pathBytes: row[1],
            identity: FileIdentity(
                device: UInt64(bitPattern: row[2]), inode: UInt64(bitPattern: row[3]), size: row[4],
                mtimeNanoseconds: row[5]),
            needsRetry: row[6], sidecar: sidecar, rendering: rendering)
    }

    /// The BLOB range [low, high) holding every path strictly below `directory`.
    static func prefixRange(_ directory: FilePath) -> (Data, Data) {
        var prefix = directory.rawBytes
        if prefix.last != UInt8(ascii: "/") { prefix.append(UInt8(ascii: "/")) }
        var high = prefix
        high[high.count - 1] += 1  // '/' + 1 == '0': just past every byte string that starts with the prefix
        return (Data(prefix), Data(high))
    }

    static func albumName(_ album: FilePath, root: FilePath) -> String {
        var relative = album
        _ = relative.removePrefix(root)
        return String(decoding: relative.rawBytes, as: UTF8.self)
    }

    static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
