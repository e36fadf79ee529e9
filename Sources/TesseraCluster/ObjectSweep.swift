import Foundation
import PostgresNIO
public import TesseraObjectStore

/// The cluster's prune: files missing past `keep_missing_days` leave the index, and objects no
/// row names leave the store once older than a grace period (docs/SCALE.md "Pruning").
///
/// The grace period is what keeps a worker's renditions stored but not yet recorded: the sweep
/// never sees the queue, only the objects' ages.
public struct ObjectSweep: Sendable {
    /// What a sweep found, and removed when asked.
    public struct Summary: Sendable, Equatable {
        public var missingFiles = 0
        public var objects = 0
        public var orphans = 0
        public var orphanBytes: Int64 = 0
        public var removed = false
    }

    let index: ClusterIndex
    let store: ObjectStore

    public init(index: ClusterIndex, store: ObjectStore) {
        self.index = index
        self.store = store
    }

    /// Counts (and with `remove`, removes) files missing for more than `keepMissingDays` and
    /// objects no row names that are older than `grace`.
    public func run(keepMissingDays: Int, grace: Duration, remove: Bool) async throws(ClusterError) -> Summary {
        var summary = Summary(removed: remove)
        let days = keepMissingDays
        summary.missingFiles = try await index.perform("prune missing files") { [logger = index.logger] connection in
            let query: PostgresQuery =
                remove
                ? """
                WITH gone AS (DELETE FROM files WHERE missing_since < now() - make_interval(days => \(days)::int)
                    RETURNING changed),
                -- For local files brought up to date (ClusterMirror): one that has not seen these
                -- rows' last change never will.
                noted AS (UPDATE cluster SET pruned_through = greatest(pruned_through, (SELECT max(changed) FROM gone))
                    WHERE EXISTS (SELECT 1 FROM gone))
                SELECT count(*) FROM gone
                """
                : "SELECT count(*) FROM files WHERE missing_since < now() - make_interval(days => \(days)::int)"
            var count = 0
            for try await value in try await connection.query(query, logger: logger).decode(Int64.self) {
                count = Int(value)
            }
            return count
        }
        let cutoff = Date().addingTimeInterval(-ClusterIndex.seconds(grace))
        var failure: ClusterError?
        do throws(ObjectStoreError) {
            try await store.list { (page) throws(ObjectStoreError) -> Bool in
                summary.objects += page.count
                let old = page.filter { ($0.lastModified ?? .distantFuture) < cutoff }
                guard !old.isEmpty else { return true }
                let named: Set<String>
                do throws(ClusterError) {
                    named = try await index.namedObjects(among: old.map(\.key))
                } catch {
                    failure = error
                    return false
                }
                for entry in old where !named.contains(entry.key) {
                    summary.orphans += 1
                    summary.orphanBytes += entry.size
                    if remove { try await store.delete(entry.key) }
                }
                return true
            }
        } catch {
            throw ClusterError(.store, "cannot sweep \(store.location.description): \(error)")
        }
        if let failure { throw failure }
        return summary
    }
}

extension ClusterIndex {
    /// Which of `keys` a rendition row names.
    func namedObjects(among keys: [String]) async throws(ClusterError) -> Set<String> {
        try await perform("look up objects") { [logger] connection in
            var named: Set<String> = []
            for try await key in try await connection.query(
                "SELECT DISTINCT object_key FROM renditions WHERE object_key = ANY(\(keys)::text[])", logger: logger
            ).decode(String.self) {
                named.insert(key)
            }
            return named
        }
    }
}
