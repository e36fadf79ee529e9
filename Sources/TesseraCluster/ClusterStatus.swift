import Foundation
import PostgresNIO

/// What `tessera status` shows of a cluster: its files, its queue and its workers.
public struct ClusterStatus: Sendable, Codable, Equatable {
    public struct Worker: Sendable, Codable, Equatable {
        public var name: String
        public var host: String
        public var pid: Int
        /// Seconds since it was last heard from.
        public var silentFor: Double
        public var stopped: Bool
        public var leased: Int
        public var done: Int
        public var failed: Int
        /// Jobs whose lease it let expire.
        public var lost: Int
    }

    public var database: String
    public var files = 0
    public var ok = 0
    public var failed = 0
    public var unsupported = 0
    public var missing = 0
    public var pending = 0
    /// Pending but waiting out a backoff after a transient failure.
    public var deferred = 0
    public var leased = 0
    /// Leased past their deadline, to be reclaimed.
    public var expired = 0
    public var failedJobs = 0
    public var workers: [Worker] = []
    public var lastScan: String?

    public var text: String {
        var lines = [
            "index: \(database)",
            "files: \(files) (\(ok) read, \(failed) failed, \(unsupported) not photos, \(missing) missing)",
            "queue: \(pending) pending" + (deferred > 0 ? " (\(deferred) waiting to be tried again)" : "")
                + ", \(leased) leased" + (expired > 0 ? " (\(expired) expired)" : "") + ", \(failedJobs) failed",
        ]
        if let lastScan { lines.append("last scan: \(lastScan)") }
        for worker in workers {
            let state =
                worker.stopped
                ? "stopped" : worker.silentFor > 60 ? "silent for \(Int(worker.silentFor)) s" : "running"
            lines.append(
                "worker \(worker.name) on \(worker.host) (pid \(worker.pid)): \(state), \(worker.leased) leased, "
                    + "\(worker.done) done, \(worker.failed) failed, \(worker.lost) leases lost")
        }
        return lines.joined(separator: "\n")
    }
}

extension ClusterIndex {
    public func status() async throws(ClusterError) -> ClusterStatus {
        try await perform("read the status") { [address, logger] connection in
            var status = ClusterStatus(database: address)
            for try await (files, ok, failed, unsupported, missing) in try await connection.query(
                """
                SELECT count(*), count(*) FILTER (WHERE status = 'ok' AND missing_since IS NULL),
                    count(*) FILTER (WHERE status = 'failed' AND missing_since IS NULL),
                    count(*) FILTER (WHERE status = 'unsupported' AND missing_since IS NULL),
                    count(*) FILTER (WHERE missing_since IS NOT NULL)
                FROM files
                """, logger: logger
            ).decode((Int64, Int64, Int64, Int64, Int64).self) {
                (status.files, status.ok, status.failed) = (Int(files), Int(ok), Int(failed))
                (status.unsupported, status.missing) = (Int(unsupported), Int(missing))
            }
            for try await (pending, deferred, leased, expired, failed) in try await connection.query(
                """
                SELECT count(*) FILTER (WHERE state = 'pending'),
                    count(*) FILTER (WHERE state = 'pending' AND not_before > now()),
                    count(*) FILTER (WHERE state = 'leased'),
                    count(*) FILTER (WHERE state = 'leased' AND lease_until < now()),
                    count(*) FILTER (WHERE state = 'failed')
                FROM jobs
                """, logger: logger
            ).decode((Int64, Int64, Int64, Int64, Int64).self) {
                (status.pending, status.deferred, status.leased) = (Int(pending), Int(deferred), Int(leased))
                (status.expired, status.failedJobs) = (Int(expired), Int(failed))
            }
            for try await (name, host, pid, silent, stopped, leased, done, failed, lost) in try await connection.query(
                """
                SELECT w.name, w.host, w.pid, extract(epoch FROM now() - w.seen_at)::float8,
                    w.stopped_at IS NOT NULL,
                    (SELECT count(*) FROM jobs j WHERE j.worker = w.name AND j.state = 'leased'),
                    w.done, w.failed, w.lost
                FROM workers w ORDER BY w.name
                """, logger: logger
            ).decode((String, String, Int32, Double, Bool, Int64, Int64, Int64, Int64).self) {
                status.workers.append(
                    .init(
                        name: name, host: host, pid: Int(pid), silentFor: silent, stopped: stopped,
                        leased: Int(leased), done: Int(done), failed: Int(failed), lost: Int(lost)))
            }
            for try await (id, state, found, queued, missing) in try await connection.query(
                "SELECT id, state, found, queued, missing FROM scans ORDER BY id DESC LIMIT 1", logger: logger
            ).decode((Int64, String, Int64, Int64, Int64).self) {
                status.lastScan = "#\(id) \(state): \(found) files found, \(queued) queued, \(missing) missing"
            }
            return status
        }
    }
}
