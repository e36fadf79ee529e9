import Foundation
import Logging
public import SystemPackage
import TesseraCluster
import TesseraConfiguration
import TesseraSystem

/// `tessera worker`: reads the files a cluster's scans queue, on any machine that sees the photos
/// at the same paths, until stopped (SIGTERM, Ctrl-C) or, `untilIdle`, until nothing is pending.
public struct WorkerRequest: Sendable {
    public var untilIdle = false
    /// Its name in the queue and in status (default: HOST-PID).
    public var name: String?
    public var batch = 4
    /// Seconds a claim holds without a heartbeat.
    public var lease = 60
    public var maxAttempts = 3
    /// Seconds an idle worker waits before looking again, if no scan's notice wakes it first.
    public var poll = 2
    /// Each file recorded unread: the queue alone (bench/cluster.py).
    public var render = true

    public init() {}

    public func validate() throws(CommandFailure) {
        guard (1...1000).contains(batch), (2...86_400).contains(lease), (1...100).contains(maxAttempts),
            (1...3600).contains(poll)
        else {
            throw CommandFailure(
                "--batch takes 1–1000, --lease 2–86400, --max-attempts 1–100, --poll 1–3600", status: 2)
        }
    }

    /// Runs the worker; `onEventLoops` says whether its tasks run on SwiftNIO's event loops
    /// (`ClusterIndex.runTasksOnEventLoops`, which the process calls first).
    public func run(in context: CommandContext, onEventLoops: Bool) async throws {
        try validate()
        let configuration = try context.store.configuration(cluster: true)
        var logger = Logger(label: "tessera-worker")
        logger.logLevel = .notice
        var options = ClusterWorker.Options(
            name: name ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)")
        options.batch = batch
        options.lease = .seconds(lease)
        options.maxAttempts = maxAttempts
        options.untilIdle = untilIdle
        options.render = render
        options.poll = .seconds(poll)
        let summary = try await ClusterDeployment.withIndex(configuration, logger: logger, reusingPlans: true) {
            index in
            let worker = ClusterWorker(
                index: index, store: try ClusterDeployment.objectStore(configuration, logger: logger),
                configuration: configuration, options: options, logger: logger)
            let interrupt = InterruptSignal(terminate: true) { worker.stop() }
            defer { withExtendedLifetime(interrupt) {} }
            logger.notice("worker \(options.name) started\(onEventLoops ? "" : " (tasks on their own threads)")")
            return try await worker.run()
        }
        logger.notice(
            """
            worker \(options.name) stopped: \(summary.recorded) recorded (\(summary.failed) failed), \
            \(summary.lost) leases lost, \(summary.returned) given back
            """)
    }
}

/// `tessera export-index`: the cluster's index as the documented SQLite file, with the
/// renditions its rows name; a file written before is brought up to date.
public struct ExportIndexRequest: Sendable {
    public var output: FilePath
    /// Where the renditions go (default: the configuration's `cache`).
    public var renditions: FilePath?

    public init(output: FilePath) {
        self.output = output
    }

    public func run(in context: CommandContext) async throws {
        let configuration = try context.store.configuration(cluster: true)
        var logger = Logger(label: "tessera")
        logger.logLevel = .warning
        let summary = try await ClusterDeployment.withIndex(configuration, logger: logger) { index in
            try await ClusterMirror(
                index: index, store: try ClusterDeployment.objectStore(configuration, logger: logger),
                configuration: configuration, logger: logger
            ).update(output, renditions: renditions ?? configuration.cache, fetch: true, replacing: true)
        }
        context.say(
            "\(summary.files) files written to \(output) "
                + "(\(summary.whole ? "made whole" : "changed since the last export")), "
                + "\(summary.removed) removed, \(summary.fetched) renditions fetched"
                + (summary.unread > 0 ? "; \(summary.unread) files not read yet were left out" : ""))
    }
}
