import ServiceLifecycleTestKit
import SystemPackage
import TesseraConfiguration
import TesseraIndex
import TesseraSamples
import TesseraScan
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraDaemon

/// The daemon run in this process: its services, its control protocol and its timing, with
/// graceful shutdown triggered by the test instead of a signal.
@Suite(.serialized) struct DaemonTests {
    @Test func theControlSocketAnswersStatusRescansAndRefusals() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.remove() }
        try await testGracefulShutdown { shutdown in
            async let running: Void = fixture.daemon.run()
            // The scan at start indexes the sample library.
            #expect(await eventually { fixture.daemon.coordinator.snapshot.finished == 1 })
            let status = try #require(try await fixture.status())
            #expect(
                status.state == .idle && status.totals.photos > 0 && status.scansFinished == 1
                    && status.version == "test")

            // A rescan that waits hears which scan answers it and how that scan ended.
            let added = fixture.photos.appending("added.jpg")
            try FileSystem.writeAtomically(
                try SampleImage.jpeg(SampleImage.pixels(width: 80, height: 60, seed: 3)), to: added)
            let outcome = try await fixture.request(ControlRequest(command: .rescan, wait: true))
            #expect(outcome.accepted == 2 && outcome.finished?.counts.new == 1 && outcome.finished?.state == .finished)

            // Roots must lie within the daemon's own, and are carried as bytes.
            let inside = try await fixture.request(ControlRequest(command: .rescan, roots: [fixture.photos]))
            #expect(inside.accepted == 3)
            await #expect(throws: ControlError.self) {
                try await fixture.request(ControlRequest(command: .rescan, roots: [FilePath("/elsewhere")]))
            }
            shutdown.triggerGracefulShutdown()
            try await running
        }
        // The daemon let go of the index: a one-shot writer can take it at once.
        let lock = IndexLock(index: fixture.configuration.index)
        #expect(try lock.acquire(role: .scan, socket: nil) == nil)
    }

    @Test func aLineThatIsNotARequestIsAnsweredWithWhy() async throws {
        let fixture = try DaemonFixture(scanOnStart: false)
        defer { fixture.remove() }
        try await testGracefulShutdown { shutdown in
            async let running: Void = fixture.daemon.run()
            #expect(await eventually { (try? FileSystem.status(of: fixture.socket))?.type == .socket })
            for (line, answer) in [
                ("not json\n", "malformed request"),
                (#"{"command":"explode"}"# + "\n", #"unknown command \"explode\""#),
                (#"{"command":"rescan","roots":["%%%"]}"# + "\n", "roots must be base64"),
            ] {
                let socket = fixture.socket
                let reply = try await DedicatedThread.run("client") {
                    Result { () throws(SystemError) -> String in
                        let client = try UnixSocket.connect(to: socket, timeout: 10)
                        try client.sendAll(Array(line.utf8))
                        return String(decoding: try client.receive(maximum: 4096) ?? [], as: UTF8.self)
                    }
                }.get()
                #expect(reply.contains(answer), "\(line) → \(reply)")
            }
            shutdown.triggerGracefulShutdown()
            try await running
        }
    }

    /// The scan stops first (so clients waiting on it still hear how it ended), the socket
    /// after it, the timer last.
    @Test func servicesShutDownInReverseOrderWithTheScanFirst() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.remove() }
        try await testGracefulShutdown { shutdown in
            async let running: Void = fixture.daemon.run()
            #expect(await eventually { fixture.daemon.coordinator.snapshot.finished == 1 })
            shutdown.triggerGracefulShutdown()
            try await running
        }
        let finished = fixture.log.recorded.filter { $0.message == "Service finished" }.compactMap {
            $0.metadata["sl-service"]
        }
        #expect(finished == ["scan", "control", "reload", "return", "timer"])
    }

    /// A burst of triggers becomes one scan, started once triggers have been quiet for the
    /// quiet period: time here is the test's clock, moved by hand.
    @Test func aBurstOfTriggersBecomesOneScanOnceTheyAreQuiet() async throws {
        let clock = ManualClock()
        let fixture = try DaemonFixture(scanOnStart: false, clock: ElapsedClock(clock))
        defer { fixture.remove() }
        let coordinator = fixture.daemon.coordinator
        try await testGracefulShutdown { shutdown in
            async let running: Void = fixture.daemon.run()
            coordinator.trigger(full: false)
            #expect(await eventually { clock.sleepingUntil.contains(.milliseconds(500)) })
            clock.advance(by: .milliseconds(300))
            coordinator.trigger(full: false)
            clock.advance(by: .milliseconds(200))
            // Woken at 500 ms, the scan service waits again: until 500 ms after the last trigger.
            #expect(await eventually { clock.sleepingUntil.contains(.milliseconds(800)) })
            #expect(coordinator.snapshot.started == 0)
            clock.advance(by: .milliseconds(300))
            #expect(await eventually { coordinator.snapshot.finished == 1 })
            #expect(coordinator.snapshot.started == 1 && coordinator.snapshot.lastSummary?.counts.new ?? 0 > 0)
            shutdown.triggerGracefulShutdown()
            try await running
        }
    }

    /// Triggers that never fall quiet still get a scan, `settleLimit` after the first of them.
    @Test func triggersThatNeverFallQuietStillScanAfterTheLimit() {
        let clock = ManualClock()
        let coordinator = ScanCoordinator(progress: ScanProgress(), clock: ElapsedClock(clock))
        #expect(coordinator.settleDelay() == .zero)
        coordinator.trigger(full: false)
        #expect(coordinator.settleDelay() == ScanCoordinator.quietPeriod)
        var elapsed: Duration = .zero
        while elapsed < ScanCoordinator.settleLimit - .milliseconds(400) {
            clock.advance(by: .milliseconds(400))
            elapsed += .milliseconds(400)
            coordinator.trigger(full: false)
            #expect(
                coordinator.settleDelay() == min(ScanCoordinator.quietPeriod, ScanCoordinator.settleLimit - elapsed))
        }
        clock.advance(by: ScanCoordinator.settleLimit - elapsed)
        coordinator.trigger(full: false)
        #expect(coordinator.settleDelay() == .zero)
    }
}
