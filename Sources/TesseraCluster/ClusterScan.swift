#if Cluster
import Foundation
public import Logging
import NIOCore
import PostgresNIO
public import SystemPackage
public import TesseraConfiguration
import TesseraIndex
import TesseraScan
import TesseraSystem

/// A cluster's scan: walks the roots, records each file in PostgreSQL and queues the ones that
/// are new or changed for the workers; it reads no file itself (docs/SCALE.md).
public struct ClusterScan: Sendable {
    /// What a scan found.
    public struct Counts: Sendable, Equatable {
        public var found = 0
        public var queued = 0
        public var missing = 0
        public var unreadable: [String] = []
    }

    let index: ClusterIndex
    let configuration: Configuration
    let logger: Logger
    /// Files recorded in one statement.
    let batch = 1000

    public init(index: ClusterIndex, configuration: Configuration, logger: Logger) {
        self.index = index
        self.configuration = configuration
        self.logger = logger
    }

    /// Walks `roots` (the configured ones when empty).
    public func run(roots: [FilePath] = []) async throws(ClusterError) -> Counts {
        let roots = (roots.isEmpty ? configuration.roots : roots).map { FileSystem.absolute($0) }
        guard !roots.isEmpty else { throw ClusterError(.configuration, "no folder to scan: give roots") }
        let scanID = try await index.perform("begin a scan") { client in
            var id: Int64 = 0
            for try await value in try await client.query(
                "INSERT INTO scans DEFAULT VALUES RETURNING id", logger: logger
            ).decode(Int64.self) {
                id = value
            }
            return id
        }
        var counts = Counts()
        var complete: [FilePath] = []
        for root in roots {
            guard FileSystem.isReadableDirectory(root) else {
                // An unplugged disk: what is recorded under it stays as it is.
                logger.warning("\(root) is not there (offline?): its files are kept as they are")
                counts.unreadable.append(root.string)
                continue
            }
            if try await walk(root, scanID: scanID, counts: &counts) { complete.append(root) }
        }
        counts.missing = try await markMissing(under: complete, scanID: scanID)
        let finished = counts
        try await index.perform("finish the scan") { client in
            try await client.query(
                """
                UPDATE scans SET finished_at = now(), state = 'finished', found = \(finished.found),
                    queued = \(finished.queued), missing = \(finished.missing)
                WHERE id = \(scanID)
                """, logger: logger)
        }
        if counts.queued > 0 { try await index.notifyJobs() }
        return counts
    }

    private struct Found {
        var path: FilePath
        var album: FilePath
        var identity: FileIdentity
        var sidecar: SidecarIdentity?
    }

