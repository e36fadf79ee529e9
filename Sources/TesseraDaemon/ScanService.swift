import Foundation
public import Logging
public import ServiceLifecycle
import SystemPackage
import TesseraAlbum
import TesseraConfiguration
public import TesseraIndex
public import TesseraScan
import TesseraSystem

/// Runs scans when triggered, one at a time, until graceful shutdown.
///
/// Before its first scan the daemon takes the index's writer lock, waiting (and
/// saying so in STATUS) while a one-shot `tessera scan` holds it; it then keeps
/// the lock for life. Scans are blocking work and run on a thread of their own
/// while this service awaits them. On graceful shutdown the running scan is told
/// to stop: the workers finish the files in hand, the writer commits them, and
/// the scan is recorded as interrupted. A scan that cannot stop (a worker stuck
/// in a read from a dead network mount) is abandoned after a few seconds, so the
/// daemon still exits in time. Each scan runs with the configuration as last (re)loaded.
public struct ScanService: Service {
    let index: any PhotoStore
    let lock: IndexLock
    let configuration: LiveConfiguration
    let coordinator: ScanCoordinator
    let notifier: SystemdNotifier
    let logger: Logger
    /// How long a scan told to stop may take before the daemon exits without it.
    static let stopGrace: Duration = .seconds(5)

    public init(
        index: any PhotoStore, lock: IndexLock, configuration: LiveConfiguration, coordinator: ScanCoordinator,
        notifier: SystemdNotifier, logger: Logger
    ) {
        self.index = index
        self.lock = lock
        self.configuration = configuration
        self.coordinator = coordinator
        self.notifier = notifier
        self.logger = logger
    }

