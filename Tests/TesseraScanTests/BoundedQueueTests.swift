import Synchronization
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraScan

struct BoundedQueueTests {
    /// A producer that keeps the queue from ever draining, and a consumer taking batches that
    /// wrap around the ring: every element arrives once, in order.
    @Test func batchesKeepOrderAcrossTheRingsEnd() {
        let queue = BoundedQueue<Int>(capacity: 8)
        let count = 100_000
        let producer = DedicatedThread.start("producer") {
            for value in 0..<count { queue.push(value) }
            queue.close()
        }
        var received: [Int] = []
        while true {
            let (batch, finished) = queue.popBatch(limit: 7, until: .now + .seconds(5))
            received += batch
            if finished { break }
        }
        producer.join()
        #expect(received == Array(0..<count))
        #expect(queue.pop() == nil)
    }

    /// The bound holds: a producer with no consumer stops at the capacity, and goes on by one
    /// for each element taken. (Before, an array that compacted only when empty grew with every
    /// element pushed while the queue never drained.)
    @Test func aPushWaitsWhileTheQueueIsFull() {
        let queue = BoundedQueue<Int>(capacity: 8)
        let pushed = Atomic(0)
        let producer = DedicatedThread.start("producer") {
            for value in 0..<10 {
                queue.push(value)
                pushed.add(1, ordering: .sequentiallyConsistent)
            }
        }
        #expect(Deadline.wait(seconds: 10) { pushed.load(ordering: .sequentiallyConsistent) == 8 })
        #expect(queue.isFull)
        #expect(pushed.load(ordering: .sequentiallyConsistent) == 8)
        #expect(queue.pop() == 0)
        #expect(Deadline.wait(seconds: 10) { pushed.load(ordering: .sequentiallyConsistent) == 9 })
        #expect(queue.pop() == 1)
        producer.join()
        #expect(pushed.load(ordering: .sequentiallyConsistent) == 10 && queue.isFull)
    }

    @Test func aClosedQueueRefusesPushesAndDrainsWhatItHolds() {
        let queue = BoundedQueue<String>(capacity: 2)
        #expect(queue.push("a") && queue.push("b") && queue.isFull)
        queue.close()
        #expect(!queue.push("c"))
        #expect(queue.pop() == "a" && queue.pop() == "b" && queue.pop() == nil)
    }
}
