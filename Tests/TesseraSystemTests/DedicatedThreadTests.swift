import Synchronization
import Testing

@testable import TesseraSystem

@Suite struct DedicatedThreadTests {
    final class Held: Sendable {}

    /// A joined thread holds nothing of its body: what the body captured (a site's open
    /// database) is let go of before `join` returns, not whenever the thread ends.
    @Test func aJoinedThreadHasLetGoOfWhatItsBodyHeld() {
        for _ in 0..<200 {
            weak var gone: Held?
            let thread: DedicatedThread
            do {
                let held = Held()
                gone = held
                thread = DedicatedThread.start("holder") { withExtendedLifetime(held) {} }
            }
            thread.join()
            let held = gone != nil
            #expect(!held)
            if held { return }
        }
    }
}
