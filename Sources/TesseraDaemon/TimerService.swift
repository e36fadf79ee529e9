public import ServiceLifecycle
import TesseraScan
import TesseraSystem

/// Rescans every `interval`, and pings the systemd watchdog while the daemon is healthy.
///
/// Healthy means idle, waiting for the index, or scanning and making progress: a scan
/// that has not moved for a whole watchdog interval (a worker stuck on one file) stops
/// the pings, and systemd restarts the service.
public struct TimerService: Service {
    let coordinator: ScanCoordinator
    let notifier: SystemdNotifier
    let rescanInterval: Duration?

    public init(coordinator: ScanCoordinator, notifier: SystemdNotifier, rescanInterval: Duration?) {
        self.coordinator = coordinator
        self.notifier = notifier
        self.rescanInterval = rescanInterval
    }

    public func run() async throws {
        let watchdog = notifier.watchdogInterval
        let tick: Duration = min(watchdog.map { $0 / 2 } ?? .seconds(1), .seconds(1))
        let stallLimit = watchdog
        // Cancellation at graceful shutdown is how this service ends: not an error.
        try? await cancelWhenGracefulShutdown {
            var sinceRescan: Duration = .zero
            while !Task.isCancelled {
                try await coordinator.clock.sleep(for: tick)
                if let stallLimit, isHealthy(stallLimit: stallLimit) { notifier.send("WATCHDOG=1") }
                if let rescanInterval {
                    sinceRescan += tick
                    if sinceRescan >= rescanInterval {
                        sinceRescan = .zero
                        coordinator.trigger(full: false)
                    }
                }
            }
        }
    }

    private func isHealthy(stallLimit: Duration) -> Bool {
        !coordinator.snapshot.scanning || coordinator.progress.sinceProgress < stallLimit
    }
}
