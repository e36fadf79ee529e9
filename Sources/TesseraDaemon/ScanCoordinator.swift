import Synchronization
import TesseraIndex
public import TesseraScan
public import TesseraSystem

/// The daemon's scan state, shared by the scan loop, the control socket and the signal handlers.
///
/// Triggers that arrive while a scan runs are coalesced into at most one
/// follow-up scan (a `--full` request makes that follow-up full), and a scan
/// starts only once triggers have been quiet for 500 ms (5 s at most), so a
/// burst of requests becomes one scan. Each trigger
/// gets a ticket: the number of the scan that will answer it, so
/// `tessera rescan --wait` can wait for exactly that scan.
public final class ScanCoordinator: Sendable {
    public struct State: Sendable {
        public var scanning = false
        public var pending = false
        public var pendingFull = false
        /// Scans started and finished since the daemon started.
        public var started = 0
        public var finished = 0
        public var lastSummary: ScanSummary?
        public var lastError: String?
        /// Another process holds the index and the daemon waits for it before scanning.
        public var waitingForIndex = false
        /// A scan did not stop at shutdown and was left running: the index must not be
        /// touched again by this process.
        public var abandonedScan = false
        /// When the latest trigger arrived, and the first one not yet served (on `clock`), for
        /// debouncing bursts.
        public var lastTrigger: Duration = .zero
        public var firstPendingTrigger: Duration = .zero
    }

    private let state = Mutex(State())
    /// Woken when a scan starts or ends (the control socket pushes outcomes to waiting clients).
    private let observers = Mutex<[WakeEvent]>([])
    private let wakeup: AsyncStream<Void>.Continuation
    /// Wakes the scan loop; one element per trigger, drained in batches.
    public let wakeups: AsyncStream<Void>
    public let progress: ScanProgress
    /// What debouncing, polls and the uptime read: the system's monotonic clock, or a test's.
    public let clock: ElapsedClock
    /// A burst of triggers becomes one scan once triggers have been quiet this long...
    public static let quietPeriod: Duration = .milliseconds(500)
    /// ...or this long after the first of them, whichever comes first.
    public static let settleLimit: Duration = .seconds(5)

    public init(progress: ScanProgress, clock: ElapsedClock = .continuous) {
        self.progress = progress
        self.clock = clock
        (wakeups, wakeup) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a scan.
    ///
    /// Returns the number of the scan that will serve the request.
    @discardableResult
    public func trigger(full: Bool) -> Int {
        let now = clock.now
        let ticket = state.withLock { state in
            if !state.pending { state.firstPendingTrigger = now }
            state.lastTrigger = now
            state.pending = true
            state.pendingFull = state.pendingFull || full
            return state.started + 1
        }
        wakeup.yield()
        return ticket
    }

    /// How long to wait before starting a scan so that a burst of triggers becomes one scan:
    /// until triggers have been quiet for `quietPeriod`, but no more than `settleLimit` after the
    /// first.
    ///
    /// Zero when due.
    func settleDelay() -> Duration {
        let now = clock.now
        return state.withLock { state in
            guard state.pending else { return .zero }
            let untilQuiet = Self.quietPeriod - (now - state.lastTrigger)
            let untilLimit = Self.settleLimit - (now - state.firstPendingTrigger)
            return max(.zero, min(untilQuiet, untilLimit))
        }
    }

    /// Takes the pending request, if any, marking a scan as started.
    func begin() -> (number: Int, full: Bool)? {
        let request: (Int, Bool)? = state.withLock { state in
            guard state.pending else { return nil }
            let full = state.pendingFull
            (state.pending, state.pendingFull, state.scanning) = (false, false, true)
            state.started += 1
            return (state.started, full)
        }
        notifyObservers()
        return request
    }

    func end(summary: ScanSummary?, error: String?) {
        state.withLock { state in
            state.scanning = false
            state.finished += 1
            if let summary { state.lastSummary = summary }
            state.lastError = error
        }
        notifyObservers()
    }

    func abandon() {
        state.withLock { $0.abandonedScan = true }
    }

    func setWaitingForIndex(_ waiting: Bool) {
        state.withLock { $0.waitingForIndex = waiting }
    }

    /// Signals `wake` whenever a scan starts or ends.
    func observe(_ wake: WakeEvent) {
        observers.withLock { $0.append(wake) }
    }

    private func notifyObservers() {
        for wake in observers.withLock({ $0 }) { wake.signal() }
    }

    public var snapshot: State { state.withLock { $0 } }

    func finish() { wakeup.finish() }
}
