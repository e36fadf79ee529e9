/// Elapsed time and sleeps from one clock, which tests can replace: what the daemon's timing
/// decisions (debouncing, polls, uptime) read instead of the system's clock directly.
public struct ElapsedClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    /// Time as `clock` tells it, counted from now.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { try await clock.sleep(for: $0) }
    }

    /// The monotonic clock of the system.
    public static var continuous: ElapsedClock { ElapsedClock(ContinuousClock()) }

    /// Time since this clock was made.
    public var now: Duration { elapsed() }

    /// Suspends for `duration`; throws when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await sleeper(duration)
    }
}

extension Duration {
    /// The duration in seconds, for people and for JSON.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
