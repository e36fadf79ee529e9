import Foundation
import NIOCore
import PostgresNIO
import SystemPackage
import TesseraIndex
import TesseraSystem

/// One file to read, as a worker claimed it: held under `token` until the lease ends.
struct ClaimedJob: Sendable {
    var fileID: Int64
    var token: Int64
    var generation: Int64
    /// How many times it was claimed, this time included.
    var attempts: Int
    var path: FilePath
    var albumPath: FilePath
    var root: FilePath
    var identity: FileIdentity
    var sidecar: SidecarIdentity?
}

/// How a commit ended.
enum CommitResult: Sendable, Equatable {
    case recorded
    /// The lease was no longer this worker's (expired, reclaimed, or the file changed since):
    /// nothing was written.
    case leaseLost
}

/// The work queue, in the `jobs` table: claimed with `FOR UPDATE SKIP LOCKED` in one short
/// transaction, held by a lease its worker's heartbeat renews, and recorded in one transaction
/// fenced by the lease's token (docs/SCALE.md "The queue").
extension ClusterIndex {
    /// Records `worker` as running on `host` as process `pid` (again, after a restart).
    func register(worker: String, host: String, pid: Int32) async throws(ClusterError) {
        try await perform("register the worker", answerWithin: Self.workAnswer) { [logger] connection in
            try await connection.query(
                """
                INSERT INTO workers (name, host, pid) VALUES (\(worker), \(host), \(pid))
                ON CONFLICT (name) DO UPDATE SET host = excluded.host, pid = excluded.pid, started_at = now(),
                    seen_at = now(), stopped_at = NULL, done = 0, failed = 0, lost = 0
                """, logger: logger)
        }
    }

    /// Records `worker` as stopped.
    func signOff(worker: String) async throws(ClusterError) {
        try await perform("sign off", answerWithin: Self.workAnswer) { [logger] connection in
            try await connection.query(
                "UPDATE workers SET stopped_at = now() WHERE name = \(worker)", logger: logger)
        }
    }

    /// Claims up to `batch` pending jobs for `worker`, leased for `lease`.
    func claim(worker: String, batch: Int, lease: Duration) async throws(ClusterError) -> [ClaimedJob] {
        let statement = ClaimStatement(batch: Int64(batch), worker: worker, seconds: Self.seconds(lease))
        return try await perform("claim jobs", answerWithin: Self.workAnswer) { [logger] connection in
            var jobs: [ClaimedJob] = []
            for try await job in try await connection.execute(statement, logger: logger) { jobs.append(job) }
            return jobs
        }
    }

    /// The claim, prepared once a connection: pending jobs taken with `FOR UPDATE SKIP LOCKED`
    /// (so workers never wait on each other's rows), leased under one new token, with their files.
    ///
    /// Written so that one plan serves every batch size: the server plans a prepared statement
    /// once unless a plan made for the values at hand looks cheaper, and for an unknown `LIMIT`
    /// it supposes a tenth of the table, so hash joins over whole tables. Planning the claim
    /// each time cost the server more than running it (bench/cluster.py). The rows picked are
    /// updated by their `ctid`s and their files read one by one (`OFFSET 0` keeps that
    /// subquery a loop), whatever their number is supposed to be.
    struct ClaimStatement: PostgresPreparedStatement {
        static let sql = """
            WITH picked AS (
                SELECT ctid FROM jobs
                WHERE state = 'pending' AND not_before <= now()
                ORDER BY file_id LIMIT $1
                FOR UPDATE SKIP LOCKED),
            claimed AS (
                UPDATE jobs SET state = 'leased', lease_token = (SELECT nextval('lease_tokens')), worker = $2,
                    lease_until = now() + make_interval(secs => $3), attempts = jobs.attempts + 1
                WHERE jobs.ctid = ANY(ARRAY(SELECT ctid FROM picked))
                RETURNING jobs.file_id, jobs.lease_token, jobs.generation, jobs.attempts)
            SELECT c.file_id, c.lease_token, c.generation, c.attempts, f.path, f.album, f.root, f.device,
                f.inode, f.size, f.mtime_ns, f.sidecar_name, f.sidecar_size, f.sidecar_mtime_ns
            FROM claimed c CROSS JOIN LATERAL (SELECT * FROM files WHERE files.id = c.file_id OFFSET 0) f
            ORDER BY c.file_id
            """
        typealias Row = ClaimedJob

