public import Logging
public import ServiceLifecycle
import UnixSignals

/// Rescans on SIGHUP, which `systemctl reload` sends through ExecReload.
public struct ReloadSignalService: Service {
    let coordinator: ScanCoordinator
    let logger: Logger

    public init(coordinator: ScanCoordinator, logger: Logger) {
        self.coordinator = coordinator
        self.logger = logger
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        // Cancellation at graceful shutdown is how this service ends: not an error.
        _ = await cancelWhenGracefulShutdown {
            for await _ in signals {
                logger.info("SIGHUP: rescan requested")
                coordinator.trigger(full: false)
            }
        }
    }
}
