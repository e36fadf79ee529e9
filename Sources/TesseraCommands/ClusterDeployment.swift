import Foundation
import Logging
import SystemPackage
import TesseraCluster
import TesseraConfiguration
import TesseraDaemon
import TesseraObjectStore
import TesseraSystem

/// What the commands do when the configuration names a PostgreSQL index (`index_url`): the
/// deployment of docs/SCALE.md.
enum ClusterDeployment {
    /// Runs `body` with the cluster's index open, and closes it on every path.
    ///
    /// `reusingPlans`: for a worker, whose statements differ only in their values.
    static func withIndex<T>(
        _ configuration: Configuration, logger: Logger, patience: Duration = .seconds(600),
        reusingPlans: Bool = false, _ body: (ClusterIndex) async throws -> T
    ) async throws -> T {
        guard let url = configuration.indexURL else { throw CommandFailure("the configuration names no index_url") }
        let index = try await ClusterIndex.open(
            url: url, environment: ProcessInfo.processInfo.environment, logger: logger, patience: patience,
            reusingPlans: reusingPlans)
        do {
            let result = try await body(index)
            await index.close()
            return result
        } catch {
            await index.close()
            throw error
        }
    }

    /// The configuration's `index` file brought up to date from the cluster (with `fetch`, its
    /// renditions fetched into the cache too), for a command that reads an SQLite index.
    static func mirror(_ configuration: Configuration, fetch: Bool) async throws -> Configuration {
        var logger = Logger(label: "tessera")
        logger.logLevel = .notice
        // A command someone waits for: a server away for half a minute is an error to show.
        _ = try await withIndex(configuration, logger: logger, patience: .seconds(30)) { index in
            try await ClusterMirror(
                index: index, store: try objectStore(configuration, logger: logger), configuration: configuration,
                logger: logger
            ).update(configuration.index, renditions: configuration.cache, fetch: fetch, replacing: false)
        }
        var local = configuration
        local.indexURL = nil
        return local
    }

    static func objectStore(_ configuration: Configuration, logger: Logger) throws -> ObjectStore {
        guard let url = configuration.renditionsURL else {
            throw CommandFailure(
                "index_url needs renditions_url: the s3://BUCKET/PREFIX that workers store renditions in")
        }
        let environment = ProcessInfo.processInfo.environment
        return ObjectStore(
            location: try ObjectStoreLocation(url: url, environment: environment),
            credentials: try ObjectStoreCredentials.load(
                file: configuration.renditionsCredentials, environment: environment),
            logger: logger)
    }

    /// `tessera scan`: walks and queues; the workers read.
    static func scan(
        _ configuration: Configuration, roots: [FilePath], json: Bool, in context: CommandContext
    ) async throws {
        let logger = Logger(label: "tessera")
        let counts = try await withIndex(configuration, logger: logger) { index in
            try await ClusterScan(index: index, configuration: configuration, logger: logger).run(roots: roots)
        }
        if json {
            return try context.json([
                "found": counts.found, "queued": counts.queued, "missing": counts.missing,
                "unreadable": counts.unreadable.count,
            ])
        }
        context.say(
            "\(counts.found) files found, \(counts.queued) queued for the workers, \(counts.missing) missing"
                + (counts.unreadable.isEmpty ? "" : ", \(counts.unreadable.count) folders unreadable"))
    }

    /// `tessera prune`: files missing too long, and objects no row names.
    static func prune(
        _ configuration: Configuration, remove: Bool, graceHours: Int, in context: CommandContext
    ) async throws {
        var logger = Logger(label: "tessera")
        logger.logLevel = .warning
        let summary = try await withIndex(configuration, logger: logger) { index in
            try await ObjectSweep(index: index, store: try objectStore(configuration, logger: logger)).run(
                keepMissingDays: configuration.keepMissingDays, grace: .seconds(graceHours * 3600), remove: remove)
        }
        let what =
            "\(summary.missingFiles) files missing for more than \(configuration.keepMissingDays) days; "
            + "\(summary.orphans) of \(summary.objects) objects no row names, older than \(graceHours) h "
            + "(\(summary.orphanBytes) bytes)"
        context.say(remove ? "Removed \(what)." : "\(what); to remove them: tessera prune --yes")
    }

    /// `tessera status`: the files, the queue and the workers.
    static func status(_ configuration: Configuration, json: Bool, in context: CommandContext) async throws {
        var logger = Logger(label: "tessera")
        logger.logLevel = .warning
        // Someone waits for it: a server away for half a minute is an error to show.
        let status = try await withIndex(configuration, logger: logger, patience: .seconds(30)) { index in
            try await index.status()
        }
        if json { return try context.json(status) }
        context.say(status.text)
    }
}
