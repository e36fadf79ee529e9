import TesseraFacts
import TesseraSystem

/// The memory that the decodes of one scan (or one `tessera thumb` run) may hold at once,
/// shared by its workers: `memory_limit` for each of them.
///
/// A decode reserves what its header says it needs before it allocates anything large. Most
/// need less than one worker's share, so side by side they always fit. A larger one takes what
/// others leave: when that is not enough it waits, in turn with other waiters, while the
/// decodes under way finish (they never wait for it), and the ones after it continue beside
/// it with what it leaves. Only a decode that needs more than the whole pool is refused.
///
/// Waiting holds nothing: a decode that learns mid-way that it needs more than it can take at
/// once gives back what it holds, waits for the whole amount and starts again
/// (`MemoryReservation.retry`), so no two decodes ever wait for each other.
public final class MemoryPool: Sendable {
    /// Bytes the pool holds in all.
    public let capacity: Int
    private let state: Condition<State>

    private struct State {
        var held = 0
        /// Tickets of the decodes waiting, in the order they came.
        var waiting: [Int] = []
        var nextTicket = 0
    }

    /// A pool of `share` bytes for each of `workers` workers.
    public init(share: Int, workers: Int) {
        let (capacity, overflow) = share.multipliedReportingOverflow(by: max(1, workers))
        self.capacity = overflow ? Int.max / 2 : capacity
        state = Condition(State())
    }

    /// Takes `bytes` more for a decode that already holds `holding`, when they fit now and no
    /// decode that holds nothing is waiting ahead of it (a holder may always grow into room
    /// left, since it gives its memory back soon).
    func take(_ bytes: Int, holding: Int) -> Bool {
        state.withLock { state in
            guard state.held + bytes <= capacity, holding > 0 || state.waiting.isEmpty else { return false }
            state.held += bytes
            return true
        }
    }

    /// Waits until `bytes` fit, in turn with the other waiters, then holds them.
    func wait(for bytes: Int) {
        let ticket = state.withLock { state in
            defer { state.nextTicket += 1 }
            state.waiting.append(state.nextTicket)
            return state.nextTicket
        }
        state.wait(until: { $0.waiting.first == ticket && $0.held + bytes <= capacity }) { state in
            state.waiting.removeFirst()
            state.held += bytes
        }
    }

    func give(_ bytes: Int) {
        state.withLock { $0.held -= bytes }
    }

    /// Bytes held now, by every decode.
    public var held: Int { state.withLock { $0.held } }

    /// Returns once `count` decodes are waiting (what tests wait on).
    func waitForWaiters(_ count: Int) {
        state.wait(until: { $0.waiting.count >= count }) { _ in }
    }
}

/// What one render holds of a `MemoryPool`; given back when the render ends.
final class MemoryReservation {
    let pool: MemoryPool
    private(set) var held = 0
    /// Set when a decode found that it needs more than it could take without waiting: the
    /// render gives everything back, waits for this many bytes, and decodes again.
    private(set) var retry: Int?

    init(pool: MemoryPool) {
        self.pool = pool
    }

    /// Holds at least `bytes` in all, taken now or waited for; throws `.tooLarge` past the whole
    /// pool, or (with `retry` set) when waiting would mean waiting while holding memory.
    func cover(_ bytes: Int, refusal: @autoclosure () -> String) throws(PhotoError) {
        guard bytes > held else { return }
        guard bytes <= pool.capacity else { throw PhotoError(.tooLarge, refusal()) }
        if let pending = retry {
            retry = max(pending, bytes)
        } else if pool.take(bytes - held, holding: held) {
            held = bytes
            return
        } else if held == 0 {
            pool.wait(for: bytes)
            held = bytes
            return
        } else {
            retry = bytes
        }
        throw PhotoError(.tooLarge, "waiting for memory")
    }

    /// Gives back what is held, then waits for what the last attempt found it needs.
    func restart() {
        let needed = retry ?? 0
        release()
        retry = nil
        pool.wait(for: needed)
        held = needed
    }

    func release() {
        if held > 0 { pool.give(held) }
        held = 0
    }
}
