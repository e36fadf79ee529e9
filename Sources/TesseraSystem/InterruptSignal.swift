import Dispatch
import Glibc

/// Ctrl-C (SIGINT) turned into a call, so a command can finish what it has in hand.
public final class InterruptSignal {
    private let source: any DispatchSourceSignal

    /// Calls `handler` on each SIGINT instead of letting it end the process.
    public init(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    deinit { source.cancel() }
}
