import ArgumentParser
import Foundation
import SystemPackage
import TesseraService

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
            try ControlClient.send(ControlRequest(command: .status), to: path) { status = $0.status ?? status }
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
        var lines = ["tessera \(status.version), up \(ProgressDisplay.duration(status.uptime)), \(status.state.rawValue)"]
        if let progress = status.progress {
            lines.append("  scanning     \(progress.done)/\(progress.expected) files, \(progress.errors) errors")
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
