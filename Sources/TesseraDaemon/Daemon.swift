public import Logging
import ServiceLifecycle
import SystemPackage
public import TesseraConfiguration
import TesseraIndex
import TesseraScan
public import TesseraSystem
public import UnixSignals

/// The daemon, assembled: the index's writer lock, the index, and the services of one ServiceGroup.
///
/// The services shut down in reverse order of this list on SIGTERM or SIGINT (or a graceful
/// shutdown of the task that runs it):
///
/// 1. the timer (periodic rescans, the systemd watchdog),
/// 2. the watcher (inotify),
/// 3. SIGHUP (reload the configuration),
/// 4. the control socket,
/// 5. the scan service,
///
/// so the scan stops first (it finishes the files in hand, and clients waiting on it still
/// hear how it ended), then the socket. `tessera serve` runs it; tests run it in-process.
public final class Daemon: Sendable {
    public let configuration: Configuration
    /// The scan state every service shares; what tests and status read.
    public let coordinator: ScanCoordinator
    private let reload: @Sendable () throws -> Configuration
    private let version: String
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let shutdownSignals: [UnixSignal]

    /// - Parameters:
    ///   - reload: reads the configuration again (file, then command line) on SIGHUP.
    ///   - clock: what debouncing, polls and the uptime read.
    ///   - shutdownSignals: the signals that shut the daemon down; none when a test drives it.
    public init(
        configuration: Configuration, reload: @escaping @Sendable () throws -> Configuration, version: String,
        logger: Logger, notifier: SystemdNotifier = SystemdNotifier(), clock: ElapsedClock = .continuous,
        shutdownSignals: [UnixSignal] = [.sigterm, .sigint]
    ) {
        self.configuration = configuration
        self.reload = reload
        self.version = version
        self.logger = logger
        self.notifier = notifier
        self.shutdownSignals = shutdownSignals
        coordinator = ScanCoordinator(progress: ScanProgress(), clock: clock)
    }

    /// Runs until shut down.
    ///
    /// Throws before any service starts when the index is served by
    /// another daemon, cannot be opened, or the control socket cannot be made.
    public func run() async throws {
        let lock = IndexLock(index: configuration.index)
        let holder: IndexLock.Holder?
        do throws(ScanError) {
            holder = try lock.acquire(role: .serve, socket: configuration.controlSocket)
        } catch {
            throw DaemonError(error.description)
        }
        // A one-shot scan holding the lock is waited for by the scan service; another daemon is not.
        if let holder, holder.role == .serve {
            throw DaemonError("\(configuration.index) is already served by \(holder)")
        }
        let index: PhotoIndex
        let control: ControlServer
        do {
            index = try PhotoIndex(path: configuration.index)
            let reporter = StatusReporter(
                coordinator: coordinator, index: index, cachePath: configuration.cache.string, version: version)
            control = try ControlServer(
                path: configuration.controlSocket, coordinator: coordinator, reporter: reporter, index: index,
                roots: configuration.roots, logger: logger)
        } catch {
            throw DaemonError("\(error)")
        }
        let live = LiveConfiguration(configuration, logger: logger, load: reload)
        if configuration.scanOnStart { coordinator.trigger(full: false) }
        let interval = configuration.rescanInterval > 0 ? Duration.seconds(configuration.rescanInterval) : nil
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(
                service: TimerService(coordinator: coordinator, notifier: notifier, rescanInterval: interval),
                serviceName: "timer")
        ]
        services.append(.init(service: ReturnService(coordinator: coordinator, logger: logger), serviceName: "return"))
        if configuration.watch {
            services.append(
                .init(
                    service: WatchService(configuration: configuration, coordinator: coordinator, logger: logger),
                    serviceName: "watch"))
        }
        services += [
            .init(
                service: ReloadSignalService(configuration: live, coordinator: coordinator, logger: logger),
                serviceName: "reload"),
            .init(service: control, serviceName: "control"),
            .init(
                service: ScanService(
                    index: index, lock: lock, configuration: live, coordinator: coordinator, notifier: notifier,
                    logger: logger),
                successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "scan"),
        ]
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: shutdownSignals, logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(9)
        let roots = configuration.roots.map(\.string).joined(separator: ", ")
        logger.info("tessera \(version) serving \(roots); control socket \(configuration.controlSocket)")
        notifier.send("READY=1\nSTATUS=Started")
        try await ServiceGroup(configuration: groupConfiguration).run()
        // A scan left running at shutdown may be inside a transaction: leave the file, and the
        // lock that keeps other writers out of it, alone until the process ends.
        if !coordinator.snapshot.abandonedScan {
            index.checkpoint()
            lock.release()
        }
        logger.info("stopped")
    }
}

/// Why the daemon could not start, in one line.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
