import Foundation
public import Logging
import NIOCore
import PostgresNIO
public import SystemPackage
public import TesseraConfiguration
import TesseraImage
import TesseraIndex
public import TesseraObjectStore
import TesseraScan
import TesseraSystem

/// The cluster's index as the documented SQLite file, written by the same code a scan writes
/// one with, so every program that reads an index reads it: `export-index`, and the file
/// `list`, `inspect`, `explain`, `layout` and `album build` read (docs/SCALE.md "Reading").
///
/// A file made before is brought up to date by what changed since: each row of `files` carries
/// the transaction that last changed it (`changed`), and the file records the oldest
/// transaction still running when it was last brought up to date. Rows changed since are read
/// again, whatever committed meanwhile included. A file of another cluster, or one older than
/// what a prune removed since, is made again whole.
public struct ClusterMirror: Sendable {
    /// What an update wrote.
    public struct Summary: Sendable, Equatable {
        /// Files written (new or changed since the last update).
        public var files = 0
        /// Files gone from the index since (missing or pruned).
        public var removed = 0
        /// Files found but not read yet (queued): left out.
        public var unread = 0
        /// Rendition objects fetched into the cache.
        public var fetched = 0
        /// Whether the file was made again whole.
        public var whole = false
    }

    let index: ClusterIndex
    let store: ObjectStore
    let configuration: Configuration
    let logger: Logger