    /// Walks one root, recording its files a batch at a time; false when part of it could not
    /// be listed (its missing files are then not marked).
    private func walk(_ root: FilePath, scanID: Int64, counts: inout Counts) async throws(ClusterError) -> Bool {
        let walker = Walker(
            options: .init(
                exclude: configuration.exclude, followSymlinks: configuration.followSymlinks,
                skip: configuration.ownFiles))
        var directory: [Walker.Event] = []
        var pending: [Found] = []
        var whole = true
        var unreadable: [String] = []
        func flushDirectory() {
            let (sidecarOf, stamps) = DirectoryFiles.sidecars(in: directory)
            for case .file(let file) in directory where !DirectoryFiles.isSidecar(file.name) {
                let sidecar = sidecarOf[NameKey(file.name)].flatMap { name in
                    stamps[name].map { SidecarIdentity(name: name.bytes, stamp: $0) }
                }
                pending.append(
                    Found(
                        path: file.path, album: FilePath(rawBytes: file.directory), identity: file.identity,
                        sidecar: sidecar))
            }
            directory.removeAll(keepingCapacity: true)
        }
        // The walk is synchronous; it hands each directory over as it ends.
        var batches: [[Found]] = []
        walker.walk(root) { event in
            switch event {
            case .directory:
                flushDirectory()
                if pending.count >= batch {
                    batches.append(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            case .file: directory.append(event)
            case .unreadable(let path, let reason):
                whole = false
                unreadable.append("\(path): \(reason)")
            case .vanished(let path):
                whole = false
                unreadable.append("\(path): gone")
            }
            return true
        }
        flushDirectory()
        batches.append(pending)
        for batch in batches where !batch.isEmpty {
            counts.found += batch.count
            counts.queued += try await record(batch, root: root, scanID: scanID)
        }
        for line in unreadable { logger.warning("cannot list \(line)") }
        counts.unreadable += unreadable
        return whole
    }

    /// Upserts `files` and queues those new, changed or never read; how many were queued.
    private func record(_ files: [Found], root: FilePath, scanID: Int64) async throws(ClusterError) -> Int {
        let paths = files.map { ClusterIndex.bytes($0.path) }
        let albums = files.map { ClusterIndex.bytes($0.album) }
        let devices = files.map { Int64(bitPattern: $0.identity.device) }
        let inodes = files.map { Int64(bitPattern: $0.identity.inode) }
        let sizes = files.map(\.identity.size)
        let mtimes = files.map(\.identity.mtimeNanoseconds)
        let sidecarNames = files.map { $0.sidecar.map { ByteBuffer(bytes: $0.name) } ?? ByteBuffer() }
        let sidecarSizes = files.map { $0.sidecar?.stamp.size ?? -1 }
        let sidecarTimes = files.map { $0.sidecar?.stamp.mtimeNanoseconds ?? -1 }
        let rootBytes = ClusterIndex.bytes(root)
        let logger = self.logger
        return try await index.transaction("record \(files.count) files") { connection in
            var queued = 0
            for try await count in try await connection.query(
                """
                WITH input AS (
                    SELECT * FROM unnest(\(paths)::bytea[], \(albums)::bytea[], \(devices)::int8[],
                        \(inodes)::int8[], \(sizes)::int8[], \(mtimes)::int8[], \(sidecarNames)::bytea[],
                        \(sidecarSizes)::int8[], \(sidecarTimes)::int8[])
                    AS t(path, album, device, inode, size, mtime_ns, sidecar_name, sidecar_size, sidecar_mtime_ns)),
                cleaned AS (
                    SELECT path, album, device, inode, size, mtime_ns,
                        CASE WHEN sidecar_size < 0 THEN NULL ELSE sidecar_name END AS sidecar_name,
                        CASE WHEN sidecar_size < 0 THEN NULL ELSE sidecar_size END AS sidecar_size,
                        CASE WHEN sidecar_size < 0 THEN NULL ELSE sidecar_mtime_ns END AS sidecar_mtime_ns
                    FROM input),
                upserted AS (
                    INSERT INTO files AS f (path, album, root, device, inode, size, mtime_ns, sidecar_name,
                        sidecar_size, sidecar_mtime_ns, seen_scan)
                    SELECT path, album, \(rootBytes), device, inode, size, mtime_ns, sidecar_name, sidecar_size,
                        sidecar_mtime_ns, \(scanID)
                    FROM cleaned
                    ON CONFLICT (path) DO UPDATE SET
                        generation = f.generation + CASE WHEN
                            (f.device, f.inode, f.size, f.mtime_ns, f.sidecar_name, f.sidecar_size,
                                f.sidecar_mtime_ns)
                            IS DISTINCT FROM (excluded.device, excluded.inode, excluded.size, excluded.mtime_ns,
                                excluded.sidecar_name, excluded.sidecar_size, excluded.sidecar_mtime_ns)
                            THEN 1 ELSE 0 END,
                        album = excluded.album, root = excluded.root, device = excluded.device,
                        inode = excluded.inode, size = excluded.size, mtime_ns = excluded.mtime_ns,
                        sidecar_name = excluded.sidecar_name, sidecar_size = excluded.sidecar_size,
                        sidecar_mtime_ns = excluded.sidecar_mtime_ns, seen_scan = excluded.seen_scan,
                        missing_since = NULL
                    RETURNING f.id, f.generation, f.read_generation),
                queued AS (
                    INSERT INTO jobs (file_id, generation)
                    SELECT id, generation FROM upserted
                    WHERE read_generation IS DISTINCT FROM generation
                    ON CONFLICT (file_id) DO UPDATE SET
                        generation = excluded.generation, state = 'pending', attempts = 0, lease_token = NULL,
                        worker = NULL, lease_until = NULL, reason = NULL, not_before = now(),
                        enqueued_at = now()
                    WHERE jobs.generation <> excluded.generation
                    RETURNING file_id)
                SELECT count(*) FROM queued
                """, logger: logger
            ).decode(Int64.self) {
                queued = Int(count)
            }
            return queued
        }
    }

    /// Marks missing the files under `roots` this scan did not see, and drops their jobs.
    private func markMissing(under roots: [FilePath], scanID: Int64) async throws(ClusterError) -> Int {
        guard !roots.isEmpty else { return 0 }
        let rootBytes = roots.map { ClusterIndex.bytes($0) }
        let logger = self.logger
        return try await index.transaction("mark missing files") { connection in
            var missing = 0
            for try await count in try await connection.query(
                """
                WITH gone AS (
                    UPDATE files SET missing_since = now()
                    WHERE root = ANY(\(rootBytes)::bytea[]) AND seen_scan <> \(scanID) AND missing_since IS NULL
                    RETURNING id),
                dropped AS (DELETE FROM jobs WHERE file_id IN (SELECT id FROM gone) RETURNING file_id)
                SELECT count(*) FROM gone
                """, logger: logger
            ).decode(Int64.self) {
                missing = Int(count)
            }
            return missing
        }
    }
}
#endif