        var batch: Int64
        var worker: String
        var seconds: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(batch)
            bindings.append(worker)
            bindings.append(seconds)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> ClaimedJob {
            let (id, token, generation, attempts, path, album, root) = try row.decode(
                (Int64, Int64, Int64, Int32, ByteBuffer, ByteBuffer, ByteBuffer).self)
            let columns = row.makeRandomAccess()
            let identity = FileIdentity(
                device: UInt64(bitPattern: try columns[7].decode(Int64.self)),
                inode: UInt64(bitPattern: try columns[8].decode(Int64.self)),
                size: try columns[9].decode(Int64.self),
                mtimeNanoseconds: try columns[10].decode(Int64.self))
            var sidecar: SidecarIdentity?
            if let name = try columns[11].decode(ByteBuffer?.self),
                let size = try columns[12].decode(Int64?.self),
                let mtime = try columns[13].decode(Int64?.self)
            {
                sidecar = SidecarIdentity(
                    name: Array(name.readableBytesView), stamp: SidecarStamp(size: size, mtimeNanoseconds: mtime))
            }
            return ClaimedJob(
                fileID: id, token: token, generation: generation, attempts: Int(attempts),
                path: ClusterIndex.path(path), albumPath: ClusterIndex.path(album), root: ClusterIndex.path(root),
                identity: identity, sidecar: sidecar)
        }
    }

    /// Moves the deadlines of the leases `tokens` on by `lease` from now, and records `worker` as
    /// alive; the tokens still held.
    func renew(tokens: Set<Int64>, worker: String, lease: Duration) async throws(ClusterError) -> Set<Int64> {
        let seconds = Self.seconds(lease)
        let tokens = Array(tokens)
        return try await perform("renew leases", answerWithin: Self.workAnswer) { [logger] connection in
            var held: Set<Int64> = []
            for try await token in try await connection.query(
                """
                WITH seen AS (UPDATE workers SET seen_at = now() WHERE name = \(worker))
                UPDATE jobs SET lease_until = now() + make_interval(secs => \(seconds))
                WHERE lease_token = ANY(\(tokens)::int8[]) AND state = 'leased' AND lease_until > now()
                RETURNING lease_token
                """, logger: logger
            ).decode(Int64.self) {
                held.insert(token)
            }
            return held
        }
    }

    /// Records what `worker` read of `job` and marks the job done, in one transaction, unless the
    /// lease is no longer held (expired, reclaimed, or the file changed since it was claimed).
    func commit(
        _ job: ClaimedJob, record: FileRecord, objects: [(spec: String, key: String)], worker: String
    ) async throws(ClusterError) -> CommitResult {
        let json: String
        do {
            json = String(decoding: try FileRecord.encoder.encode(record), as: UTF8.self)
        } catch {
            throw ClusterError(.local, "cannot encode the record of \(job.path): \(error)")
        }
        let statement = CommitStatement(
            fileID: job.fileID, token: job.token, generation: job.generation, status: record.status.rawValue,
            record: json, worker: worker, device: Int64(bitPattern: record.device),
            inode: Int64(bitPattern: record.inode), size: record.size, mtime: record.mtimeNanoseconds,
            specs: objects.map(\.spec), keys: objects.map(\.key))
        return try await perform("record \(job.path)", answerWithin: Self.workAnswer) { [logger] connection in
            var recorded: Int64 = 0
            for try await count in try await connection.execute(statement, logger: logger) { recorded = count }
            return recorded == 1 ? .recorded : .leaseLost
        }
    }

