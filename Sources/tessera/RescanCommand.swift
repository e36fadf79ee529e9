import ArgumentParser
import SystemPackage
import TesseraCommands

/// `tessera rescan`: ask the running daemon to scan.
struct RescanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescan", abstract: "Ask the running daemon to scan again.",
        discussion: "With --wait, shows progress until that scan ends and exits 0 if it finished, 1 if not.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Control socket path (default: from the configuration).", completion: .file())
    var socket: String?

    @Flag(help: "Wait for the scan to end, showing its progress.")
    var wait = false

    @Flag(help: "Read and render every file again.")
    var full = false

    @Flag(help: "Print the outcome as JSON.")
    var json = false

    func run() throws {
        var request = RescanRequest()
        (request.socket, request.wait, request.full, request.json) = (socket.map { FilePath($0) }, wait, full, json)
        try request.run(in: store.context)
    }
}
