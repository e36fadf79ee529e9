import Foundation
import TesseraAlbum
public import Logging
public import ServiceLifecycle
import SystemPackage
import TesseraIndex
import UnixSignals

/// Runs scans when triggered, one at a time, until graceful shutdown.
///
/// Scans are blocking work (threads of their own), so each runs on a
/// dedicated thread while this service awaits it. On graceful shutdown the
/// running scan is told to stop: the workers finish the files in hand, the
/// writer commits them, and the scan is recorded as interrupted.
public struct ScanService: Service {
    let scanner: Scanner
    let coordinator: ScanCoordinator
    let notifier: SystemdNotifier
    let logger: Logger

    public init(scanner: Scanner, coordinator: ScanCoordinator, notifier: SystemdNotifier, logger: Logger) {
        self.scanner = scanner
        self.coordinator = coordinator
        self.notifier = notifier
        self.logger = logger
    }

    public func run() async throws {
        let stop = StopFlag()
        await withGracefulShutdownHandler {
            for await _ in coordinator.wakeups {
                while !stop.isSet {
                    // Debounce: a burst of triggers (a file manager's copy, a script) becomes one scan.
                    var delay = coordinator.settleDelay()
                    while delay > 0 && !stop.isSet {
                        try? await Task.sleep(for: .seconds(delay))
                        delay = coordinator.settleDelay()
                    }
                    guard !stop.isSet, let request = coordinator.begin() else { break }
                    await scan(number: request.number, full: request.full, stop: stop)
                }
                if stop.isSet { break }
                notifier.send("STATUS=Idle; last scan \(coordinator.snapshot.lastSummary.map(\.description) ?? "none")")
            }
        } onGracefulShutdown: {
            stop.stop()
            coordinator.finish()
        }
        notifier.send("STOPPING=1")
    }

    private func scan(number: Int, full: Bool, stop: StopFlag) async {
        logger.info("scan \(number) started\(full ? " (full)" : "")")
        notifier.send("STATUS=Scanning…")
        let scanner = self.scanner
        let reporter = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(2))
                let progress = scanner.progress.snapshot
                notifier.send("STATUS=Scanning: \(progress.done)/\(progress.found) files, \(progress.errors) errors")
            }
        }
        let result: Result<ScanSummary, ScanError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(ScanError) in try scanner.scan(full: full, stop: stop) })
            }
        }
        reporter.cancel()
        switch result {
        case .success(let summary):
            logger.info("scan \(number) \(summary)")
            buildAlbums()
            coordinator.end(summary: summary, error: nil)
        case .failure(let error):
            logger.error("scan \(number) failed: \(error)")
            coordinator.end(summary: nil, error: error.description)
        }
    }

    /// Rebuilds album pages when the configuration asks for them; a failure is logged, not fatal.
    private func buildAlbums() {
        guard let directory = scanner.configuration.albumDirectory else { return }
        var options = AlbumBuilder.Options(output: directory)
        options.style = scanner.configuration.albumStyle
        do {
            let summary = try AlbumBuilder(index: scanner.index, options: options).build()
            logger.info("album pages: \(summary.written) written, \(summary.unchanged) unchanged in \(directory)")
        } catch {
            logger.error("album pages: \(error)")
        }
    }
}

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

/// Rescans every `interval`, and pings the systemd watchdog while the daemon is healthy.
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
        let watchdog = notifier.watchdogInterval.map { $0 / 2 }
        let tick: Duration = min(watchdog ?? .seconds(1), .seconds(1))
        // Cancellation at graceful shutdown is how this service ends: not an error.
        try? await cancelWhenGracefulShutdown {
            var sinceRescan: Duration = .zero
            while !Task.isCancelled {
                try await Task.sleep(for: tick)
                // This loop running at all is the health signal: the cooperative pool is not stuck.
                if watchdog != nil { notifier.send("WATCHDOG=1") }
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
}
