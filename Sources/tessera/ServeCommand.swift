import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SystemPackage
import TesseraIndex
import TesseraConfiguration
import TesseraScan
import TesseraDaemon
import UnixSignals

/// `tessera serve`: the daemon.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the daemon: scan, then rescan on `tessera rescan`, SIGHUP or a timer.",
        discussion: """
            Speaks the systemd notify protocol when $NOTIFY_SOCKET is set (READY, STATUS, WATCHDOG, STOPPING). \
            SIGTERM or SIGINT stops taking new files, finishes the ones in hand and exits 0. \
            The daemon is the index's only writer while it runs: `tessera scan` hands its requests to it.
            """)

    @Argument(help: "Photo folders (default: the configuration's 'roots', else ~/Pictures).", completion: .directory)
    var roots: [String] = []

    @OptionGroup var store: StoreOptions

    @Option(help: "Control socket path (overrides the configuration's 'control_socket').", completion: .file())
    var socket: String?

    /// The configuration file's, with this command line's overrides.
    func loadConfiguration() throws -> Configuration {
        var configuration = try store.configuration()
        if let socket { configuration.controlSocket = FilePath(socket) }
        if !roots.isEmpty { configuration.roots = roots.map(CommandLinePath.path) }
        return configuration
    }

    func run() async throws {
        let configuration = try loadConfiguration()
        LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
        let logger = Logger(label: "tessera")
        let notifier = SystemdNotifier()
        let lock = IndexLock(index: configuration.index)
        do {
            if let holder = try lock.acquire(role: .serve, socket: configuration.controlSocket), holder.role == .serve {
                throw CLIError("\(configuration.index) is already served by \(holder)")
            }
        } catch let error as ScanError {
            throw CLIError(error.description)
        }
        let index = try store.openIndex(configuration, readOnly: false)
        let live = LiveConfiguration(configuration, logger: logger, load: { [self] in try loadConfiguration() })
        let coordinator = ScanCoordinator(progress: ScanProgress())
        let reporter = StatusReporter(
            coordinator: coordinator, index: index, cachePath: configuration.cache.string, version: Tessera.version)
        let control: ControlServer
        do {
            control = try ControlServer(
                path: configuration.controlSocket, coordinator: coordinator, reporter: reporter, roots: configuration.roots,
                logger: logger)
        } catch {
            throw CLIError(error.description)
        }
        if configuration.scanOnStart { coordinator.trigger(full: false) }
        let interval = configuration.rescanInterval > 0 ? Duration.seconds(configuration.rescanInterval) : nil
        // Shut down in reverse order: the scan first (it finishes the files in hand), then the socket.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: TimerService(coordinator: coordinator, notifier: notifier, rescanInterval: interval)),
        ]
        if configuration.watch {
            services.append(.init(service: WatchService(configuration: configuration, coordinator: coordinator, logger: logger)))
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: services + [
                .init(service: ReloadSignalService(configuration: live, coordinator: coordinator, logger: logger)),
                .init(service: control),
                .init(
                    service: ScanService(
                        index: index, lock: lock, configuration: live, coordinator: coordinator, notifier: notifier, logger: logger),
                    successTerminationBehavior: .gracefullyShutdownGroup),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(9)
        let group = ServiceGroup(configuration: groupConfiguration)
        logger.info("tessera \(Tessera.version) serving \(configuration.roots.map(\.string).joined(separator: ", ")); control socket \(configuration.controlSocket)")
        notifier.send("READY=1\nSTATUS=Started")
        try await group.run()
        // A scan left running at shutdown may be inside a transaction: leave the file alone.
        if !coordinator.snapshot.abandonedScan { index.checkpoint() }
        logger.info("stopped")
    }
}
