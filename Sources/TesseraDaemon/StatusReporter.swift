import Synchronization
import SystemPackage
public import TesseraIndex
import TesseraScan
import TesseraSystem

/// Builds the daemon's `status` answer: the coordinator's state plus the index's counts.
///
/// The counts are read at most once a second (and again as soon as a scan ends), so a
/// burst of status requests costs one query, not one each; a read that fails is
/// reported as an error, not as zeros.
public final class StatusReporter: Sendable {
    let coordinator: ScanCoordinator
    let index: any PhotoStore
    let cachePath: String
    let version: String
    private let cached = Mutex<(at: Duration, afterScan: Int, totals: IndexTotals)?>(nil)

    public init(coordinator: ScanCoordinator, index: any PhotoStore, cachePath: String, version: String) {
        self.coordinator = coordinator
        self.index = index
        self.cachePath = cachePath
        self.version = version
    }

    func status() -> DaemonStatus {
        let state = coordinator.snapshot
        var readError: String?
        var totals = IndexTotals()
        let now = coordinator.clock.now
        if let recent = cached.withLock({ $0 }), recent.afterScan == state.finished, now - recent.at < .seconds(1) {
            totals = recent.totals
        } else {
            do {
                totals = try index.totals()
                cached.withLock { $0 = (now, state.finished, totals) }
            } catch {
                readError = "cannot read the index: \(error)"
            }
        }
        let daemonState: DaemonState = state.scanning ? .scanning : state.waitingForIndex ? .waitingForIndex : .idle
        return DaemonStatus(
            state: daemonState, progress: state.scanning ? coordinator.progress.snapshot : nil,
            totals: totals, lastScan: state.lastSummary,
            lastError: readError ?? state.lastError, scansStarted: state.started, scansFinished: state.finished,
            version: version, uptime: now.seconds, index: index.path.string,
            cache: cachePath)
    }
}
