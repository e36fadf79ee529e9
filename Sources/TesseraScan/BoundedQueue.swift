import TesseraSystem

/// A blocking first-in first-out queue with a fixed capacity, between threads.
///
/// `push` waits while the queue is full, so a fast producer (the walker) can never make
/// memory grow with the size of the library; the elements live in a ring of `capacity`
/// slots, so the queue's own storage never grows either, however long it stays non-empty.
public final class BoundedQueue<Element: Sendable>: Sendable {
    private struct Ring {
        var slots: [Element?]
        var start = 0
        var count = 0
        var closed = false

        var isFull: Bool { count == slots.count }

        mutating func append(_ element: Element) {
            slots[(start + count) % slots.count] = element
            count += 1
        }

        /// Removes and returns the oldest element.
        mutating func takeFirst() -> Element? {
            guard count > 0 else { return nil }
            let element = slots[start]
            slots[start] = nil
            start = (start + 1) % slots.count
            count -= 1
            return element
        }
    }

    private let ring: Condition<Ring>

    public init(capacity: Int) {
        ring = Condition(Ring(slots: [Element?](repeating: nil, count: max(1, capacity))))
    }

    /// Whether the queue is at capacity (a push would wait).
    var isFull: Bool { ring.withLock { $0.isFull } }

    /// Adds `element`, waiting for room.
    ///
    /// Returns false when the queue was closed.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        ring.wait(until: { !$0.isFull || $0.closed }) { ring in
            guard !ring.closed else { return false }
            ring.append(element)
            return true
        }
    }

    /// The next element, waiting for one; nil once the queue is closed and drained.
    public func pop() -> Element? {
        ring.wait(until: { $0.count > 0 || $0.closed }) { $0.takeFirst() }
    }

    /// Up to `limit` elements: waits for the first until `deadline`, then takes what is there.
    func popBatch(limit: Int, until deadline: ContinuousClock.Instant) -> (elements: [Element], finished: Bool) {
        ring.wait(until: { $0.count > 0 || $0.closed }, deadline: deadline) { ring in
            var batch: [Element] = []
            batch.reserveCapacity(min(limit, ring.count))
            while batch.count < limit, let element = ring.takeFirst() { batch.append(element) }
            return (batch, ring.closed && ring.count == 0)
        }
    }

    /// No more pushes; pops drain what is left, then return nil.
    public func close() {
        ring.withLock { $0.closed = true }
    }
}
