import ArgumentParser
import Foundation
import Logging
import SystemPackage
import TesseraConfiguration
import TesseraDaemon
import TesseraSystem

#if Cluster
import TesseraCluster
import TesseraObjectStore

/// What the commands do when the configuration names a PostgreSQL index (`index_url`): the
/// deployment of docs/SCALE.md.
enum ClusterDeployment {
    static func open(
        _ configuration: Configuration, logger: Logger, patience: Duration = .seconds(600)
    ) async throws -> ClusterIndex {
        guard let url = configuration.indexURL else { throw CLIError("the configuration names no index_url") }
        return try await ClusterIndex.open(
            url: url, environment: ProcessInfo.processInfo.environment, logger: logger, patience: patience)
    }

    /// `open` for a worker: its statements' plans made once.
    static func openForWorker(_ configuration: Configuration, logger: Logger) async throws -> ClusterIndex {
        guard let url = configuration.indexURL else { throw CLIError("the configuration names no index_url") }
        return try await ClusterIndex.open(
            url: url, environment: ProcessInfo.processInfo.environment, logger: logger, reusingPlans: true)
    }

    /// The configuration's `index` file brought up to date from the cluster (with `fetch`, its
    /// renditions fetched into the cache too), for a command that reads an SQLite index.
    static func mirror(_ configuration: Configuration, fetch: Bool) async throws -> Configuration {
        var logger = Logger(label: "tessera")
        logger.logLevel = .notice
        // A command someone waits for: a server away for half a minute is an error to show.
        let index = try await open(configuration, logger: logger, patience: .seconds(30))
        do {
            _ = try await ClusterMirror(
                index: index, store: try objectStore(configuration, logger: logger), configuration: configuration,
                logger: logger
            ).update(configuration.index, renditions: configuration.cache, fetch: fetch, replacing: false)
        } catch {
            await index.close()
            throw error
        }
        await index.close()
        var local = configuration
        local.indexURL = nil
        return local
    }

    static func objectStore(_ configuration: Configuration, logger: Logger) throws -> ObjectStore {
        guard let url = configuration.renditionsURL else {
            throw CLIError("index_url needs renditions_url: the s3://BUCKET/PREFIX that workers store renditions in")
        }
        let environment = ProcessInfo.processInfo.environment
        return ObjectStore(
            location: try ObjectStoreLocation(url: url, environment: environment),
            credentials: try ObjectStoreCredentials.load(
                file: configuration.renditionsCredentials, environment: environment),
            logger: logger)
    }

    /// `tessera scan`: walks and queues; the workers read.
    static func scan(_ configuration: Configuration, roots: [FilePath], json: Bool) async throws {
        let logger = Logger(label: "tessera")
        let index = try await open(configuration, logger: logger)
        do {
            let counts = try await ClusterScan(index: index, configuration: configuration, logger: logger)
                .run(roots: roots)
            await index.close()
            if json {
                try printJSON([
                    "found": counts.found, "queued": counts.queued, "missing": counts.missing,
                    "unreadable": counts.unreadable.count,
                ])
            } else {
                print(
                    "\(counts.found) files found, \(counts.queued) queued for the workers, \(counts.missing) missing"
                        + (counts.unreadable.isEmpty ? "" : ", \(counts.unreadable.count) folders unreadable"))
            }
        } catch {
            await index.close()
            throw error
        }
    }

    /// `tessera prune`: files missing too long, and objects no row names.
    static func prune(_ configuration: Configuration, remove: Bool, graceHours: Int) async throws {
        var logger = Logger(label: "tessera")
        logger.logLevel = .warning
        let index = try await open(configuration, logger: logger)
        let summary: ObjectSweep.Summary
        do {
            summary = try await ObjectSweep(index: index, store: try objectStore(configuration, logger: logger)).run(
                keepMissingDays: configuration.keepMissingDays, grace: .seconds(graceHours * 3600), remove: remove)
        } catch {
            await index.close()
            throw error
        }
        await index.close()
        let what =
            "\(summary.missingFiles) files missing for more than \(configuration.keepMissingDays) days; "
            + "\(summary.orphans) of \(summary.objects) objects no row names, older than \(graceHours) h "
            + "(\(summary.orphanBytes) bytes)"
        print(remove ? "Removed \(what)." : "\(what); to remove them: tessera prune --yes")
    }

    /// `tessera status`: the files, the queue and the workers.
    static func status(_ configuration: Configuration, json: Bool) async throws {
        var logger = Logger(label: "tessera")
        logger.logLevel = .error
        let index = try await open(configuration, logger: logger)
        let status: ClusterStatus
        do {
            status = try await index.status()
        } catch {
            await index.close()
            throw error
        }
        await index.close()
        if json { return try printJSON(status) }
        print(status.text)
    }
}