    /// A worker's commit: one statement, prepared once a connection.
    ///
    /// One statement is one round trip and a transaction of its own. The fence: the job is still
    /// this lease's, unexpired, and for the file's present generation; everything else writes only
    /// what the fence let through. bench/cluster.py runs the same statement in pgbench.
    struct CommitStatement: PostgresPreparedStatement {
        static let sql = """
            WITH fenced AS (
                DELETE FROM jobs USING files
                WHERE jobs.file_id = $1 AND jobs.lease_token = $2 AND jobs.state = 'leased'
                    AND jobs.lease_until > now() AND files.id = jobs.file_id AND files.generation = $3
                RETURNING jobs.file_id),
            recorded AS (
                UPDATE files SET status = $4, record = $5::jsonb, read_at = now(), read_by = $6,
                    read_generation = generation, device = $7, inode = $8, size = $9, mtime_ns = $10
                WHERE id IN (SELECT file_id FROM fenced) RETURNING id),
            made AS (SELECT spec, object_key FROM unnest($11::text[], $12::text[]) AS t(spec, object_key)),
            dropped AS (
                DELETE FROM renditions WHERE file_id IN (SELECT id FROM recorded) AND spec <> ALL($11::text[])),
            stored AS (
                INSERT INTO renditions (file_id, spec, object_key)
                SELECT recorded.id, made.spec, made.object_key FROM recorded, made
                ON CONFLICT (file_id, spec) DO UPDATE SET object_key = excluded.object_key),
            counted AS (
                UPDATE workers SET done = done + 1, seen_at = now()
                WHERE name = $6 AND EXISTS (SELECT 1 FROM recorded))
            SELECT count(*) FROM recorded
            """
        typealias Row = Int64

        var fileID: Int64
        var token: Int64
        var generation: Int64
        var status: String
        var record: String
        var worker: String
        var device: Int64
        var inode: Int64
        var size: Int64
        var mtime: Int64
        var specs: [String]
        var keys: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 12)
            bindings.append(fileID)
            bindings.append(token)
            bindings.append(generation)
            bindings.append(status)
            bindings.append(record)
            bindings.append(worker)
            bindings.append(device)
            bindings.append(inode)
            bindings.append(size)
            bindings.append(mtime)
            bindings.append(specs)
            bindings.append(keys)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// Gives `job` back to the queue, to be tried again after `delay` (a transient failure), or
    /// records it as failed with `reason` once it has been tried `maxAttempts` times.
    func release(
        _ job: ClaimedJob, reason: String, delay: Duration, maxAttempts: Int, worker: String
    ) async throws(ClusterError) {
        if job.attempts >= maxAttempts {
            _ = try await fail(job, reason: "\(reason) (tried \(job.attempts) times)", worker: worker)
            return
        }
        let seconds = Self.seconds(delay)
        try await perform("give back \(job.path)", answerWithin: Self.workAnswer) { [logger] connection in
            try await connection.query(
                """
                UPDATE jobs SET state = 'pending', lease_token = NULL, worker = NULL, lease_until = NULL,
                    reason = \(reason), not_before = now() + make_interval(secs => \(seconds))
                WHERE file_id = \(job.fileID) AND lease_token = \(job.token) AND state = 'leased'
                """, logger: logger)
        }
    }

    /// Drops `job`, whose file is gone, and marks the file missing, as a walk would have.
    func dropVanished(_ job: ClaimedJob) async throws(ClusterError) {
        try await perform("drop \(job.path)", answerWithin: Self.workAnswer) { [logger] connection in
            try await connection.query(
                """
                WITH dropped AS (
                    DELETE FROM jobs WHERE file_id = \(job.fileID) AND lease_token = \(job.token)
                        AND state = 'leased' RETURNING file_id)
                UPDATE files SET missing_since = now() WHERE id IN (SELECT file_id FROM dropped)
                """, logger: logger)
        }
    }

    /// Records `job`'s file as failed with `reason` (the job stays, failed, for status to show).
    func fail(_ job: ClaimedJob, reason: String, worker: String) async throws(ClusterError) -> CommitResult {
        let json: String
        do {
            json = String(
                decoding: try FileRecord.encoder.encode(FileRecord(crashed: job.identity, reason: reason)),
                as: UTF8.self)
        } catch {
            throw ClusterError(.local, "cannot encode the record of \(job.path): \(error)")
        }
        let logger = self.logger
        return try await transaction("record \(job.path) as failed", answerWithin: Self.workAnswer) { connection in
            var fenced = false
            for try await _ in try await connection.query(
                """
                UPDATE jobs SET state = 'failed', reason = \(reason), lease_token = NULL, lease_until = NULL
                WHERE file_id = \(job.fileID) AND lease_token = \(job.token) AND state = 'leased'
                RETURNING file_id
                """, logger: logger)
            {
                fenced = true
            }
            guard fenced else { return .leaseLost }
            try await connection.query(
                """
                UPDATE files SET status = 'failed', record = \(json)::jsonb, read_at = now(), read_by = \(worker),
                    read_generation = generation
                WHERE id = \(job.fileID)
                """, logger: logger)
            try await connection.query(
                "UPDATE workers SET failed = failed + 1 WHERE name = \(worker)", logger: logger)
            return .recorded
        }
    }

