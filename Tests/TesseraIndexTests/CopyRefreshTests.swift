import SystemPackage
import TesseraTestSupport
import Testing

@testable import TesseraIndex

/// Deciding copies around what changed reads each file once, however many of the changed files
/// it is near (docs/DUPLICATES.md, "Cost").
struct CopyRefreshTests {
    /// Frames of a timelapse of one still scene: one perceptual hash, a second apart each.
    private static func frames(_ numbers: Range<Int>) -> String {
        """
        INSERT OR IGNORE INTO albums (id, path, root, name) VALUES (1, x'2f742f61', x'2f74', 'a');
        WITH RECURSIVE n(k) AS (SELECT \(numbers.lowerBound) UNION ALL SELECT k + 1 FROM n
            WHERE k + 1 < \(numbers.upperBound))
        INSERT INTO photos (path, path_text, album_id, device, inode, size, mtime_ns, status, format, width, height,
            display_width, display_height, date_source, captured_at, sort_instant_ms, content_hash, phash)
        SELECT CAST('/t/a/' || k || '.jpg' AS BLOB), '/t/a/' || k || '.jpg', 1, 1, k, 1000, 0, 'ok', 'jpeg', 100,
            100, 100, 100, 'exif-original', strftime('%Y-%m-%dT%H:%M:%S', 1700000000 + k, 'unixepoch'),
            (1700000000 + k) * 1000, printf('%016x', k), 1234567 FROM n;
        """
    }

    /// Given a timelapse of 2,400 frames, when ten more are added, the refresh around them reads
    /// each frame once (not once for each new frame: 24,000 rows), and no two frames are copies.
    @Test func newFramesOfATimelapseReadItsFramesOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("index.sqlite")
        let index = try PhotoIndex(path: FilePath(path))
        #expect(SQLite.write(path, Self.frames(0..<2_400)))
        let first = try index.refreshGroups(colourLimit: 20) { _ in nil }
        #expect(first.whole)

        #expect(SQLite.write(path, Self.frames(2_400..<2_410)))
        let again = try index.refreshGroups(colourLimit: 20) { _ in nil }

        #expect(again.changedFiles == 10 && !again.whole)
        #expect((2_400...2_410).contains(again.filesRead), "\(again.filesRead) rows read")
        #expect(SQLite.integer(path, "SELECT COUNT(*) FROM copy_members") == 0)
        #expect(SQLite.integer(path, "SELECT COUNT(*) FROM group_pending") == 0)
    }
}
