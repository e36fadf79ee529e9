import Foundation
import Glibc
import TesseraTestSupport
import Testing

/// One writer per index, and readers that never see "database is locked".
struct WriterLockTests {
    @Test func overlappingScansLoseNoRows() throws {
        // Given a library and six scans of it started at once on one index,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 120, width: 320)
        let runs = try (0..<6).map { _ in
            try TesseraProcess.start(["scan", photos, "--workers", "1"] + ScanCommandTests.store(directory))
        }
        let results = runs.map { $0.wait() }
        // then each finishes, the later ones after waiting their turn, and no row is lost.
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        #expect(results.contains { $0.stderr.contains("waiting for tessera scan (pid") })
        let index = directory.appending("index.sqlite")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos") == 120)
        #expect(SQLite.integer(index, "SELECT count(*) FROM scans WHERE state != 'finished'") == 0)
    }

    @Test func aSecondScanWithNoWaitRefusesNamingTheHolder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 60, width: 320)
        // (from a slow disk: still at work when the second comes, whatever the machine's speed)
        let first = try TesseraProcess.start(
            ["scan", photos, "--workers", "1"] + ScanCommandTests.store(directory),
            environment: ["TESSERA_FAULT": "read:SLOW"])
        defer { _ = first.wait() }
        // Once the first scan holds the index (its note says so),
        let note = directory.appending("index.sqlite.lock")
        #expect(
            Deadline.wait(seconds: 20) {
                (try? String(contentsOfFile: note, encoding: .utf8))?.contains("pid=\(first.pid)") == true
            })
        // a second one refuses at once, naming it, with the "try again later" status.
        let second = try TesseraProcess.run(["scan", photos, "--no-wait"] + ScanCommandTests.store(directory))
        #expect(second.status == 75, "the library may be too small to catch the first scan at work: \(second.stdout)")
        #expect(second.stderr.contains("being written by tessera scan (pid \(first.pid)"), "\(second.stderr)")
    }

    @Test func aScanOfAServedIndexIsHandedToTheDaemon() throws {
        // Given a daemon serving an index,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 30, width: 320)
        let daemon = try DaemonProcess(photos: photos, directory: directory)
        defer { _ = daemon.terminate() }
        #expect(Deadline.wait(seconds: 30) { (try? daemon.status())?["scansFinished"] as? Int == 1 })
        // when photos are added and `tessera scan` runs against the same index,
        for number in 0..<5 {
            let jpeg = try ScanCommandTests.jpeg(width: 200, seed: 500 + number)
            try Data(jpeg).write(to: URL(fileURLWithPath: photos + "/album0/added\(number).jpg"))
        }
        let scan = try TesseraProcess.run(["scan", photos] + daemon.store)
        // then the daemon does the scan, the command shows its outcome, and every row is there.
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(
            scan.stderr.contains("served by tessera serve (pid \(daemon.process.processIdentifier)"), "\(scan.stderr)")
        #expect(scan.stdout.contains("Scan finished") && scan.stdout.contains("5 new"), "\(scan.stdout)")
        #expect((try daemon.status())["scansFinished"] as? Int == 2)
        #expect(SQLite.integer(directory.appending("index.sqlite"), "SELECT count(*) FROM photos") == 35)
        // A folder the daemon does not scan is refused, not scanned by a second writer.
        let elsewhere = directory.appending("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let outside = try TesseraProcess.run(["scan", elsewhere] + daemon.store)
        #expect(outside.status == 1)
        #expect(outside.stderr.contains("outside"), "\(outside.stderr)")
        // So is a folder inside its roots that is not there, as a scan without a daemon says.
        let absent = try TesseraProcess.run(["scan", photos + "/no-such-folder"] + daemon.store)
        #expect(
            absent.status == 1 && absent.stderr.contains("no-such-folder: cannot open the photo folder"),
            "\(absent.stderr)")
        #expect((try daemon.status())["scansFinished"] as? Int == 2)
    }

    /// Runs `command` `runs` times, touching a photo before each (so every run writes), while
    /// the test reads the index with sqlite3 every `pause` seconds: the reads and the failed ones.
    static func reads(
        during runs: Int, of command: [String], photos: String, index: String, busyTimeout: Int?, pause: Double
    ) -> (reads: Int, failures: Int) {
        let done = Flag()
        let writer = Thread {
            for number in 0..<runs {
                let file = photos + "/album0/p0.jpg"
                var times = [
                    timespec(tv_sec: 1_600_000_000 + number, tv_nsec: 0),
                    timespec(tv_sec: 1_600_000_000 + number, tv_nsec: 0),
                ]
                utimensat(AT_FDCWD, file, &times, 0)
                _ = try? TesseraProcess.run(command)
            }
            done.set()
        }
        writer.start()
        var reads = 0, failures = 0
        while !done.isSet {
            reads += 1
            if SQLite.integer(index, "SELECT count(*) FROM photos", busyTimeout: busyTimeout) != 12 { failures += 1 }
            Thread.sleep(forTimeInterval: pause)
        }
        return (reads, failures)
    }

    @Test func readersWithABusyTimeoutNeverSeeDatabaseIsLocked() throws {
        // Given an index that 40 one-shot scans open and close one after another,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 12, width: 160)
        let index = directory.appending("index.sqlite")
        #expect(try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory)).status == 0)
        // when a reader (sqlite3 -readonly) with a busy timeout asks every 50 ms (without one, the
        // instant SQLite rebuilds the WAL index of a file no process had open can reach it),
        let (reads, failures) = Self.reads(
            during: 40, of: ["scan", photos] + ScanCommandTests.store(directory), photos: photos, index: index,
            busyTimeout: 1000, pause: 0.05)
        // then every read answers (and there were reads all along: one per 50 ms, and more
        // than one per two scans however fast the scans are).
        #expect(reads > 20, "\(reads) reads")
        #expect(failures == 0, "\(failures) of \(reads) reads failed")
    }

    @Test func readersWithoutABusyTimeoutNeverSeeDatabaseIsLockedDuringDaemonRescans() throws {
        // Given a daemon serving an index,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 12, width: 160)
        let daemon = try DaemonProcess(photos: photos, directory: directory)
        defer { _ = daemon.terminate() }
        #expect(Deadline.wait(seconds: 30) { (try? daemon.status())?["scansFinished"] as? Int == 1 })
        // when a reader with no busy timeout at all asks every 20 ms while it rescans 30 times,
        let (reads, failures) = Self.reads(
            during: 30, of: ["rescan", "--wait", "--socket", daemon.socket], photos: photos,
            index: directory.appending("index.sqlite"), busyTimeout: nil, pause: 0.02)
        // then every read answers.
        #expect(reads > 20, "\(reads) reads")
        #expect(failures == 0, "\(failures) of \(reads) reads failed")
        #expect((try daemon.status())["scansFinished"] as? Int ?? 0 >= 31)
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
