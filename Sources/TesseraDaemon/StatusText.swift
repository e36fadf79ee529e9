public import Foundation
import SystemPackage
public import TesseraIndex
import TesseraScan
import TesseraSystem

extension DaemonStatus {
    /// What `tessera status` prints of a running daemon.
    public var text: String {
        var lines = ["tessera \(version), up \(Wording.duration(uptime)), \(state.rawValue)"]
        if let progress {
            lines.append("  scanning     \(progress.summary)")
        }
        lines.append("  library      \(totals.summary)")
        lines += totals.analysisLines.map { "  analyses     \($0)" }
        if let people = totals.people { lines.append("  people       \(people.summary)") }
        if let lastScan { lines.append("  last scan    \(lastScan)") }
        if let lastError { lines.append("  last error   \(lastError)") }
        lines.append("  index        \(index)")
        lines.append("  thumbnails   \(cache)")
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }
}

/// What `tessera status` says when no daemon answers: why, and what the index holds.
///
/// The index is read without writing. Its JSON has the totals' keys beside the others, as the
/// daemon's status has.
public struct IndexStatus: Encodable {
    public var state = "not-running"
    /// Why no daemon answered.
    public var daemon: String
    public var totals: IndexTotals
    public var lastScan: ScanRecord?
    public var index: String

    /// Reads `index`'s totals and last scan (one recorded as running while no process writes
    /// is reported interrupted).
    public init(index: any PhotoStore, daemon: String) throws(IndexError) {
        self.daemon = daemon
        self.totals = try index.totals()
        self.lastScan = try IndexLock.lastScan(of: index)
        self.index = index.path.string
    }

    /// The lines, `now` telling how long ago the last scan was.
    public func text(now: Date = Date()) -> String {
        // What it holds first: a library scanned by `tessera scan` alone has no daemon, and that is no fault.
        var lines = ["No daemon: the index as the last scan left it", "  library      \(totals.summary)"]
        lines += totals.analysisLines.map { "  analyses     \($0)" }
        if let people = totals.people { lines.append("  people       \(people.summary)") }
        if let last = lastScan {
            let ago = Wording.duration(now.timeIntervalSince(last.finishedAt ?? last.startedAt))
            lines.append(
                "  last scan    \(last.state.rawValue) \(ago) ago: \(last.counts)"
                    + (last.reason.map { " (\($0))" } ?? ""))
            for folder in last.offline { lines.append("  offline      \(folder): kept as it was") }
        } else {
            lines.append("  last scan    none")
        }
        lines.append("  index        \(index)")
        lines.append("  daemon       \(daemon)")
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    private enum CodingKeys: String, CodingKey { case state, daemon, lastScan, index }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(daemon, forKey: .daemon)
        try totals.encode(to: encoder)
        try container.encodeIfPresent(lastScan, forKey: .lastScan)
        try container.encode(index, forKey: .index)
    }
}