    /// Returns the jobs whose lease expired to the queue, or records them as failed.
    ///
    /// Their worker died, hung or was cut off; a job claimed `maxAttempts` times is a file that
    /// stops every worker that reads it. How many were returned and failed.
    func reclaimExpired(maxAttempts: Int) async throws(ClusterError) -> (returned: Int, failed: Int) {
        let logger = self.logger
        let expired = try await transaction("reclaim expired leases", answerWithin: Self.workAnswer) {
            connection -> [(Int64, Int32, String?)] in
            var rows: [(Int64, Int32, String?)] = []
            for try await row in try await connection.query(
                """
                SELECT file_id, attempts, worker FROM jobs
                WHERE state = 'leased' AND lease_until < now()
                ORDER BY file_id LIMIT 10000 FOR UPDATE SKIP LOCKED
                """, logger: logger
            ).decode((Int64, Int32, String?).self) {
                rows.append(row)
            }
            let ids = rows.map(\.0)
            guard !ids.isEmpty else { return rows }
            try await connection.query(
                """
                UPDATE workers SET lost = lost + counted.n
                FROM (SELECT worker, count(*) AS n FROM jobs WHERE file_id = ANY(\(ids)) GROUP BY worker) counted
                WHERE workers.name = counted.worker
                """, logger: logger)
            let reason = "the workers reading it stopped \(maxAttempts) times (crashed, killed or cut off)"
            try await connection.query(
                """
                UPDATE files SET status = 'failed', read_at = now(), read_generation = generation,
                    record = jsonb_build_object(
                        'status', 'failed', 'device', device, 'inode', inode, 'size', size,
                        'mtimeNanoseconds', mtime_ns, 'warnings', '[]'::jsonb,
                        'failure', jsonb_build_object('format', 'unsupported', 'code', 'crashed',
                            'message', \(reason)))
                WHERE id IN (SELECT file_id FROM jobs WHERE file_id = ANY(\(ids)) AND attempts >= \(maxAttempts))
                """, logger: logger)
            try await connection.query(
                """
                UPDATE jobs SET
                    state = CASE WHEN attempts >= \(maxAttempts) THEN 'failed' ELSE 'pending' END,
                    reason = CASE WHEN attempts >= \(maxAttempts) THEN \(reason)
                        ELSE 'its lease expired (worker ' || coalesce(worker, '?') || ')' END,
                    lease_token = NULL, lease_until = NULL, worker = NULL, not_before = now()
                WHERE file_id = ANY(\(ids))
                """, logger: logger)
            return rows
        }
        let failed = expired.filter { Int($0.1) >= maxAttempts }.count
        return (expired.count - failed, failed)
    }

    /// Jobs waiting and jobs leased.
    func outstanding() async throws(ClusterError) -> (pending: Int, leased: Int) {
        try await perform("count jobs", answerWithin: Self.workAnswer) { [logger] connection in
            var counts = (pending: 0, leased: 0)
            for try await (pending, leased) in try await connection.query(
                """
                SELECT count(*) FILTER (WHERE state = 'pending'), count(*) FILTER (WHERE state = 'leased')
                FROM jobs
                """, logger: logger
            ).decode((Int64, Int64).self) {
                counts = (Int(pending), Int(leased))
            }
            return counts
        }
    }

    static func path(_ buffer: ByteBuffer) -> FilePath { FilePath(rawBytes: Array(buffer.readableBytesView)) }

    static func bytes(_ path: FilePath) -> ByteBuffer { ByteBuffer(bytes: path.rawBytes) }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, fraction) = duration.components
        return Double(whole) + Double(fraction) / 1e18
    }
}
