import Foundation
import Glibc
import SystemPackage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// No file can kill every scan: a crafted file is read without a trap, and a file in hand when a
/// scan died is read alone by the next scan, then skipped with a reason if it kills that one too.
struct CrashJournalTests {
    @Test func aMotionPhotoWhoseMP4ClaimsAHugeBoxIsIndexedWithTheRest() throws {
        // Given a library with a motion photo whose moov box claims 2^63 - 1 bytes in a 64-bit size,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 12, width: 320)
        let crafted = photos + "/album1/crafted.jpg"
        try FileSystem.writeAtomically(
            SampleMotionPhoto.jpeg(video: SampleMotionPhoto.boxes(largeSize: UInt64(Int64.max))), to: FilePath(crafted))
        // when it is scanned and inspected,
        let scan = try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory))
        let inspect = try TesseraProcess.run(["inspect", crafted, "--json"])
        // then both finish, every photo is indexed, and the crafted one is a still with a warning.
        #expect(scan.status == 0, "\(scan.stdout) \(scan.stderr)")
        let index = directory.appending("index.sqlite")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE status = 'ok'") == 12)
        #expect(
            SQLite.integer(
                index, "SELECT count(*) FROM photos WHERE status = 'warning' AND path_text LIKE '%crafted.jpg'") == 1)
        #expect(
            inspect.status == 0 && inspect.stdout.contains("no MP4 starts where it says"),
            "\(inspect.stdout) \(inspect.stderr)")
    }

    /// The files the journal beside `index` holds: slots whose state byte is set, or is `state`
    /// (1: read among others, 2: read alone).
    static func filesInHand(_ index: String, state: UInt8? = nil) -> Int {
        guard let bytes = FileManager.default.contents(atPath: index + ".reading") else { return 0 }
        return stride(from: 0, to: bytes.count, by: 8192).filter { slot in
            state.map { bytes[slot] == $0 } ?? (bytes[slot] != 0)
        }.count
    }

    /// Starts a scan whose reads never return (a stand-in for a file that crashes the reader),
    /// waits until the journal holds `inHand` files in `state`, and kills it with SIGKILL.
    static func scanKilledWhileReading(_ arguments: [String], index: String, inHand: Int, state: UInt8) throws {
        let scan = try TesseraProcess.start(arguments, environment: ["TESSERA_FAULT": "read:STALL"])
        let reading = Deadline.wait(seconds: 60) { filesInHand(index, state: state) >= inHand }
        kill(scan.pid, SIGKILL)
        _ = scan.wait()
        try #require(reading, "the scan never had \(inHand) files in hand")
    }

    /// A library of `count` photos in `directory`, its index, and a scan of it by `workers`
    /// workers that was killed with as many files in hand.
    static func libraryAfterAKilledScan(
        _ directory: TemporaryDirectory, count: Int, workers: Int = 2
    ) throws -> (index: String, scan: [String]) {
        let photos = try ScanCommandTests.library(in: directory, count: count, width: 320)
        let index = directory.appending("index.sqlite")
        let scan = ["scan", photos, "--workers", "\(workers)"] + ScanCommandTests.store(directory)
        try scanKilledWhileReading(scan, index: index, inHand: workers, state: 1)
        return (index, scan)
    }

    @Test func filesInHandWhenAScanDiesAreReadAloneThenSkippedIfTheyKillThatScanToo() throws {
        // Given two photos and two workers, a scan that died with both in hand,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, scan) = try Self.libraryAfterAKilledScan(directory, count: 2)
        // when the next dies reading the first alone,
        try Self.scanKilledWhileReading(scan, index: index, inHand: 1, state: 2)
        // then the scan after records that one as failed unread, and reads the other alone;
        let third = try TesseraProcess.run(scan)
        #expect(third.status == 0, "\(third.stdout) \(third.stderr)")
        #expect(
            third.stderr.contains("reading it alone") && third.stderr.contains("recorded as failed"), "\(third.stderr)")
        let rows = SQLite.query(index, "SELECT status, error_code, error FROM photos ORDER BY status") ?? []
        #expect(
            rows.count == 2 && rows.first?[0] == "error" && rows.first?[1] == "crashed" && rows.last?[0] == "ok",
            "\(rows)")
        #expect(rows.first?[2].contains("Tessera stopped while reading this file") == true, "\(rows)")
        #expect(Self.filesInHand(index) == 0)
        // and later scans open neither again.
        let fourth = try TesseraProcess.run(scan, environment: ["TESSERA_FAULT": "read:STALL"])
        #expect(
            fourth.status == 0 && fourth.stdout.contains("2 files: 2 unchanged"), "\(fourth.stdout) \(fourth.stderr)")
    }

    /// One kill is never a verdict, even of a one-worker scan's only file in hand.
    @Test(arguments: [1, 2])
    func aScanKilledWithFilesInHandLosesNoneOfThem(workers: Int) throws {
        // Given a library of eight photos, a scan killed with one file in hand per worker,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, scan) = try Self.libraryAfterAKilledScan(directory, count: 8, workers: workers)
        // when the next scan runs,
        let next = try TesseraProcess.run(scan)
        // then they are read alone and every photo is indexed, none failed.
        #expect(
            next.status == 0 && next.stderr.components(separatedBy: "reading it alone").count == workers + 1,
            "\(next.stderr)")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE status = 'ok'") == 8)
        #expect(Self.filesInHand(index) == 0)
    }

    @Test func filesInHandThatChangedBeforeTheNextScanAreReadAsAnyOther() throws {
        // Given a scan killed with two files in hand, both then rewritten,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, scan) = try Self.libraryAfterAKilledScan(directory, count: 4)
        let photos = directory.appending("photos")
        for number in 0..<4 {
            try FileSystem.writeAtomically(
                ScanCommandTests.jpeg(width: 300, seed: 90 + number),
                to: FilePath(photos).appending("album\(number % 3)/p\(number).jpg"))
        }
        // when the next scan runs, it reads them among the others and forgets what the crash left,
        let next = try TesseraProcess.run(scan)
        #expect(next.status == 0 && !next.stderr.contains("reading it alone"), "\(next.stderr)")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE status = 'ok'") == 4)
        #expect(Self.filesInHand(index) == 0)
        // so the scan after says nothing of a crash.
        let after = try TesseraProcess.run(scan)
        #expect(after.status == 0 && !after.stderr.contains("stopped while reading"), "\(after.stderr)")
    }

    @Test func aRepairInHandWhenAScanDiesIsReadAloneToo() throws {
        // Given two indexed photos whose rendition files were deleted, and a scan killed while
        // its workers repaired them,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 320)
        let index = directory.appending("index.sqlite")
        let scan = ["scan", photos, "--workers", "2"] + ScanCommandTests.store(directory)
        #expect(try TesseraProcess.run(scan).status == 0)
        // Two files a photo: each pair of sizes it is too small for shares one.
        let files = (SQLite.query(index, "SELECT DISTINCT path FROM renditions") ?? []).map { $0[0] }
        try #require(files.count == 4)
        for file in files { try FileManager.default.removeItem(atPath: file) }
        try Self.scanKilledWhileReading(scan, index: index, inHand: 2, state: 1)
        // when the next scan runs,
        let next = try TesseraProcess.run(scan)
        // then both repairs are made alone, and every rendition file is back.
        #expect(
            next.status == 0 && next.stderr.components(separatedBy: "reading it alone").count == 3, "\(next.stderr)")
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(Self.filesInHand(index) == 0)
    }
}