/// `tessera worker`: reads the files the scans queue, on any machine that sees the photos
/// at the same paths.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Read and render the files a cluster's scans queue (index_url; docs/SCALE.md).",
        discussion: """
            Claims a few files at a time from the PostgreSQL queue, renders them as `tessera scan` does, \
            stores their renditions in the object store (renditions_url) and records them, fenced by its \
            lease: a worker whose lease ran out records nothing. Any number run, on any hosts. SIGTERM or \
            Ctrl-C finishes the file in hand and gives the rest back. Exits 0 when stopped or, with \
            --until-idle, when nothing is pending or leased; 1 when the database or the store stayed away \
            past their patience.
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Exit once no job is pending or leased.")
    var untilIdle = false

    @Option(help: "The worker's name in the queue and in status (default: HOST-PID).")
    var name: String?

    @Option(help: "Jobs claimed at a time.")
    var batch = 4

    @Option(help: "Seconds a claim holds without a heartbeat (renewed every third of it).")
    var lease = 60

    @Option(help: "Claims of one file before it is recorded as failed.")
    var maxAttempts = 3

    @Option(help: "Seconds an idle worker waits before looking for work again, if no scan's notice wakes it first.")
    var poll = 2

    @Flag(help: .hidden)  // bench/cluster.py: the queue alone, each file recorded unread
    var noRender = false

    func run() async throws {
        let onEventLoops = ClusterIndex.runTasksOnEventLoops()
        let configuration = try store.configuration(cluster: true)
        guard (1...1000).contains(batch), (2...86_400).contains(lease), (1...100).contains(maxAttempts),
            (1...3600).contains(poll)
        else {
            throw CLIError("--batch takes 1–1000, --lease 2–86400, --max-attempts 1–100, --poll 1–3600", status: 2)
        }
        LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
        var logger = Logger(label: "tessera-worker")
        logger.logLevel = .notice
        let index = try await ClusterDeployment.openForWorker(configuration, logger: logger)
        var options = ClusterWorker.Options(
            name: name ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)")
        options.batch = batch
        options.lease = .seconds(lease)
        options.maxAttempts = maxAttempts
        options.untilIdle = untilIdle
        options.render = !noRender
        options.poll = .seconds(poll)
        let worker = ClusterWorker(
            index: index, store: try ClusterDeployment.objectStore(configuration, logger: logger),
            configuration: configuration, options: options, logger: logger)
        let interrupt = InterruptSignal(terminate: true) { worker.stop() }
        defer { withExtendedLifetime(interrupt) {} }
        logger.notice("worker \(options.name) started\(onEventLoops ? "" : " (tasks on their own threads)")")
        let summary: ClusterWorker.Summary
        do {
            summary = try await worker.run()
        } catch {
            await index.close()
            throw error
        }
        await index.close()
        logger.notice(
            "worker \(options.name) stopped: \(summary.recorded) recorded (\(summary.failed) failed), \(summary.lost) leases lost, \(summary.returned) given back"
        )
    }
}

/// `tessera export-index`: the cluster's index as the documented SQLite file.
struct ExportIndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-index",
        abstract: "Write a cluster's PostgreSQL index as an SQLite index file (docs/SCALE.md).",
        discussion: """
            The file is the one `tessera scan` writes (docs/INDEX.md), made by the same code from what the \
            workers recorded, with every rendition fetched from the object store into the renditions folder \
            its rows name. A file this wrote before is brought up to date by what changed since. Files not \
            read yet are left out and counted. Exits 0 when written, 1 when not.
            """)

    @OptionGroup var store: StoreOptions

    @Option(
        help: "The SQLite file to write (made whole, then replaced at once; one written before, brought up to date).",
        completion: .file(extensions: ["sqlite"]))
    var out: String

    @Option(help: "Where the renditions go (default: the configuration's 'cache').", completion: .directory)
    var renditions: String?

    func run() async throws {
        let configuration = try store.configuration(cluster: true)
        var logger = Logger(label: "tessera")
        logger.logLevel = .warning
        let index = try await ClusterDeployment.open(configuration, logger: logger)
        let summary: ClusterMirror.Summary
        do {
            summary = try await ClusterMirror(
                index: index, store: try ClusterDeployment.objectStore(configuration, logger: logger),
                configuration: configuration, logger: logger
            ).update(
                FilePath(out), renditions: renditions.map { FilePath($0) } ?? configuration.cache, fetch: true,
                replacing: true)
        } catch {
            await index.close()
            throw error
        }
        await index.close()
        print(
            "\(summary.files) files written to \(out) (\(summary.whole ? "made whole" : "changed since the last export")), "
                + "\(summary.removed) removed, \(summary.fetched) renditions fetched"
                + (summary.unread > 0 ? "; \(summary.unread) files not read yet were left out" : ""))
    }
}
#else
/// Without the Cluster trait, a configuration that names a PostgreSQL index is refused.
enum ClusterDeployment {
    static func scan(_ configuration: Configuration, roots: [FilePath], json: Bool) async throws {
        throw unavailable
    }

    static func status(_ configuration: Configuration, json: Bool) async throws { throw unavailable }

    static func mirror(_ configuration: Configuration, fetch: Bool) async throws -> Configuration {
        throw unavailable
    }

    static func prune(_ configuration: Configuration, remove: Bool, graceHours: Int) async throws {
        throw unavailable
    }

    static var unavailable: CLIError {
        CLIError(
            "index_url names a PostgreSQL index, and this tessera was built without the Cluster trait "
                + "(swift build --traits Cluster; docs/SCALE.md)")
    }
}
#endif

extension Tessera {
    /// The commands of the deployment beyond one machine, in builds that have it.
    static var clusterCommands: [any ParsableCommand.Type] {
        #if Cluster
        [WorkerCommand.self, ExportIndexCommand.self]
        #else
        []
        #endif
    }
}
