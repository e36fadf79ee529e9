import Foundation
import Glibc
import TesseraTestSupport
import Testing

/// The analyses' queue in the index (docs/INDEX.md, "Analyses") through a SIGKILL: what was
/// written stays, what was not waits, `status` says how many, and the next scan does the rest.
struct AnalysisQueueTests {
    @Test func aScanKilledMidAnalysisLeavesTheRestQueuedAndTheNextFinishesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let count = 150
        let photos = try ScanCommandTests.library(in: directory, count: count, width: 120)
        let store = ScanCommandTests.store(directory)
        let index = directory.appending("index.sqlite")
        try #require(try TesseraProcess.run(["scan", photos] + store).status == 0)
        // Given an index whose picture hashes were made by an older version of their analysis,
        #expect(
            SQLite.write(
                index,
                "UPDATE state SET value = '0' WHERE key = 'analysis:picture-hashes'; UPDATE photos SET phash = NULL"))
        // when the scan that analyses them again from their previews (on a slow disk: at work for
        // seconds, writing a batch a second) is killed once some are written,
        let scan = try TesseraProcess.start(
            ["scan", photos, "--workers", "1"] + store, environment: ["TESSERA_FAULT": "read:SLOW"])
        let caught = Deadline.wait(seconds: 120) {
            let waiting = SQLite.integer(index, "SELECT count(*) FROM analysis_queue") ?? 0
            return waiting > 0 && waiting < count
        }
        kill(scan.pid, SIGKILL)
        _ = scan.wait()
        try #require(caught, "the scan was not caught between two batches of its analyses")
        // then the index is whole, every photo has its hash or waits for it, some wait,
        #expect(SQLite.query(index, "PRAGMA integrity_check")?.first?.first == "ok")
        let waiting = SQLite.integer(index, "SELECT count(*) FROM analysis_queue WHERE failure IS NULL") ?? 0
        let lost = "SELECT count(*) FROM photos WHERE phash IS NULL AND id NOT IN (SELECT photo_id FROM analysis_queue)"
        #expect(SQLite.integer(index, lost) == 0)
        #expect(waiting > 0 && waiting < count)
        // `status` says how many,
        let status = try TesseraProcess.run(["status"] + store)
        #expect(status.stdout.contains("picture-hashes: \(waiting) photos waiting"), "\(status.stdout)")
        // and the next scan analyses them, reading no photo again.
        let next = try TesseraProcess.run(["scan", photos, "--json"] + store)
        #expect(next.status == 0, "\(next.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any]
        let counts = summary?["counts"] as? [String: Any]
        #expect(counts?["unchanged"] as? Int == count && counts?["changed"] as? Int == 0, "\(next.stdout)")
        #expect(SQLite.integer(index, "SELECT count(*) FROM analysis_queue") == 0)
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE phash IS NULL") == 0)
        let after = try TesseraProcess.run(["status"] + store)
        #expect(!after.stdout.contains("waiting"), "\(after.stdout)")
    }
}
