import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SystemPackage
import TesseraIndex
import TesseraService
import UnixSignals

/// `tessera serve`: the daemon.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the daemon: scan, then rescan on `tessera rescan`, SIGHUP or a timer.",
        discussion: """
            Speaks the systemd notify protocol when $NOTIFY_SOCKET is set (READY, STATUS, WATCHDOG, STOPPING). \
            SIGTERM or SIGINT stops taking new files, finishes the ones in hand and exits 0.
            """)

    @Argument(help: "Photo folders (default: the configuration's 'roots', else ~/Pictures).")
    var roots: [String] = []

    @OptionGroup var store: StoreOptions

    @Option(help: "Control socket path (overrides the configuration's 'control_socket').")
    var socket: String?

    func run() async throws {
        var configuration = try store.configuration()
        if let socket { configuration.controlSocket = FilePath(socket) }
        if !roots.isEmpty { configuration.roots = roots.map { FilePath($0) } }
        LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
        let logger = Logger(label: "tessera")
        let notifier = SystemdNotifier()
        let index = try store.openIndex(configuration, readOnly: false)
        let scanner = Scanner(configuration: configuration, index: index, logger: logger)
        let coordinator = ScanCoordinator(progress: scanner.progress)
        let control: ControlServer
        do {
            control = try ControlServer(
                path: configuration.controlSocket, coordinator: coordinator, index: index, cache: configuration.cache,
                version: Tessera.version, logger: logger)
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
                .init(service: ReloadSignalService(coordinator: coordinator, logger: logger)),
                .init(service: control),
                .init(service: ScanService(scanner: scanner, coordinator: coordinator, notifier: notifier, logger: logger),
                      successTerminationBehavior: .gracefullyShutdownGroup),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(9)
        let group = ServiceGroup(configuration: groupConfiguration)
        logger.info("tessera \(Tessera.version) serving \(configuration.roots.map(\.string).joined(separator: ", ")); control socket \(configuration.controlSocket)")
        notifier.send("READY=1\nSTATUS=Started")
        try await group.run()
        logger.info("stopped")
    }
}

/// `tessera rescan`: ask the running daemon to scan.
struct RescanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescan", abstract: "Ask the running daemon to scan again.",
        discussion: "With --wait, shows progress until that scan ends and exits 0 if it finished, 1 if not.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Control socket path (default: from the configuration).")
    var socket: String?

    @Flag(help: "Wait for the scan to end, showing its progress.")
    var wait = false

    @Flag(help: "Read and render every file again.")
    var full = false

    @Flag(help: "Print the outcome as JSON.")
    var json = false

    func run() throws {
        let path = try socket.map { FilePath($0) } ?? store.configuration().controlSocket
        let terminal = isatty(STDERR_FILENO) == 1 && !json
        var outcome: ControlResponse?
        do {
            try ControlClient.send(command: "rescan", full: full, wait: wait, to: path) { response in
                if let error = response.error, response.finished == nil {
                    outcome = response
                    printError("tessera: \(error)")
                } else if let ticket = response.accepted, !wait {
                    print(json ? #"{"accepted":\#(ticket)}"# : "Rescan requested (scan \(ticket)).")
                } else if let progress = response.progress, terminal {
                    let line = "\r\u{1B}[2K\(progress.phase.rawValue): \(progress.done)/\(progress.found) files, "
                        + String(format: "%.1f files/s, ", progress.rate) + "\(progress.errors) errors"
                    FileHandle.standardError.write(Data(line.utf8))
                } else if response.finished != nil || (response.error != nil && response.accepted == nil) {
                    outcome = response
                }
            }
        } catch {
            throw CLIError(error.description)
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        guard wait else { return }
        guard let outcome, let summary = outcome.finished, outcome.error == nil else {
            throw CLIError("the scan failed: \(outcome?.error ?? "no outcome")")
        }
        if json {
            print(String(decoding: try JSONEncoder().encode(summary), as: UTF8.self))
        } else {
            print("Scan \(summary)")
        }
        if summary.state != .finished { throw ExitCode(1) }
    }
}

/// `tessera status`: what the running daemon is doing.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the running daemon's state.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Control socket path (default: from the configuration).")
    var socket: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let path = try socket.map { FilePath($0) } ?? store.configuration().controlSocket
        var status: DaemonStatus?
        do {
            try ControlClient.send(command: "status", to: path) { status = $0.status ?? status }
        } catch {
            throw CLIError(error.description)
        }
        guard let status else { throw CLIError("the daemon sent no status") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(status), as: UTF8.self))
            return
        }
        var lines = ["tessera \(status.version), up \(ProgressDisplay.duration(status.uptime)), \(status.state)"]
        if let progress = status.progress {
            lines.append("  scanning     \(progress.done)/\(progress.found) files, \(progress.errors) errors")
        }
        let files = status.errors == 1 ? "file" : "files"
        lines.append("  photos       \(status.photos) in \(status.albums) albums, \(status.errors) \(files) with errors")
        if let last = status.lastScan { lines.append("  last scan    \(last)") }
        if let error = status.lastError { lines.append("  last error   \(error)") }
        lines.append("  index        \(status.index)")
        lines.append("  thumbnails   \(status.cache)")
        print(lines.joined(separator: "\n"))
    }
}
