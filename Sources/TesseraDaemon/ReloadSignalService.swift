public import Logging
public import ServiceLifecycle
import TesseraConfiguration
import TesseraScan
import UnixSignals

/// On SIGHUP, which `systemctl reload` sends through ExecReload: reads the configuration
/// again and rescans, so added or removed rendition sizes are made or dropped.
public struct ReloadSignalService: Service {
    let configuration: LiveConfiguration
    let coordinator: ScanCoordinator
    let logger: Logger

    public init(configuration: LiveConfiguration, coordinator: ScanCoordinator, logger: Logger) {
        self.configuration = configuration
        self.coordinator = coordinator
        self.logger = logger
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        // Cancellation at graceful shutdown is how this service ends: not an error.
        _ = await cancelWhenGracefulShutdown {
            for await _ in signals {
                logger.info("SIGHUP: configuration reloaded, rescan requested")
                configuration.reload()
                coordinator.trigger(full: false)
            }
        }
    }
}
