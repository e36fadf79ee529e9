public import Logging
public import SystemPackage
public import TesseraConfiguration
import TesseraIndex
public import TesseraScan
import TesseraSystem

/// A scan asked for on the command line (`tessera scan`): run here, with its progress on the
/// terminal, or handed to the daemon that serves the index.
///
/// An index has one writer at a time. When a daemon holds it, the scan runs there and its
/// progress and outcome are shown here; when another one-shot scan holds it, this one waits for
/// its turn, or with `wait` false does not run.
public struct ForegroundScan {
    public var configuration: Configuration
    public var full = false
    /// Roots named on the command line; nil for the configuration's.
    public var roots: [FilePath]?
    public var wait = true
    /// Shows progress on standard error while the scan runs.
    public var showingProgress = true

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// How it went.
    public enum Outcome: Sendable {
        /// The scan ran, here or in the daemon.
        case ran(ScanSummary)
        /// Another scan writes the index, and this one was not to wait.
        case busy
        /// Stopped (Ctrl-C) while waiting for its turn.
        case stopped
    }

    /// Runs the scan; `say` gets the lines about whom it waits for or hands over to.
    public func run(
        logger: Logger, stop: StopFlag, say: @escaping @Sendable (String) -> Void
    ) async throws
        -> Outcome
    {
        let index = configuration.index
        let lock = IndexLock(index: index)
        let turn = try await lock.waitForTurn(
            role: .scan, socket: nil, handOver: { $0.role == .serve && $0.socket != nil },
            waiting: { [wait] holder in
                say(
                    wait
                        ? "waiting for \(holder) to finish writing \(index)…"
                        : "\(index) is being written by \(holder); try again when it has finished")
                return wait
            },
            shouldStop: { stop.isSet })
        switch turn {
        case .held: break
        case .handedOver(let daemon): return try handOver(to: daemon, say: say)
        case .stopped: return stop.isSet ? .stopped : .busy
        }
        let store = try PhotoIndex(path: index, readOnly: false)
        defer { store.checkpoint() }
        // What depends on the roots (whether `auto` desktop thumbnails are on) follows those
        // scanned; naming them to `scan` too keeps it from retiring the configured ones.
        var configuration = configuration
        if let roots { configuration.roots = roots }
        let scanner = LibraryScanner(configuration: configuration, index: store, logger: logger, lock: lock)
        let display = showingProgress ? ProgressDisplay(progress: scanner.progress) : nil
        display?.start()
        let result = await DedicatedThread.run("scan") { [full, roots] in
            Result { () throws(ScanError) in try scanner.scan(roots: roots, full: full, stop: stop) }
        }
        display?.finish()
        return .ran(try result.get())
    }

    /// Asks the daemon that serves the index to scan, and follows its progress and outcome.
    private func handOver(to daemon: IndexLock.Holder, say: (String) -> Void) throws -> Outcome {
        guard let socket = daemon.socket else { return .busy }
        say("\(configuration.index) is served by \(daemon); the scan runs there")
        let request = ControlRequest(command: .rescan, full: full, wait: true, roots: roots)
        let outcome = try ControlClient.request(request, to: socket, showingProgress: showingProgress)
        guard let summary = outcome.finished else {
            throw ControlError(.malformed, "the daemon's scan failed: \(outcome.error ?? "no outcome")")
        }
        return .ran(summary)
    }
}
