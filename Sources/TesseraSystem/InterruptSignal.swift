import Glibc
import UnixSignals

/// Ctrl-C (SIGINT) turned into a call, so a command can finish what it has in hand.
///
/// Signals are received one way throughout: swift-service-lifecycle's `UnixSignalsSequence`,
/// which the daemon's ServiceGroup uses too.
public final class InterruptSignal: Sendable {
    private let listener: Task<Void, Never>

    /// Calls `handler` on each SIGINT instead of letting it end the process.
    public init(_ handler: @escaping @Sendable () -> Void) {
        // Ignored until the sequence traps it, so a Ctrl-C that comes first cannot end the process.
        signal(SIGINT, SIG_IGN)
        listener = Task {
            for await _ in await UnixSignalsSequence(trapping: .sigint) { handler() }
        }
    }

    deinit { listener.cancel() }
}
