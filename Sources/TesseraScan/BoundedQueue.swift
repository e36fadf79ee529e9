import Foundation

/// A blocking first-in first-out queue with a fixed capacity, between threads.
///
/// `push` waits while the queue is full, so a fast producer (the walker) can never make
/// memory grow with the size of the library; the elements live in a ring of `capacity`
/// slots, so the queue's own storage never grows either, however long it stays non-empty.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `slots`, `start`, `count` and `closed` holds `condition`.
    private let condition = NSCondition()
    private var slots: [Element?]
    private var start = 0
    private var count = 0
    private var closed = false

    init(capacity: Int) {
        slots = [Element?](repeating: nil, count: max(1, capacity))
    }

    /// How many elements the storage holds room for: the capacity, always (a test checks that a
    /// queue that never drains does not grow).
    var storageSize: Int {
        condition.lock()
        defer { condition.unlock() }
        return slots.count
    }

    /// Whether the queue is at capacity (a push would wait).
    var isFull: Bool {
        condition.lock()
        defer { condition.unlock() }
        return count == slots.count
    }

    /// Adds `element`, waiting for room. Returns false when the queue was closed.
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == slots.count && !closed { condition.wait() }
        guard !closed else { return false }
        slots[(start + count) % slots.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// The next element, waiting for one; nil once the queue is closed and drained.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        let element = takeFirst()
        condition.broadcast()
        return element
    }

    /// Up to `limit` elements: waits for the first until `deadline`, then takes what is there.
    func popBatch(limit: Int, until deadline: Date) -> (elements: [Element], finished: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed {
            if !condition.wait(until: deadline) { break }
        }
        var batch: [Element] = []
        batch.reserveCapacity(min(limit, count))
        while batch.count < limit, let element = takeFirst() { batch.append(element) }
        condition.broadcast()
        return (batch, closed && count == 0)
    }

    /// No more pushes; pops drain what is left, then return nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Removes and returns the oldest element; the caller holds `condition`.
    private func takeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[start]
        slots[start] = nil
        start = (start + 1) % slots.count
        count -= 1
        return element
    }
}
