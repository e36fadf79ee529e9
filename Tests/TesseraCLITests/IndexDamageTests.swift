import Foundation
import Glibc
import TesseraTestSupport
import Testing

/// A damaged or emptied index file is noticed and said so, with the way back.
struct IndexDamageTests {
    /// Runs `sql` against the file with the sqlite3 tool, read-write; its exit status.
    @discardableResult
    static func sqlite(_ path: String, _ sql: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Twelve photos scanned into an index: the folder, the store options and the index's path.
    static func indexedLibrary(
        in directory: TemporaryDirectory
    ) throws -> (photos: String, store: [String], index: String) {
        let photos = try ScanCommandTests.library(in: directory, count: 12, width: 100)
        let store = ScanCommandTests.store(directory)
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        return (photos, store, directory.appending("index.sqlite"))
    }

    static func integrity(_ index: String) -> String {
        SQLite.query(index, "PRAGMA integrity_check")?.map { $0.joined() }.joined(separator: "; ") ?? "unreadable"
    }

    @Test func indexEntriesLostInACrashAreRebuiltByTheNextScan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (photos, store, index) = try Self.indexedLibrary(in: directory)
        // An SQLite index of the photos that lost every entry (its tree empty, its definition
        // whole), and a scan that never finished: what a crash on a bad disk leaves.
        #expect(
            try Self.sqlite(
                index,
                """
                DROP INDEX photos_scan; CREATE INDEX photos_scan ON photos(scan_id, path) WHERE 0;
                PRAGMA writable_schema = ON;
                UPDATE sqlite_schema SET sql = 'CREATE INDEX photos_scan ON photos(scan_id, path)' WHERE name = 'photos_scan';
                UPDATE scans SET state = 'running', finished_at_ms = NULL WHERE id = (SELECT MAX(id) FROM scans);
                """) == 0)
        #expect(Self.integrity(index).contains("missing from index photos_scan"))
        let scan = try TesseraProcess.run(["scan", photos] + store)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stderr.contains("the index file was damaged") && scan.stderr.contains("rebuilt"), "\(scan.stderr)")
        #expect(Self.integrity(index) == "ok")
        #expect(SQLite.integer(index, "SELECT COUNT(*) FROM photos") == 12)
    }

    @Test func anIndexDamagedBeyondRepairStopsTheScanAndSaysHowToStartAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (photos, store, index) = try Self.indexedLibrary(in: directory)
        #expect(try Self.sqlite(index, "PRAGMA wal_checkpoint(TRUNCATE)") == 0)
        // The photos table's first page overwritten: the rows themselves are lost.
        let root = try #require(SQLite.integer(index, "SELECT rootpage FROM sqlite_schema WHERE name = 'photos'"))
        let pageSize = try #require(SQLite.integer(index, "PRAGMA page_size"))
        let file = try #require(FileHandle(forWritingAtPath: index))
        try file.seek(toOffset: UInt64((root - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try file.close()
        let full = try TesseraProcess.run(["scan", photos, "--full"] + store)
        #expect(full.status != 0)
        #expect(full.stderr.contains("damaged") && full.stderr.contains("Move it aside"), "\(full.stderr)")
        // Doing what it says works.
        try FileManager.default.moveItem(atPath: index, toPath: index + ".damaged")
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        #expect(SQLite.integer(index, "SELECT COUNT(*) FROM photos") == 12)
    }

    @Test func anEmptyIndexFileIsCalledWhatItIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = directory.appending("index.sqlite")
        #expect(FileManager.default.createFile(atPath: index, contents: Data()))
        let list = try TesseraProcess.run(["list", "--index", index])
        #expect(list.status != 0)
        #expect(list.stderr.contains("holds no index") && !list.stderr.contains("schema 0"), "\(list.stderr)")
    }
}
