import ArgumentParser
import SystemPackage
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex
import TesseraScan

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
        let path = try socket.map { FilePath($0) } ?? store.configuration().controlSocket
        let request = ControlRequest(command: .rescan, full: full, wait: wait)
        if !wait {
            let ticket = try ControlClient.request(request, to: path, showingProgress: false).accepted
            print(json ? #"{"accepted":\#(ticket ?? 0)}"# : "Rescan requested (scan \(ticket ?? 0)).")
            return
        }
        let outcome = try ControlClient.request(request, to: path, showingProgress: !json)
        guard let summary = outcome.finished, outcome.error == nil else {
            throw CLIError("the scan failed: \(outcome.error ?? "no outcome")")
        }
        if json {
            try printJSON(summary)
        } else {
            print("Scan \(summary)")
        }
        if summary.state != .finished { throw ExitCode(1) }
    }
}
