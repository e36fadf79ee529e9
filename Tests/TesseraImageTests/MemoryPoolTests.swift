import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraImage

/// Decodes share one pool: one larger than a share waits for room instead of being refused,
/// waiters are served in turn, and nothing waits while holding memory.
struct MemoryPoolTests {
    @Test func aDecodeWaitsForRoomAndTheNextWaitsBehindIt() {
        let pool = MemoryPool(share: 100, workers: 2)
        let holder = MemoryReservation(pool: pool)
        #expect(throws: Never.self) { try holder.cover(150, refusal: "") }
        let order = Condition<[String]>([])
        /// A decode of `bytes` on a thread of its own, which says when it got them.
        func decode(_ name: String, _ bytes: Int) -> DedicatedThread {
            DedicatedThread.start(name) {
                let memory = MemoryReservation(pool: pool)
                try? memory.cover(bytes, refusal: "")
                order.withLock { $0.append(name) }
                memory.release()
            }
        }
        // The first waiter needs 120: only 50 are left.
        let large = decode("large", 120)
        pool.waitForWaiters(1)
        // A small one that would fit now still waits its turn behind the large one.
        let small = decode("small", 10)
        pool.waitForWaiters(2)
        #expect(order.withLock { $0 }.isEmpty)
        holder.release()
        large.join()
        small.join()
        // Both are served once there is room (in which order their threads then run is theirs).
        #expect(order.withLock { $0 }.sorted() == ["large", "small"])
        #expect(pool.held == 0)
    }

    @Test func onlyADecodeLargerThanTheWholePoolIsRefused() throws {
        let pool = MemoryPool(share: 100, workers: 2)
        let memory = MemoryReservation(pool: pool)
        try memory.cover(200, refusal: "")
        memory.release()
        #expect(throws: PhotoError.self) { try memory.cover(201, refusal: "too large") }
        #expect(pool.held == 0)
    }

    /// A decode that holds memory and needs more than is left gives it all back and asks again
    /// for the whole: two such decodes never wait for each other.
    @Test func aHolderThatMustGrowStartsAgainInsteadOfWaiting() throws {
        let pool = MemoryPool(share: 100, workers: 2)
        let (first, second) = (MemoryReservation(pool: pool), MemoryReservation(pool: pool))
        try first.cover(90, refusal: "")
        try second.cover(90, refusal: "")
        #expect(throws: PhotoError.self) { try first.cover(150, refusal: "") }
        #expect(first.retry == 150 && first.held == 90)
        second.release()
        first.restart()
        #expect(first.held == 150 && first.retry == nil && pool.held == 150)
        first.release()
    }

    /// Through the renderer: a HEIF that needs most of the pool while another decode holds it
    /// waits, then renders once that one is done.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func aRenderWaitsForMemoryAnotherHolds() throws {
        let path = FilePath(Corpus.path("formats/heic/Canon.HIF"))
        let pool = MemoryPool(share: 48 << 20, workers: 2)
        let other = MemoryReservation(pool: pool)
        try other.cover(80 << 20, refusal: "")
        let done = Condition<Renderer.Rendered?>(nil)
        let render = DedicatedThread.start("render") {
            let rendered = try? Renderer(options: RenderOptions(), pool: pool).render(file: path, specs: [.fit(1024)])
            done.withLock { $0 = rendered }
        }
        pool.waitForWaiters(1)
        #expect(done.withLock { $0 } == nil)
        other.release()
        render.join()
        #expect(done.withLock { $0?.renditions.first?.width } == 1024)
        #expect(pool.held == 0)
    }
}
