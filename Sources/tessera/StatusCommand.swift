import ArgumentParser
import SystemPackage
import TesseraCommands

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
        var request = StatusRequest()
        (request.socket, request.json) = (socket.map { FilePath($0) }, json)
        try await request.run(in: store.context)
    }
}
