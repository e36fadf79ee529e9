import ArgumentParser
import Logging
import SystemPackage
import TesseraCommands
import TesseraConfiguration
import TesseraDaemon

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
        var configuration = try store.context.store.configuration()
        if let socket { configuration.controlSocket = FilePath(socket) }
        if !roots.isEmpty { configuration.roots = roots.map(CommandLinePath.path) }
        return configuration
    }

    func run() async throws {
        let configuration = try loadConfiguration()
        let daemon = Daemon(
            configuration: configuration, reload: { [self] in try loadConfiguration() }, version: Tessera.version,
            logger: Logger(label: "tessera"))
        try await daemon.run()
    }
}
