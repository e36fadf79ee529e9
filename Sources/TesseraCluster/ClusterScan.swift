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
        let scanID = try await index.perform("begin a scan") { connection in
            var id: Int64 = 0
            for try await value in try await connection.query(
                "INSERT INTO scans DEFAULT VALUES RETURNING id", logger: logger
            ).decode(Int64.self) {
                id = value
            }
            return id
        }
        var counts = Counts()
        for root in roots {
            guard FileSystem.isReadableDirectory(root) else {
                // An unplugged disk: what is recorded under it stays as it is.
                logger.warning("\(root) is not there (offline?): its files are kept as they are")
                counts.unreadable.append(root.string)
                continue
            }
            try await walk(root, counts: &counts)
        }
        let finished = counts
        try await index.perform("finish the scan") { connection in
            try await connection.query(
                """
                UPDATE scans SET finished_at = now(), state = 'finished', found = \(finished.found),
                    queued = \(finished.queued), missing = \(finished.missing)
                WHERE id = \(scanID)
                """, logger: logger)
        }
        if counts.queued > 0 { try await index.notifyJobs() }
        return counts
    }

    private struct Found: Sendable {
        var path: FilePath
        var album: FilePath
        var identity: FileIdentity
        var sidecar: SidecarIdentity?
    }

    /// Whole directories of a walk, handed over together.
    private struct Batch: Sendable {
        var files: [Found] = []
        /// The directories listed without a problem, by their paths' bytes: their files are all in
        /// `files`, so their rows that are not are missing.
        var listed: [[UInt8]] = []
        /// The device each of `listed` is on.
        var listedDevices: [Int64] = []
        /// Every directory listed (its rows stay where it was not listed at all).
        var seen: [[UInt8]] = []
        /// What could not be listed or read.
        var problems: [String] = []
    }

    /// Walks one root, recording its files a batch of whole directories at a time.
    ///
    /// As one machine's walk does, a directory's rows are compared with what is found in it, and
    /// only what differs is written. When the whole root was listed, the rows of directories gone
    /// are marked missing too.
    private func walk(_ root: FilePath, counts: inout Counts) async throws(ClusterError) {
        let walker = Walker(
            options: .init(
                exclude: configuration.exclude, followSymlinks: configuration.followSymlinks,
                skip: configuration.ownFiles))
        // The walk blocks: it runs on a thread of its own while the batches before are recorded.
        let batches = BoundedQueue<Batch>(capacity: 4)
        let size = batch
        let walking = DedicatedThread.start("walk") {
            var current = Batch()
            var entries: [Walker.Event] = []
            var directory: (bytes: [UInt8], device: UInt64)?
            var incomplete = false
            func flush() {
                guard let (listed, device) = directory else { return }
                let (sidecarOf, stamps) = DirectoryFiles.sidecars(in: entries)
                for case .file(let file) in entries where !DirectoryFiles.isSidecar(file.name) {
                    let sidecar = sidecarOf[NameKey(file.name)].flatMap { name in
                        stamps[name].map { SidecarIdentity(name: name.bytes, stamp: $0) }
                    }
                    current.files.append(
                        Found(
                            path: file.path, album: FilePath(rawBytes: file.directory), identity: file.identity,
                            sidecar: sidecar))
                }
                current.seen.append(listed)
                if !incomplete {
                    current.listed.append(listed)
                    current.listedDevices.append(Int64(bitPattern: device))
                }
                (entries, directory, incomplete) = ([], nil, false)
            }
            walker.walk(root) { event in
                switch event {
                case .directory(_, let bytes, let device):
                    flush()
                    if current.files.count >= size {
                        guard batches.push(current) else { return false }
                        current = Batch()
                    }
                    directory = (bytes, device)
                case .file: entries.append(event)
                case .unreadable(let path, let reason):
                    // An entry of the directory in hand (or one of its folders): its rows stay as they are.
                    incomplete = true
                    current.problems.append("\(path): \(reason)")
                case .vanished(let path):
                    incomplete = true
                    current.problems.append("\(path): gone")
                }
                return true
            }
            flush()
            _ = batches.push(current)
            batches.close()
        }
        var seen: [ByteBuffer] = []
        var devices: Set<Int64> = []
        var whole = true
        while let batch = await DedicatedThread.run("walk results", { batches.pop() }) {
            counts.found += batch.files.count
            let (queued, missing) = try await record(batch, root: root)
            counts.queued += queued
            counts.missing += missing
            seen += batch.seen.map { ByteBuffer(bytes: $0) }
            devices.formUnion(batch.listedDevices)
            for line in batch.problems { logger.warning("cannot list \(line)") }
            counts.unreadable += batch.problems
            whole = whole && batch.problems.isEmpty
        }
        walking.join()
        if whole { counts.missing += try await markMissing(under: root, outside: seen, on: Array(devices)) }
    }

    /// Records one batch of whole directories, writing only what differs.
    ///
    /// It upserts the files that are new, changed, back or not read yet, queues those whose present
    /// generation has no record, and marks missing the rows of the batch's directories that were not
    /// found. How many were queued and marked missing.
    private func record(_ batch: Batch, root: FilePath) async throws(ClusterError) -> (Int, Int) {
        let files = batch.files
        var binds = PostgresBindings(capacity: 12)
        binds.append(files.map { ClusterIndex.bytes($0.path) })
        binds.append(files.map { ClusterIndex.bytes($0.album) })
        binds.append(files.map { Int64(bitPattern: $0.identity.device) })
        binds.append(files.map { Int64(bitPattern: $0.identity.inode) })
        binds.append(files.map(\.identity.size))
        binds.append(files.map(\.identity.mtimeNanoseconds))
        binds.append(files.map { $0.sidecar.map { ByteBuffer(bytes: $0.name) } ?? ByteBuffer() })
        binds.append(files.map { $0.sidecar?.stamp.size ?? -1 })
        binds.append(files.map { $0.sidecar?.stamp.mtimeNanoseconds ?? -1 })
        binds.append(ClusterIndex.bytes(root))
        binds.append(batch.listed.map { ByteBuffer(bytes: $0) })
        binds.append(batch.listedDevices)
        let query = PostgresQuery(unsafeSQL: Self.recordStatement, binds: binds)
        let logger = self.logger
        return try await index.transaction("record \(files.count) files") { connection in
            var counts = (0, 0)
            for try await (queued, missing) in try await connection.query(query, logger: logger)
                .decode((Int64, Int64).self)
            {
                counts = (Int(queued), Int(missing))
            }
            return counts
        }
    }

    /// What `record` runs, in one transaction: $1 to $9 the files' paths, albums, devices,
    /// inodes, sizes, mtimes and sidecars' names, sizes and mtimes (a size of -1: none), $10 the
    /// root, $11 and $12 the directories listed and their devices.
    static let recordStatement = """
        WITH input AS (
            SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::int8[],
                $4::int8[], $5::int8[], $6::int8[], $7::bytea[],
                $8::int8[], $9::int8[])
            AS t(path, album, device, inode, size, mtime_ns, sidecar_name, sidecar_size, sidecar_mtime_ns)),
        cleaned AS (
            SELECT path, album, device, inode, size, mtime_ns,
                CASE WHEN sidecar_size < 0 THEN NULL ELSE sidecar_name END AS sidecar_name,
                CASE WHEN sidecar_size < 0 THEN NULL ELSE sidecar_size END AS sidecar_size,
                CASE WHEN sidecar_size < 0 THEN NULL ELSE sidecar_mtime_ns END AS sidecar_mtime_ns
            FROM input),
        -- A path whose file (device, inode, size, time, sidecar) another row has read: moved,
        -- renamed or linked. New, it takes that row's record and renditions instead of being
        -- read again.
        moved AS (
            SELECT c.path, o.id AS source, o.record, o.status, o.read_at, o.read_by
            FROM cleaned c CROSS JOIN LATERAL (
                SELECT o.id, o.record, o.status, o.read_at, o.read_by FROM files o
                WHERE o.device = c.device AND o.inode = c.inode AND o.size = c.size
                    AND o.mtime_ns = c.mtime_ns AND o.path <> c.path AND o.record IS NOT NULL
                    AND o.read_generation = o.generation
                    AND (o.sidecar_name, o.sidecar_size, o.sidecar_mtime_ns)
                        IS NOT DISTINCT FROM (c.sidecar_name, c.sidecar_size, c.sidecar_mtime_ns)
                ORDER BY o.id DESC LIMIT 1) o),
        upserted AS (
            INSERT INTO files AS f (path, album, root, device, inode, size, mtime_ns, sidecar_name,
                sidecar_size, sidecar_mtime_ns, record, status, read_generation, read_at, read_by)
            SELECT c.path, c.album, $10, c.device, c.inode, c.size, c.mtime_ns, c.sidecar_name,
                c.sidecar_size, c.sidecar_mtime_ns, m.record, m.status,
                CASE WHEN m.source IS NULL THEN NULL ELSE 1 END, m.read_at, m.read_by
            FROM cleaned c LEFT JOIN moved m ON m.path = c.path
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
                sidecar_mtime_ns = excluded.sidecar_mtime_ns, missing_since = NULL
            -- As it was: no write.
            WHERE (f.device, f.inode, f.size, f.mtime_ns, f.sidecar_name, f.sidecar_size,
                    f.sidecar_mtime_ns, f.album, f.root)
                IS DISTINCT FROM (excluded.device, excluded.inode, excluded.size, excluded.mtime_ns,
                    excluded.sidecar_name, excluded.sidecar_size, excluded.sidecar_mtime_ns, excluded.album,
                    excluded.root)
                OR f.missing_since IS NOT NULL OR f.read_generation IS DISTINCT FROM f.generation
            RETURNING f.id, f.generation, f.read_generation, f.path, f.xmax = 0 AS inserted),
        adopted AS (
            INSERT INTO renditions (file_id, spec, object_key)
            SELECT u.id, r.spec, r.object_key
            FROM upserted u JOIN moved m ON m.path = u.path JOIN renditions r ON r.file_id = m.source
            WHERE u.inserted
            ON CONFLICT DO NOTHING),
        queued AS (
            INSERT INTO jobs (file_id, generation)
            SELECT id, generation FROM upserted
            WHERE read_generation IS DISTINCT FROM generation
            ON CONFLICT (file_id) DO UPDATE SET
                generation = excluded.generation, state = 'pending', attempts = 0, lease_token = NULL,
                worker = NULL, lease_until = NULL, reason = NULL, not_before = now(),
                enqueued_at = now()
            WHERE jobs.generation <> excluded.generation
            RETURNING file_id),
        gone AS (
            UPDATE files SET missing_since = now()
            WHERE missing_since IS NULL
                AND NOT EXISTS (SELECT 1 FROM input WHERE input.path = files.path)
                -- Only on the device the directory is on now: a disk unmounted below a root
                -- leaves its mount point listed, empty, on another device.
                AND EXISTS (
                    SELECT 1 FROM unnest($11::bytea[], $12::int8[]) AS l(album, device)
                    WHERE l.album = files.album AND l.device = files.device)
            RETURNING id),
        dropped AS (DELETE FROM jobs WHERE file_id IN (SELECT id FROM gone))
        SELECT (SELECT count(*) FROM queued), (SELECT count(*) FROM gone)
        """

    /// Marks missing the files under `root` in directories the walk did not list (deleted, or
    /// moved away), and drops their jobs.
    ///
    /// Only files on a device the walk met: those of a disk unmounted below the root are kept.
    private func markMissing(
        under root: FilePath, outside seen: [ByteBuffer], on devices: [Int64]
    ) async throws(ClusterError) -> Int {
        let rootBytes = ClusterIndex.bytes(root)
        let logger = self.logger
        return try await index.transaction("mark missing files") { connection in
            var missing = 0
            for try await count in try await connection.query(
                """
                WITH gone AS (
                    UPDATE files SET missing_since = now()
                    WHERE root = \(rootBytes) AND missing_since IS NULL AND device = ANY(\(devices)::int8[])
                        AND NOT EXISTS (SELECT 1 FROM unnest(\(seen)::bytea[]) AS s(album) WHERE s.album = files.album)
                    RETURNING id),
                dropped AS (DELETE FROM jobs WHERE file_id IN (SELECT id FROM gone))
                SELECT count(*) FROM gone
                """, logger: logger
            ).decode(Int64.self) {
                missing = Int(count)
            }
            return missing
        }
    }
}
