import Foundation
import Synchronization

/// The one way Tessera runs blocking work: on a thread of its own.
///
/// Scans (the walker, the render workers, the writer), the control socket's poll loop,
/// the watcher, album builds and the progress display all block, and the shared
/// cooperative pool must never block (the daemon's timer and watchdog run on it).
/// Synchronous code starts threads and joins them; async code awaits `run`.
public final class DedicatedThread: Sendable {
    private let done = Condition(false)

    private init() {}

    /// Starts `body` on a new thread named `name`.
    @discardableResult
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) -> DedicatedThread {
        let handle = DedicatedThread()
        // Handed over, not captured: what `body` holds is let go of before `join` returns, so a
        // joined thread keeps nothing alive (an open database, a file) past its caller's end.
        let work = Mutex<(@Sendable () -> Void)?>(body)
        let thread = Thread {
            do {
                let body = work.withLock { $0.take() }
                body?()
            }
            handle.done.withLock { $0 = true }
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
        return handle
    }

    /// Waits for the thread's body to return.
    public func join() {
        done.wait(until: { $0 }) { _ in }
    }

    /// Runs `body` on a dedicated thread and returns its result.
    public static func run<Result: Sendable>(_ name: String, _ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            start(name) { continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on a dedicated thread; when the awaiting task is cancelled, calls `cancel`
    /// (which should make `body` return soon) and, if `body` is still running `grace` later,
    /// stops waiting for it and returns nil.
    ///
    /// A thread stuck in an uninterruptible read (a dead
    /// NFS server) then cannot hold up the daemon's exit.
    public static func run<Result: Sendable>(
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
        let abandon: @Sendable () -> Void = {
            cancel()
            Task {
                try? await Task.sleep(for: grace)
                finish(nil)
            }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.withLock { $0 = continuation }
                start(name) { finish(body()) }
                if Task.isCancelled { abandon() }
            }
        } onCancel: {
            abandon()
        }
    }
}
