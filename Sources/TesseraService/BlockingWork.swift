import Foundation
import Synchronization

/// The one way Tessera runs blocking work from async code: on a dedicated thread, awaited.
///
/// The shared cooperative pool must never block (the daemon's timer and watchdog run
/// on it), so scans, the control socket's poll loop and album builds each get a
/// thread of their own for as long as they run.
enum BlockingWork {
    /// Runs `body` on a new thread named `name` and returns its result.
    static func run<Result: Sendable>(_ name: String, _ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            start(name) { continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on a new thread; when the awaiting task is cancelled, calls `cancel` (which
    /// should make `body` return soon) and, if `body` is still running `grace` later, stops
    /// waiting for it and returns nil. A thread stuck in an uninterruptible read (a dead NFS
    /// server) can then not hold up the daemon's exit.
    static func run<Result: Sendable>(
        _ name: String, cancel: @escaping @Sendable () -> Void, grace: Duration,
        _ body: @escaping @Sendable () -> Result
    ) async -> Result? {
        let pending = Mutex<CheckedContinuation<Result?, Never>?>(nil)
        let finish: @Sendable (Result?) -> Void = { value in
            pending.withLock { continuation in
                continuation?.resume(returning: value)
                continuation = nil
            }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.withLock { $0 = continuation }
                start(name) { finish(body()) }
                if Task.isCancelled { abandon(after: grace, cancel: cancel, finish: finish) }
            }
        } onCancel: {
            abandon(after: grace, cancel: cancel, finish: finish)
        }
    }

    private static func abandon<Result: Sendable>(
        after grace: Duration, cancel: @escaping @Sendable () -> Void, finish: @escaping @Sendable (Result?) -> Void
    ) {
        cancel()
        let seconds = Double(grace.components.seconds) + Double(grace.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { finish(nil) }
    }

    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }
}