    public func run() async throws {
        let stop = StopFlag()
        // Cancellation at graceful shutdown is how this service ends: not an error.
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await checkCacheWhenIdle() }
                defer { group.cancelAll() }
                for await _ in coordinator.wakeups {
                    while !Task.isCancelled {
                        // Debounce: a burst of triggers (a file manager's copy, a script) becomes one scan.
                        var delay = coordinator.settleDelay()
                        while delay > .zero {
                            do { try await coordinator.clock.sleep(for: delay) } catch { return }
                            delay = coordinator.settleDelay()
                        }
                        guard await holdIndex(), let request = coordinator.begin() else { break }
                        await scan(number: request.number, full: request.full, stop: stop)
                    }
                    if Task.isCancelled { return }
                    notifier.send(
                        "STATUS=Idle; last scan \(coordinator.snapshot.lastSummary.map(\.description) ?? "none")")
                }
            }
        }
        notifier.send("STOPPING=1")
    }

    /// Every `cache_check_interval` seconds, when no scan runs, checks the whole rendition
    /// cache (at idle CPU priority); files found gone make the next scan, asked for at once,
    /// begin its own check where they are, and render them again.
    private func checkCacheWhenIdle() async {
        while !Task.isCancelled {
            let interval = configuration.current.cacheCheckInterval
            do { try await coordinator.clock.sleep(for: .seconds(interval > 0 ? interval : 60)) } catch { return }
            guard interval > 0, lock.isHeld, !coordinator.snapshot.scanning else { continue }
            let stop = StopFlag()
            let check = CacheCheck(index: index, cache: configuration.current.cache, stop: stop)
            let result = await DedicatedThread.run("cache check", cancel: { stop.stop() }, grace: Self.stopGrace) {
                check.run(whole: true)
            }
            guard let result, let first = result.missing.first else { continue }
            logger.notice(
                """
                cache check: \(result.missing.count) of \(result.checked) rendition files are gone; \
                scanning to render them again
                """)
            CacheCheck.resume(at: first, in: index)
            coordinator.trigger(full: false)
        }
    }

    /// Takes the index's writer lock unless held; waits while another process has it, and
    /// tries again every second while the lock cannot be taken at all (logged each time).
    ///
    /// Returns false when cancelled first.
    private func holdIndex() async -> Bool {
        while !Task.isCancelled {
            do throws(ScanError) {
                let turn = try await lock.waitForTurn(
                    role: .serve, socket: configuration.current.controlSocket, clock: coordinator.clock,
                    waiting: { holder in
                        coordinator.setWaitingForIndex(true)
                        logger.notice("waiting for \(holder) to finish writing \(index.path)")
                        notifier.send("STATUS=Waiting for \(holder) to finish writing the index")
                        return true
                    },
                    shouldStop: { Task.isCancelled })
                coordinator.setWaitingForIndex(false)
                guard case .held = turn else { return false }
                return true
            } catch {
                logger.error("\(error)")
            }
            do { try await coordinator.clock.sleep(for: .seconds(1)) } catch { return false }
        }
        return false
    }

    private func scan(number: Int, full: Bool, stop: StopFlag) async {
        logger.info("scan \(number) started\(full ? " (full)" : "")")
        notifier.send("STATUS=Scanning…")
        let configuration = configuration.current
        let scanner = LibraryScanner(
            configuration: configuration, index: index, logger: logger, lock: lock, role: .serve,
            progress: coordinator.progress)
        let result = await withTaskGroup(of: Void.self) { group in
            group.addTask { await reportProgress() }
            let result = await DedicatedThread.run("scan", cancel: { stop.stop() }, grace: Self.stopGrace) {
                Result { () throws(ScanError) in try scanner.scan(full: full, stop: stop) }
            }
            group.cancelAll()
            return result
        }
        switch result {
        case .success(let summary):
            logger.info("scan \(number) \(summary)")
            await buildAlbums(configuration)
            coordinator.end(summary: summary, error: nil)
        case .failure(let error):
            logger.error("scan \(number) failed: \(error)")
            coordinator.end(summary: nil, error: error.description)
        case nil:
            logger.error("scan \(number) did not stop within \(Self.stopGrace); exiting without it")
            coordinator.abandon()
            coordinator.end(summary: nil, error: "abandoned at shutdown")
        }
    }

    /// Sends a STATUS line every two seconds until cancelled; never after.
    private func reportProgress() async {
        // The same limit as the watchdog's: a scan this long without progress is stuck.
        let stallLimit = max(.seconds(1), notifier.watchdogInterval ?? .seconds(30))
        while true {
            do { try await coordinator.clock.sleep(for: .seconds(2)) } catch { return }
            let progress = coordinator.progress.snapshot
            let stalled = coordinator.progress.sinceProgress
            if stalled >= stallLimit {
                notifier.send(
                    "STATUS=Stalled: no progress for \(Wording.duration(stalled.seconds)) "
                        + "(\(progress.done)/\(progress.expected) files)")
            } else {
                notifier.send("STATUS=Scanning: \(progress.summary)")
            }
        }
    }

    /// Rebuilds album pages when the configuration asks for them; a failure is logged, not fatal.
    private func buildAlbums(_ configuration: Configuration) async {
        guard let directory = configuration.albumDirectory else { return }
        let builder = AlbumBuilder(index: index, options: AlbumBuilder.Options(configuration, output: directory))
        let stop = StopFlag()
        let outcome = await DedicatedThread.run("album pages", cancel: { stop.stop() }, grace: Self.stopGrace) {
            Result { () throws(AlbumError) in
                try builder.build(
                    shouldStop: { stop.isSet },
                    waiting: { [logger] in
                        logger.notice("album pages: another build is writing \(directory); waiting for it to finish")
                    })
            }
        }
        switch outcome {
        case .success(let summary):
            logger.info("album pages: \(summary.written) written, \(summary.unchanged) unchanged in \(directory)")
        case .failure(let error):
            logger.error("album pages: \(error)")
        case nil:
            logger.error("album pages: still being written at shutdown; left unfinished")
        }
    }
}
