import Glibc
import UnixSignals

/// Ctrl-C (SIGINT), and SIGTERM when asked, turned into a call, so a command can finish what it
/// has in hand.
///
/// Signals are received one way throughout: swift-service-lifecycle's `UnixSignalsSequence`,
/// which the daemon's ServiceGroup uses too.
public final class InterruptSignal: Sendable {
    private let listener: Task<Void, Never>

    /// Calls `handler` on each SIGINT (and SIGTERM, when `terminate`: a service's stop) instead of
    /// letting it end the process.
    public init(terminate: Bool = false, _ handler: @escaping @Sendable () -> Void) {
        // Ignored until the sequence traps it, so a signal that comes first cannot end the process.
        signal(SIGINT, SIG_IGN)
        if terminate { signal(SIGTERM, SIG_IGN) }
        listener = Task {
            let signals: [UnixSignal] = terminate ? [.sigint, .sigterm] : [.sigint]
            for await _ in await UnixSignalsSequence(trapping: signals) { handler() }
        }
    }

    deinit { listener.cancel() }
}
