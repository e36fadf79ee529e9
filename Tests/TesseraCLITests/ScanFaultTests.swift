import Foundation
import Glibc
import TesseraTestSupport
import Testing

/// A scan under the faults of a real machine: a disk that goes away, reads that fail, kills,
/// a full disk.
///
/// The index stays complete and the cache holds exactly what rows refer to.
struct ScanFaultTests {
    /// Sets every file's mtime under `root` forward, so the next scan reads them all again.
    static func touchAll(_ root: String, seconds: Int) {
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".jpg") else { continue }
            var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
            utimensat(AT_FDCWD, root + "/" + relative, &times, 0)
        }
    }

    /// Thumbnail files in the cache, and temporary files of unfinished writes.
    static func cacheFiles(_ cache: String) -> (files: Set<String>, temporary: Int) {
        var files: Set<String> = [], temporary = 0
        let walker = FileManager.default.enumerator(atPath: cache)
        while let relative = walker?.nextObject() as? String {
            let path = cache + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            if (relative as NSString).lastPathComponent.hasPrefix(".tmp-") {
                temporary += 1
            } else {
                files.insert(path)
            }
        }
        return (files, temporary)
    }

    @Test func aRootThatVanishesMidScanInterruptsItAndRemovesNothing() throws {
        // Given an indexed library whose files all changed,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 60, width: 320)
        let store = ScanCommandTests.store(directory)
        #expect(try TesseraProcess.run(["scan", photos, "--workers", "2"] + store).status == 0)
        Self.touchAll(photos, seconds: 1_700_000_000)
        // when the photo folder is renamed away (as an unmount does) while the next scan is at work
        // (on a slow disk: still at work a batch in, whatever the machine's speed),
        let index = directory.appending("index.sqlite")
        let scan = try TesseraProcess.start(
            ["scan", photos, "--workers", "1"] + store, environment: ["TESSERA_FAULT": "read:SLOW"])
        #expect(
            Deadline.wait(seconds: 60) {
                (SQLite.integer(index, "SELECT count(*) FROM photos WHERE scan_id = 2") ?? 0) > 0
            })
        let wasRunning = scan.isRunning
        #expect(rename(photos, photos + "-away") == 0)
        let result = scan.wait()
        #expect(rename(photos + "-away", photos) == 0)
        try #require(wasRunning, "the library is too small to catch the scan at work")
        // then the scan says it was interrupted, no file is recorded as an error, none is removed,
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("disappeared during the scan"), "\(result.stderr)")
        #expect(SQLite.query(index, "SELECT state FROM scans ORDER BY id DESC LIMIT 1")?.first?.first == "interrupted")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE status = 'error'") == 0)
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos") == 60)
        for row in SQLite.query(index, "SELECT path FROM renditions") ?? [] {
            #expect(FileManager.default.fileExists(atPath: row[0]), "\(row[0])")
        }
        // and the next scan, with the folder back, finishes the work.
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE status IN ('ok', 'warning')") == 60)
    }

    @Test func filesWithTransientErrorsAreReadAgainEvenWhenUnchanged() throws {
        // Given files whose reads failed with an I/O error,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 5, width: 200)
        let store = ScanCommandTests.store(directory)
        let failing = try TesseraProcess.run(["scan", photos] + store, environment: ["TESSERA_FAULT": "read:EIO"])
        #expect(failing.status == 0)
        let index = directory.appending("index.sqlite")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE status = 'error'") == 5)
        // when the disk reads again and nothing about the files changed,
        let scan = try TesseraProcess.run(["scan", photos] + store)
        // then they are read again, not called unchanged.
        #expect(scan.stdout.contains("5 files: 5 read again as they were\n"), "\(scan.stdout)")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE status = 'ok'") == 5)
    }

    @Test func killedScansLeaveNoThumbnailThatNoRowRefersTo() throws {
        // Given scans killed at different moments while files are deleted and rewritten between them,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 48, width: 640)
        let store = ScanCommandTests.store(directory)
        let cache = directory.appending("cache")
        for round in 0..<5 {
            let before = Self.cacheFiles(cache).files.count
            let scan = try TesseraProcess.start(["scan", photos, "--workers", "2"] + store)
            _ = Deadline.wait(seconds: 30) { Self.cacheFiles(cache).files.count >= before + 2 || !scan.isRunning }
            kill(scan.pid, SIGKILL)
            _ = scan.wait()
            // Every photo changes, so what the killed scan rendered but never recorded is now
            // of content no file has; a few photos go away for good.
            for number in 0..<48 {
                let path = photos + "/album\(number % 3)/p\(number).jpg"
                if number % 16 == round {
                    try? FileManager.default.removeItem(atPath: path)
                } else if FileManager.default.fileExists(atPath: path) {
                    try Data(try ScanCommandTests.jpeg(width: 640, seed: 1000 + round * 100 + number)).write(
                        to: URL(fileURLWithPath: path))
                }
            }
        }
        // when a full scan completes,
        #expect(try TesseraProcess.run(["scan", photos, "--full"] + store).status == 0)
        // then every file in the cache belongs to a row, and no unfinished write is left.
        let index = directory.appending("index.sqlite")
        let referenced = Set((SQLite.query(index, "SELECT path FROM renditions") ?? []).map { $0[0] })
        let (files, temporary) = Self.cacheFiles(cache)
        #expect(files.subtracting(referenced).isEmpty, "leaked: \(files.subtracting(referenced).sorted())")
        #expect(referenced.subtracting(files).isEmpty, "missing: \(referenced.subtracting(files).sorted())")
        #expect(temporary == 0)
    }

    @Test func aFullCacheDiskFailsTheScanWithItsReason() throws {
        // Given a thumbnail cache on a real file system that is almost full (a 160 KiB tmpfs,
        // mounted in a user namespace of this test's own),
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 40, width: 1600)
        let cache = directory.appending("cache")
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let script = """
            mount -t tmpfs -o size=160k tessera-test "$1" || exit 90
            "$T" scan "$2" --index "$3" --cache "$1"; status=$?
            partial=0
            for file in $(find "$1" -type f); do
              case "$(basename "$file")" in .tmp-*) partial=$((partial + 1)); continue;; esac
              [ "$(tail -c 2 "$file" | od -An -tx1 | tr -d ' \\n')" = ffd9 ] || partial=$((partial + 1))
            done
            echo "partial=$partial"
            exit $status
            """
        let result = try TesseraProcess.inMountNamespace(script, [cache, photos, directory.appending("index.sqlite")])
        let (stdout, stderr) = (result.stdout, result.stderr)
        try #require(
            result.status != TesseraProcess.noNamespace, "cannot mount a tmpfs in a user namespace here: \(stderr)")
        // then the scan stops with a one-line reason, records it, leaves nothing partial, and the index is sound.
        #expect(result.status == 1, "\(stdout) \(stderr)")
        #expect(stderr.contains("No space left on device"), "\(stderr)")
        #expect(stdout.contains("partial=0"), "\(stdout)")
        let index = directory.appending("index.sqlite")
        let last = SQLite.query(index, "SELECT state, reason FROM scans ORDER BY id DESC LIMIT 1")?.first ?? []
        #expect(last.first == "failed" && last.last?.contains("No space left on device") == true, "\(last)")
        #expect(SQLite.query(index, "PRAGMA integrity_check")?.first?.first == "ok")
    }
}
