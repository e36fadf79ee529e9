import ArgumentParser
import Foundation
import Synchronization
import SystemPackage
import TesseraIndex
import TesseraConfiguration
import TesseraScan
import TesseraDaemon

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
            let ticket = try DaemonRequest.send(request, to: path, display: nil).accepted
            print(json ? #"{"accepted":\#(ticket ?? 0)}"# : "Rescan requested (scan \(ticket ?? 0)).")
            return
        }
        let outcome = try DaemonRequest.send(request, to: path, display: json ? nil : .standardError)
        guard let summary = outcome.finished, outcome.error == nil else {
            throw CLIError("the scan failed: \(outcome.error ?? "no outcome")")
        }
        if json {
            print(String(decoding: try JSONEncoder().encode(summary), as: UTF8.self))
        } else {
            print("Scan \(summary)")
        }
        if summary.state != .finished { throw ExitCode(1) }
    }
}

/// One request to the daemon, with its progress shown while the daemon works on it.
enum DaemonRequest {
    enum Display { case standardError }

    /// The daemon's answers folded into one: what was accepted, how it ended, any error.
    struct Outcome {
        var accepted: Int?
        var finished: ScanSummary?
        var error: String?
    }

    static func send(_ request: ControlRequest, to path: FilePath, display: Display?) throws -> Outcome {
        let latest = Mutex<ScanProgress.Snapshot?>(nil)
        let progress = display.map { _ in ProgressDisplay(source: { latest.withLock { $0 } }) }
        progress?.start()
        defer { progress?.finish() }
        var outcome = Outcome()
        do {
            try ControlClient.send(request, to: path) { response in
                if let ticket = response.accepted { outcome.accepted = ticket }
                if let snapshot = response.progress { latest.withLock { $0 = snapshot } }
                if let summary = response.finished { outcome.finished = summary }
                if let error = response.error { outcome.error = error }
            }
        } catch {
            throw CLIError(error.description)
        }
        if let error = outcome.error, outcome.accepted == nil, outcome.finished == nil {
            throw CLIError(error)
        }
        return outcome
    }
}
