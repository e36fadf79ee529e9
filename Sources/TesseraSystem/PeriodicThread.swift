/// Calls `tick` every `interval` on a thread of its own until `stop()`, which wakes the thread
/// at once and returns when it has ended (a tick under way finishes first).
public final class PeriodicThread: Sendable {
    private let running = Condition(true)
    private let thread: DedicatedThread

    public init(_ name: String, every interval: Duration, _ tick: @escaping @Sendable () -> Void) {
        let running = running
        thread = DedicatedThread.start(name) {
            var next = ContinuousClock.now + interval
            while running.wait(until: { !$0 }, deadline: next, then: { $0 }) {
                next = .now + interval
                tick()
            }
        }
    }

    public func stop() {
        running.withLock { $0 = false }
        thread.join()
    }
}
