import ArgumentParser
import SystemPackage
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex

/// `tessera status`: what the running daemon is doing; without one, what the index says.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the running daemon's state, or without a daemon what the index holds.",
        discussion: """
            Exits 0 when it could say what the daemon is doing or, with none running, what the index \
            holds (`--json` says which in its 'state'); 1 when neither could be read.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "Control socket path (default: from the configuration).", completion: .file())
    var socket: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let configuration = try store.configuration(cluster: true)
        if configuration.indexURL != nil { return try await ClusterDeployment.status(configuration, json: json) }
        let path = socket.map { FilePath($0) } ?? configuration.controlSocket
        var status: DaemonStatus?
        do {
            try ControlClient.send(ControlRequest(command: .status), to: path) { status = $0.status ?? status }
        } catch {
            // No daemon is an answer, not a failure: a library scanned with `tessera scan` has none.
            guard error.code == .noDaemon else { throw error }
            return try printIndex(daemon: error.description)
        }
        guard let status else { throw CLIError("the daemon sent no status") }
        if json { return try printJSON(status) }
        print(status.text)
    }

    /// What the index holds, read-only, for when no daemon answers.
    private func printIndex(daemon: String) throws {
        let configuration = try store.configuration()
        let index = try PhotoIndex(path: configuration.index, readOnly: true)
        let status: IndexStatus = try IndexStatus(index: index, daemon: daemon)
        if json { return try printJSON(status) }
        print(status.text())
    }
}
