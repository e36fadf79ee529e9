import Foundation

/// A blocking first-in first-out queue with a fixed capacity, between threads.
///
/// `push` waits while the queue is full, so a fast producer (the walker) can
/// never make memory grow with the size of the library.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `items` and `closed` holds `condition`.
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Whether the queue is at capacity (a push would wait).
    var isFull: Bool {
        condition.lock()
        defer { condition.unlock() }
        return items.count - head >= capacity
    }

    /// Adds `element`, waiting for room. Returns false when the queue was closed.
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The next element, waiting for one; nil once the queue is closed and drained.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed { condition.wait() }
        guard head < items.count else { return nil }
        let element = items[head]
        head += 1
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return element
    }

    /// Up to `limit` elements: waits for the first until `deadline`, then takes what is there.
    func popBatch(limit: Int, until deadline: Date) -> (elements: [Element], finished: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed {
            if !condition.wait(until: deadline) { break }
        }
        let end = min(items.count, head + limit)
        let batch = Array(items[head..<end])
        head = end
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return (batch, closed && head == items.count)
    }

    /// No more pushes; pops drain what is left, then return nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
