import ArgumentParser
import Foundation
import SystemPackage
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex
import TesseraScan
import TesseraSystem

/// `tessera status`: what the running daemon is doing; without one, what the index says.
struct StatusCommand: ParsableCommand {
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

    func run() throws {
        let path = try socket.map { FilePath($0) } ?? store.configuration().controlSocket
        var status: DaemonStatus?
        do {
            try ControlClient.send(ControlRequest(command: .status), to: path) { status = $0.status ?? status }
        } catch  where error.code == .noDaemon {
            // No daemon is an answer, not a failure: a library scanned with `tessera scan` has none.
            try printIndex(daemon: error.description)
            return
        } catch {
            throw CLIError(error.description)
        }
        guard let status else { throw CLIError("the daemon sent no status") }
        if json {
            try printJSON(status)
            return
        }
        var lines = ["tessera \(status.version), up \(Wording.duration(status.uptime)), \(status.state.rawValue)"]
        if let progress = status.progress {
            lines.append(
                "  scanning     \(progress.done)/\(progress.expected) files, \(Wording.count(progress.errors, "error"))"
            )
        }
        lines.append("  library      \(status.totals.summary)")
        if let last = status.lastScan { lines.append("  last scan    \(last)") }
        if let error = status.lastError { lines.append("  last error   \(error)") }
        lines.append("  index        \(status.index)")
        lines.append("  thumbnails   \(status.cache)")
        print(lines.joined(separator: "\n"))
    }

    /// What the index holds, read-only, for when no daemon answers.
    private func printIndex(daemon: String) throws {
        let configuration = try store.configuration()
        let index = try store.openIndex(configuration, readOnly: true)
        let totals: IndexTotals
        let last: ScanRecord?
        do {
            totals = try index.totals()
            last = try IndexLock.lastScan(of: index)
        } catch {
            throw CLIError("\(error)")
        }
        if json {
            try printJSON(
                IndexReport(
                    state: "not-running", daemon: daemon, totals: totals, lastScan: last,
                    index: configuration.index.string))
            return
        }
        var lines = [daemon]
        lines.append("  library      \(totals.summary)")
        if let last {
            let when = last.finishedAt ?? last.startedAt
            let ago = Wording.duration(Date().timeIntervalSince(when))
            lines.append(
                "  last scan    \(last.state.rawValue) \(ago) ago: \(last.counts)"
                    + (last.reason.map { " (\($0))" } ?? ""))
            for folder in last.offline { lines.append("  offline      \(folder): kept as it was") }
        } else {
            lines.append("  last scan    none")
        }
        lines.append("  index        \(configuration.index)")
        print(lines.map { TerminalText.escaped($0) }.joined(separator: "\n"))
    }

    /// `status --json` without a daemon: the totals' keys beside the others, as the daemon's.
    private struct IndexReport: Encodable {
        var state: String
        var daemon: String
        var totals: IndexTotals
        var lastScan: ScanRecord?
        var index: String

        private enum CodingKeys: String, CodingKey { case state, daemon, lastScan, index }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state, forKey: .state)
            try container.encode(daemon, forKey: .daemon)
            try totals.encode(to: encoder)
            try container.encodeIfPresent(lastScan, forKey: .lastScan)
            try container.encode(index, forKey: .index)
        }
    }
}
