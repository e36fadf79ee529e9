import Foundation
@testable import TesseraScan
import TesseraConfiguration
import Testing

struct BoundedQueueTests {
    /// A producer that keeps the queue from ever draining, and a consumer taking batches that
    /// wrap around the ring: every element arrives once, in order.
    @Test func batchesKeepOrderAcrossTheRingsEnd() {
        let queue = BoundedQueue<Int>(capacity: 8)
        let count = 100_000
        let producer = Thread {
            for value in 0..<count { queue.push(value) }
            queue.close()
        }
        producer.start()
        var received: [Int] = []
        var largestStorage = 0
        while true {
            let (batch, finished) = queue.popBatch(limit: 7, until: Date().addingTimeInterval(5))
            largestStorage = max(largestStorage, queue.storageSize)
            received += batch
            if finished { break }
        }
        #expect(received == Array(0..<count))
        #expect(queue.pop() == nil)
        // The storage is what the capacity asks all along, however long the queue goes without
        // draining: before, an array that compacted only when empty grew with every element
        // pushed meanwhile (the scan's outcome queue held a library's worth of outcomes).
        #expect(largestStorage == 8)
    }

    @Test func aClosedQueueRefusesPushesAndDrainsWhatItHolds() {
        let queue = BoundedQueue<String>(capacity: 2)
        #expect(queue.push("a") && queue.push("b") && queue.isFull)
        queue.close()
        #expect(!queue.push("c"))
        #expect(queue.pop() == "a" && queue.pop() == "b" && queue.pop() == nil)
    }
}
