import Glibc

/// State shared between threads, with waits until it is as wanted: the one way Tessera's
/// threads wait for each other (a mutex and a condition variable on the monotonic clock).
///
/// Every change made under `withLock` wakes the waiters, which look at the state again.
/// Async code never waits here: it awaits (see `DedicatedThread.run`).
public final class Condition<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    public init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the state held, then wakes every waiter.
    public func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&state)
    }

    /// Waits until `isReady(state)` or until `deadline` (nil: for ever), then runs `body` with the
    /// state held, and wakes every waiter.
    public func wait<Result>(
        until isReady: (State) -> Bool, deadline: ContinuousClock.Instant? = nil, then body: (inout State) -> Result
    ) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        while !isReady(state) {
            guard let deadline else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { break }
            var until = timespec()
            clock_gettime(CLOCK_MONOTONIC, &until)
            let (seconds, attoseconds) = remaining.components
            let nanoseconds = Int(until.tv_nsec) + Int(attoseconds / 1_000_000_000)
            until.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
            until.tv_nsec = nanoseconds % 1_000_000_000
            pthread_cond_timedwait(condition, mutex, &until)
        }
        return body(&state)
    }
}
