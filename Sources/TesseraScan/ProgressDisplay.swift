import Foundation
import TesseraSystem

/// Shows a running scan: a redrawn bar on a terminal, a log line every 10 s otherwise.
///
/// The snapshots come from `source`: this process's scanner, or a daemon's answers.
public final class ProgressDisplay: @unchecked Sendable {
    // @unchecked: `ticker` is only touched by the owner's thread.
    private let source: @Sendable () -> ScanProgress.Snapshot?
    private var ticker: PeriodicThread?
    private let terminal = CurrentProcess.isTerminal(CurrentProcess.standardError)

    public init(source: @escaping @Sendable () -> ScanProgress.Snapshot?) {
        self.source = source
    }

    public convenience init(progress: ScanProgress) {
        self.init(source: { progress.snapshot })
    }

    public func start() {
        ticker = PeriodicThread("progress", every: terminal ? .milliseconds(200) : .seconds(10)) { [self] in
            if let snapshot = source() { draw(snapshot) }
        }
    }

    public func finish() {
        ticker?.stop()
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }

    private func draw(_ snapshot: ScanProgress.Snapshot) {
        // After the files, the stage that follows them: its own count.
        let (done, total) =
            switch snapshot.phase {
            case .videos: (snapshot.webVideosDone ?? 0, snapshot.webVideosTotal ?? 0)
            case .analysing: (snapshot.analysed ?? 0, snapshot.toAnalyse ?? 0)
            default: (0, 0)
            }
        if total > 0 {
            let counts =
                snapshot.phase == .videos
                ? "web videos: \(done) of \(total) made" : "analyses: \(done) of \(total) photos"
            if terminal {
                let columns = CurrentProcess.terminalColumns(CurrentProcess.standardError) ?? 80
                let line = Self.line(fraction: Double(done) / Double(total), parts: [counts], columns: columns)
                FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
            } else {
                FileHandle.standardError.write(Data("scan: \(counts)\n".utf8))
            }
            return
        }
        let expected = max(snapshot.expected, 1)
        let fraction = min(1, Double(snapshot.done) / Double(expected))
        let rate = String(format: "%.1f files/s", snapshot.rate)
        let eta = snapshot.remaining.map { "ETA \(Wording.duration($0))" } ?? "counting…"
        let counts = "\(snapshot.done)/\(snapshot.expected) files"
        let errors = Wording.count(snapshot.errors, "error")
        if terminal {
            let columns = CurrentProcess.terminalColumns(CurrentProcess.standardError) ?? 80
            let line = Self.line(fraction: fraction, parts: [counts, rate, eta, errors], columns: columns)
            FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
        } else {
            FileHandle.standardError.write(Data("scan: \(counts), \(rate), \(eta), \(errors)\n".utf8))
        }
    }

    /// One progress line that fits in `columns - 1` (a line as wide as the terminal wraps on
    /// some terminals, and a wrapped line is not redrawn in place): the bar shrinks from 30 to
    /// 10 cells first, then the least important parts go, from the end.
    static func line(fraction: Double, parts: [String], columns: Int) -> String {
        let room = max(1, columns - 1)
        var parts = parts
        while true {
            let text = "\(Int(fraction * 100))% " + parts.joined(separator: " · ")
            let width = min(30, room - text.count - 1)
            if width >= 10 || parts.count <= 1 {
                let cells = max(0, width)
                let filled = Int(fraction * Double(cells))
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
                return String((cells > 0 ? "\(bar) \(text)" : text).prefix(room))
            }
            parts.removeLast()
        }
    }
}