    public init(index: ClusterIndex, store: ObjectStore, configuration: Configuration, logger: Logger) {
        self.index = index
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    /// The `state` keys a mirror keeps its place in.
    enum Mark {
        /// The cluster's id (its `cluster` row): a file of another is made again.
        static let cluster = "cluster_id"
        /// The transaction from which rows changed are not yet in the file.
        static let rows = "cluster_rows_from"
        /// The same, for renditions fetched into the cache.
        static let renditions = "cluster_renditions_from"
    }

    /// Brings the SQLite index at `file` up to date with the cluster.
    ///
    /// With `fetch`, every rendition it names is fetched into the cache folder `renditions`, where
    /// its rows say it is. One process at a time: another waits for it (the index's writer lock).
    ///
    /// A one-machine index at `file` (one a scan wrote) is replaced only when `replacing`: it is
    /// not the configuration's to overwrite.
    public func update(
        _ file: FilePath, renditions: FilePath, fetch: Bool, replacing: Bool
    ) async throws(ClusterError) -> Summary {
        let file = FileSystem.absolute(file)
        let renditions = FileSystem.absolute(renditions)
        let lock = IndexLock(index: file)
        let turn: IndexLock.Turn
        do throws(ScanError) {
            turn = try await lock.waitForTurn(
                role: .scan, socket: nil,
                waiting: { [logger] holder in
                    logger.notice("\(file) is being written by \(holder); waiting for it")
                    return true
                }, shouldStop: { false })
        } catch {
            throw ClusterError(.local, "\(error)")
        }
        guard case .held = turn else { throw ClusterError(.local, "cannot lock \(file)") }
        defer { lock.release() }
        // A prune that removed rows changed after the pass's start could have removed some
        // before the pass read them: the file is then made again whole.
        let pass = try await run(file, renditions: renditions, fetch: fetch, whole: false, replacing: replacing)
        guard pass.pruned else { return pass.summary }
        logger.notice("a prune ran meanwhile: making \(file) again whole")
        return try await run(file, renditions: renditions, fetch: fetch, whole: true, replacing: true).summary
    }

    /// The cluster's id, and the newest change of a row a prune removed.
    private func clusterState() async throws(ClusterError) -> (id: String, pruned: Int64) {
        try await index.perform("read the cluster's state") { [logger] connection in
            var state = ("", Int64(0))
            for try await row in try await connection.query(
                "SELECT id::text, pruned_through::text::int8 FROM cluster", logger: logger
            ).decode((String, Int64).self) {
                state = row
            }
            return state
        }
    }

    /// One pass, `whole` or from the file's marks; `pruned` when a prune removed rows it may
    /// have missed.
    private func run(
        _ file: FilePath, renditions: FilePath, fetch: Bool, whole forced: Bool, replacing: Bool
    ) async throws(ClusterError) -> (summary: Summary, pruned: Bool) {
        let (cluster, pruned) = try await clusterState()
        // Rows changed by transactions from this one on may not all be seen yet: the next update
        // reads them again.
        let next = try await oldestRunningTransaction()
        var existing: PhotoIndex?
        var marks: (rows: Int64, renditions: Int64)?
        if !forced { (existing, marks) = try opened(file, cluster: cluster, pruned: pruned, replacing: replacing) }
        let whole = marks == nil
        if whole { logger.notice("writing \(file) whole from the cluster's index") }
        let since = marks.map { fetch ? $0.renditions : $0.rows } ?? 0
        let target = whole ? FilePath(file.string + ".partial") : file
        var summary: Summary
        do {
            // The index is closed at the end of this block, its file whole.
            let photoIndex: PhotoIndex
            if let existing, !whole {
                photoIndex = existing
            } else {
                existing = nil
                for suffix in ["", "-wal", "-shm"] { try? FileSystem.removeFile(FilePath(target.string + suffix)) }
                do throws(IndexError) {
                    photoIndex = try PhotoIndex(path: target)
                } catch {
                    throw ClusterError(.local, "cannot write \(target): \(error)")
                }
            }
            summary = try await copy(
                changedFrom: since, into: photoIndex, at: target, renditions: renditions, fetch: fetch)
            summary.whole = whole
            do throws(IndexError) {
                try analyse(photoIndex)
                try photoIndex.setState(Mark.cluster, cluster)
                try photoIndex.setState(Mark.rows, String(max(next, marks?.rows ?? 0)))
                let fetchedFrom = fetch ? next : (marks?.renditions ?? 0)
                try photoIndex.setState(Mark.renditions, String(fetchedFrom))
            } catch {
                throw ClusterError(.local, "cannot write \(target): \(error)")
            }
            photoIndex.checkpoint()
        }
        if whole {
            existing = nil
            for suffix in ["-wal", "-shm"] { try? FileSystem.removeFile(FilePath(file.string + suffix)) }
            do throws(SystemError) {
                try FileSystem.replace(file, with: target)
            } catch {
                throw ClusterError(.local, "cannot put the index at \(file): \(error)")
            }
            // Checkpointed and closed: what is left of its journal is empty.
            for suffix in ["-wal", "-shm"] { try? FileSystem.removeFile(FilePath(target.string + suffix)) }
        }
        let prunedSince = try await clusterState().pruned
        return (summary, prunedSince > pruned && prunedSince >= since)
    }

    /// The oldest transaction still running: rows it or a later one change are read again next time.
    private func oldestRunningTransaction() async throws(ClusterError) -> Int64 {
        try await index.perform("read the oldest running transaction") { [logger] connection in
            var xmin: Int64 = 0
            for try await value in try await connection.query(
                "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::int8", logger: logger
            ).decode(Int64.self) {
                xmin = value
            }
            return xmin
        }
    }

    /// The file as it is, and its marks when it can be brought up to date from them (a copy of
    /// this cluster that saw every row a prune removed); nil marks: it is made again whole.
    ///
    /// - Throws: when the file is an index a scan wrote on this machine, unless `replacing`.
    private func opened(
        _ file: FilePath, cluster: String, pruned: Int64, replacing: Bool
    ) throws(ClusterError) -> (PhotoIndex?, (rows: Int64, renditions: Int64)?) {
        guard (try? FileSystem.status(of: file)) != nil else { return (nil, nil) }
        var existing: PhotoIndex?
        var marks: (rows: Int64, renditions: Int64)?
        var scanned = false
        do throws(IndexError) {
            let opened = try PhotoIndex(path: file)
            existing = opened
            let source = try opened.state(Mark.cluster)
            if source == nil { scanned = try opened.lastScan() != nil }
            if source == cluster, let rows = try opened.state(Mark.rows).flatMap(Int64.init), rows > pruned {
                marks = (rows, try opened.state(Mark.renditions).flatMap(Int64.init) ?? 0)
            }
        } catch {
            logger.notice("\(file) cannot be brought up to date (\(error)): making it again whole")
        }
        if scanned && !replacing {
            throw ClusterError(
                .local,
                "\(file) is an index a scan wrote on this machine, not a copy of the cluster's: "
                    + "set the configuration's 'index' to another file for the cluster's")
        }
        return (existing, marks)
    }

    /// Writes into `photoIndex` (at `target`) the rows changed from transaction `since` on, a
    /// page at a time, through the scan's own writer; with `fetch`, their renditions too.
    private func copy(
        changedFrom since: Int64, into photoIndex: PhotoIndex, at target: FilePath, renditions: FilePath, fetch: Bool
    ) async throws(ClusterError) -> Summary {
        var summary = Summary(whole: false)
        var local = configuration
        local.index = target
        local.cache = renditions
        let scanner = LibraryScanner(
            configuration: local, index: photoIndex, logger: logger, analyses: AnalysisStages.all)
        var recording: LibraryScanner.Import?
        let cache = RenditionCache(root: renditions)
        var after: Int64 = 0
        while true {
            let page = try await page(after: after, changedFrom: since)
            summary.unread += page.unread
            guard let last = page.last else { break }
            after = last
            guard !page.rows.isEmpty || !page.removed.isEmpty else { continue }
            if recording == nil {
                // Asked only when something changed: it reads every row.
                let roots = try await roots()
                do throws(ScanError) {
                    recording = try scanner.importing(roots: roots)
                } catch {
                    throw ClusterError(.local, "\(error)")
                }
            }
            if fetch { summary.fetched += try await self.fetch(page.rows, into: cache) }
            let updates = page.rows.map { row in
                FileUpdate(
                    path: row.path, albumPath: row.album, root: row.root, identity: row.record.identity,
                    sidecar: row.sidecar, content: row.record.content(cacheRoot: renditions))
            }
            do throws(ScanError) {
                try recording?.add(updates)
                summary.removed += try remove(page.removed, from: photoIndex)
            } catch {
                throw ClusterError(.local, "\(error)")
            }
            summary.files += updates.count
        }
        do throws(ScanError) {
            _ = try recording?.finish()
        } catch {
            throw ClusterError(.local, "\(error)")
        }
        return summary
    }

    /// Deletes the rows of `paths` from `photoIndex`; how many there were.
    private func remove(_ paths: [FilePath], from photoIndex: PhotoIndex) throws(ScanError) -> Int {
        guard !paths.isEmpty else { return 0 }
        do throws(IndexError) {
            var ids: [Int64] = []
            for path in paths {
                if let id = try photoIndex.file(at: path)?.id { ids.append(id) }
            }
            try photoIndex.delete(ids: ids)
            return ids.count
        } catch {
            throw ScanError(writingIndex: error)
        }
    }

    /// Objects fetched at once: as many as the HTTP client keeps connections to one host.
    static let fetchesAtOnce = 8

    /// Fetches the renditions of `rows` the cache lacks, `fetchesAtOnce` at a time (one after
    /// another, a million photos' renditions took hours of round trips); how many.
    private func fetch(_ rows: [Row], into cache: RenditionCache) async throws(ClusterError) -> Int {
        var wanted: [(object: String, file: FilePath, of: FilePath)] = []
        var seen: Set<String> = []
        for row in rows {
            for object in row.record.renditions?.entries.map(\.object) ?? [] where seen.insert(object).inserted {
                let file = FilePath(cache.root.string + "/" + object)
                if !cache.contains(file) { wanted.append((object, file, row.path)) }
            }
        }
        let store = self.store
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (number, item) in wanted.enumerated() {
                    if number >= Self.fetchesAtOnce { try await group.next() }
                    group.addTask {
                        try await Self.fetch(item.object, from: store, to: item.file, in: cache, of: item.of)
                    }
                }
                try await group.waitForAll()
            }
        } catch let error as ClusterError {
            throw error
        } catch {
            throw ClusterError(.local, "\(error)")
        }
        return wanted.count
    }

    /// Fetches one object into the cache.
    private static func fetch(
        _ object: String, from store: ObjectStore, to file: FilePath, in cache: RenditionCache, of path: FilePath
    ) async throws(ClusterError) {
        let bytes: [UInt8]?
        do throws(ObjectStoreError) {
            bytes = try await store.get(object)
        } catch {
            throw ClusterError(.local, "cannot fetch \(object): \(error)")
        }
        guard let bytes else {
            throw ClusterError(.local, "\(path): its rendition \(object) is not in \(store.location.description)")
        }
        do throws(SystemError) {
            try cache.write(bytes, to: file)
        } catch {
            throw ClusterError(.local, "cannot write \(file): \(error)")
        }
    }

    /// The roots files were found under.
    private func roots() async throws(ClusterError) -> [FilePath] {
        try await index.perform("list the roots") { [logger] connection in
            var roots: [FilePath] = []
            for try await root in try await connection.query(
                "SELECT DISTINCT root FROM files WHERE missing_since IS NULL ORDER BY root", logger: logger
            ).decode(ByteBuffer.self) {
                roots.append(ClusterIndex.path(root))
            }
            return roots
        }
    }

    private struct Row: Sendable {
        var path: FilePath
        var album: FilePath
        var root: FilePath
        var sidecar: SidecarIdentity?
        var record: FileRecord
    }

    private struct Page: Sendable {
        /// The files read.
        var rows: [Row] = []
        /// The files gone missing.
        var removed: [FilePath] = []
        /// How many were not read yet.
        var unread = 0
        /// The last id seen (nil: none left).
        var last: Int64?
    }

    /// The next 1,000 files after id `after` changed by transaction `changedFrom` or later.
    private func page(after: Int64, changedFrom: Int64) async throws(ClusterError) -> Page {
        try await index.perform("read files") { [logger] connection in
            var page = Page()
            for try await row in try await connection.query(
                """
                SELECT id, path, album, root, sidecar_name, sidecar_size, sidecar_mtime_ns, record::text,
                    missing_since IS NOT NULL
                FROM files WHERE id > \(after) AND changed >= \(String(changedFrom))::xid8
                ORDER BY id LIMIT 1000
                """, logger: logger)
            {
                let (id, path, album, root, sidecarName, sidecarSize, sidecarTime, json, missing) = try row.decode(
                    (Int64, ByteBuffer, ByteBuffer, ByteBuffer, ByteBuffer?, Int64?, Int64?, String?, Bool).self)
                page.last = id
                if missing {
                    page.removed.append(ClusterIndex.path(path))
                    continue
                }
                guard let json else {
                    page.unread += 1
                    continue
                }
                let record = try FileRecord.read(Array(json.utf8))
                var sidecar: SidecarIdentity?
                if let sidecarName, let sidecarSize, let sidecarTime {
                    sidecar = SidecarIdentity(
                        name: Array(sidecarName.readableBytesView),
                        stamp: SidecarStamp(size: sidecarSize, mtimeNanoseconds: sidecarTime))
                }
                page.rows.append(
                    Row(
                        path: ClusterIndex.path(path), album: ClusterIndex.path(album),
                        root: ClusterIndex.path(root), sidecar: sidecar, record: record))
            }
            return page
        }
    }
}
