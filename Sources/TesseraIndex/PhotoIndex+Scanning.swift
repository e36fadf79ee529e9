public import Foundation
import GRDB
public import SystemPackage
import TesseraFacts
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
                    UPDATE scans SET finished_at_ms = ?, state = ?, reason = ?, found = ?, new = ?, changed = ?,
                        reread = ?, unchanged = ?, rerendered = ?, moved = ?, removed = ?, unsupported = ?, errors = ?,
                        unlisted = ?, warnings = ?, missing = ?, kept_offline = ?, offline = ?
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
    ///   again, not only those whose error may go away by itself, and every photo of a format
    ///   read again with new decoders (`FormatTraits.readAgainWithNewDecoders`: HEIF and AVIF,
    ///   an HDR one renders anew; the others' renditions are found in the cache by their
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
                        \(Self.retrySQL) OR ?4 OR (?3 AND (p.status IN ('error', 'unsupported')
                            OR \(PhotoSQL.format(\.readAgainWithNewDecoders, "p"))))
                            OR EXISTS (SELECT 1 FROM place_unread u WHERE u.photo_id = p.id),
                        p.sidecar_size, p.sidecar_mtime_ns,
                        CASE WHEN p.render_settings = ?2 AND p.thumbhash IS NOT NULL THEN NULL ELSE p.content_hash END,
                        p.thumbnail_key, p.render_settings, p.thumbhash IS NOT NULL
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
                        content_hash, thumbnail_key, render_settings, thumbhash IS NOT NULL
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
                        AND scan_id IS NOT ? AND \(PhotoSQL.present()) ORDER BY id LIMIT ?
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
                    try String.fetchAll(
                        db.cachedStatement(sql: "SELECT path FROM renditions WHERE photo_id = ?"), arguments: [id]))
                try db.cachedStatement(sql: "DELETE FROM renditions WHERE photo_id = ?").execute(arguments: [id])
                // What its analyses waited for was of the file as it was.
                try db.cachedStatement(sql: "DELETE FROM analysis_queue WHERE photo_id = ?").execute(arguments: [id])
                if case .photo(_, _, let rendered) = update.content {
                    try Self.insert(rendered.renditions, photo: id, db)
                    try Self.record(rendered.analyses, photo: id, db, writingOutputs: false)
                }
            }
            for update in renditions {
                released.formUnion(
                    try String.fetchAll(
                        db, sql: "SELECT path FROM renditions WHERE photo_id = ?", arguments: [update.photoID]))
                // Renditions are written with their photo's row, whose trigger marks its album and
                // month changed (`changeTriggers`).
                try db.execute(
                    sql: """
                        UPDATE photos SET thumbnail_key = ?, render_settings = ?, thumbhash = coalesce(?, thumbhash)
                        WHERE id = ?
                        """,
                    arguments: [update.key, update.settings, update.thumbhash.map { Data($0) }, update.photoID])
                try Self.record(update.analyses, photo: update.photoID, db)
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

    static func insert(_ renditions: [RenditionEntry], photo id: Int64, _ db: Database) throws {
        for entry in renditions {
            try db.cachedStatement(
                sql: """
                    INSERT INTO renditions (photo_id, kind, size, width, height, bytes, path, source)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    id, entry.spec.kind.rawValue, entry.spec.size, entry.width, entry.height, entry.bytes, entry.path,
                    entry.source.rawValue,
                ])
            try db.cachedStatement(sql: "DELETE FROM cache_deletions WHERE path = ?").execute(arguments: [entry.path])
        }
    }

    /// Deletes rows by id; their rendition files are scheduled for deletion.
    public func delete(ids: [Int64]) throws(IndexError) {
        guard !ids.isEmpty else { return }
        try write { db in try Self.delete(ids: ids, db) }
    }

    static func delete(ids: [Int64], _ db: Database) throws {
        var released: Set<String> = []
        for chunk in ids.chunks(of: 500) {
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
        let shown = PhotoSQL.shown("p")
        try write { db in
            try db.execute(
                sql: """
                    UPDATE albums SET
                        photo_count = (SELECT COUNT(*) FROM photos p
                            WHERE p.album_id = albums.id AND \(shown)),
                        newest_instant_ms = (SELECT MAX(sort_instant_ms) FROM photos p
                            WHERE p.album_id = albums.id AND \(shown)),
                        oldest_instant_ms = (SELECT MIN(sort_instant_ms) FROM photos p
                            WHERE p.album_id = albums.id AND \(shown)),
                        cover_photo_id = (SELECT id FROM photos p
                            WHERE p.album_id = albums.id AND \(shown)
                            ORDER BY sort_instant_ms DESC, path LIMIT 1);
                    UPDATE albums SET
                        newest_captured_at = (SELECT captured_at FROM photos WHERE id = albums.cover_photo_id),
                        oldest_captured_at = (SELECT captured_at FROM photos p
                            WHERE p.album_id = albums.id AND \(shown)
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

    /// Whether a row's error is one that may go away by itself (see `PhotoError.Code.isTransient`).
    static let retrySQL = "(status = 'error' AND error_code IN ('io', 'vanished', 'permission'))"

    /// Whether a row (of `photos` as `table`) has both its perceptual and its detail hash.

    static func indexedFile(_ row: Row) -> IndexedFile {
        var rendering: IndexedFile.Rendering?
        // A NULL hash (no renditions, or settled) ends the row: the rest is not decoded.
        if let hash = row[9] as String?, let key = row[10] as String? {
            rendering = .init(
                contentHash: hash, key: key, settings: row[11], hasThumbhash: row[12])
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
