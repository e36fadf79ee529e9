import Foundation
import SystemPackage
import TesseraSystem
import TesseraTestSupport
import Testing

/// A video browsers cannot play gets its web video from the scan: once, again when it changes
/// or its file goes, never for one that plays, and none when the configuration says so.
@Suite(.enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed"))
struct WebVideoScanTests {
    /// `photo_id`-less rows of `web_videos`: the video's name, the file, its size, sound, error, when made.
    static func rows(_ directory: TemporaryDirectory) -> [[String]] {
        SQLite.query(
            directory.appending("index.sqlite"),
            """
            SELECT p.path_text, coalesce(w.path, ''), coalesce(w.width, 0) || 'x' || coalesce(w.height, 0),
                coalesce(w.has_audio, ''), coalesce(w.error, ''), w.made_ms
            FROM web_videos w JOIN photos p ON p.id = w.photo_id ORDER BY p.path_text
            """) ?? []
    }

    /// The album page of the library's one folder, built now.
    static func albumPage(_ directory: TemporaryDirectory) throws -> String {
        let site = directory.appending("site")
        let build = try TesseraProcess.run(["album", "build", "--out", site] + ScanCommandTests.store(directory))
        try #require(build.status == 0, Comment(rawValue: build.stderr))
        let albums = try FileManager.default.contentsOfDirectory(atPath: site + "/albums")
        let folder = try #require(albums.first { $0.hasPrefix("photos") })
        return try String(contentsOfFile: site + "/albums/" + folder + "/index.html", encoding: .utf8)
    }

    @Test func aVideoBrowsersCannotPlayGetsItsWebVideoOnceAndAgainWhenItChanges() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        let hevc = try VideoFixture.clip(in: directory, name: "phone.mov", codec: "libx265", clockwise: 90)
        try FileManager.default.moveItem(atPath: hevc, toPath: root + "/phone.mov")
        let plain = try VideoFixture.clip(in: directory, name: "plain.mp4")
        try FileManager.default.moveItem(atPath: plain, toPath: root + "/plain.mp4")

        let scan = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        #expect(scan.status == 0, Comment(rawValue: scan.stderr))
        let first = Self.rows(directory)
        // Only the HEVC one, at its stored size (its turn is kept as the track's matrix), silent.
        #expect(
            first.map { [$0[0].hasSuffix("phone.mov") ? "phone" : $0[0], $0[2], $0[3], $0[4]] } == [
                ["phone", "320x180", "0", ""]
            ])
        let made = try #require(first.first?[1])
        #expect(made.contains("/web-1080/") && FileManager.default.fileExists(atPath: made))
        // The site plays it: its page names the web video, and no badge offers a download.
        let page = try Self.albumPage(directory)
        #expect(page.contains("web-1080/") && !page.contains("⤓"))

        // Unchanged: not made again.
        _ = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        #expect(Self.rows(directory) == first)

        // Its file gone from the cache: made again, under the same name; what a crash left
        // half-written beside it goes.
        try FileManager.default.removeItem(atPath: made)
        let interrupted = (made as NSString).deletingLastPathComponent + "/.tmp-web-crashed.mp4"
        try Data(count: 4096).write(to: URL(fileURLWithPath: interrupted))
        _ = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        #expect(!FileManager.default.fileExists(atPath: interrupted))
        let remade = Self.rows(directory)
        #expect(remade.first?[1] == made && remade.first?[5] != first.first?[5])
        #expect(FileManager.default.fileExists(atPath: made))

        // The video replaced by another: a new web video, and the old one's file goes.
        let other = try VideoFixture.clip(in: directory, name: "other.mov", codec: "libx265", width: 640, height: 360)
        try FileManager.default.removeItem(atPath: root + "/phone.mov")
        try FileManager.default.moveItem(atPath: other, toPath: root + "/phone.mov")
        _ = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        let changed = Self.rows(directory)
        #expect(changed.first?[2] == "640x360" && changed.first?[1] != made, "\(changed)")
        #expect(!FileManager.default.fileExists(atPath: made))
        #expect(FileManager.default.fileExists(atPath: changed.first?[1] ?? ""))
    }

    @Test func aVideoThatCannotBeMadeIsRecordedWithItsReasonAndNotTriedAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        // A camera's MJPEG AVI of 1664×1280: its poster fits a 32 MiB budget, a transcode of it does not.
        let clip = try VideoFixture.clip(in: directory, name: "clip.avi", codec: "mjpeg", width: 1664, height: 1280)
        try FileManager.default.moveItem(atPath: clip, toPath: root + "/clip.avi")
        let off = directory.appending("off.yaml"), small = directory.appending("small.yaml")
        try "web_videos: false\n".write(toFile: off, atomically: true, encoding: .utf8)
        try "workers: 1\nmemory_limit: 32\n".write(toFile: small, atomically: true, encoding: .utf8)

        let none = try TesseraProcess.run(["scan", root, "--config", off] + ScanCommandTests.store(directory))
        #expect(none.status == 0, Comment(rawValue: none.stderr))
        #expect(Self.rows(directory).isEmpty)
        // The site says a click offers the file.
        #expect(try Self.albumPage(directory).contains("⤓ 0:04"))

        let failed = try TesseraProcess.run(["scan", root, "--config", small] + ScanCommandTests.store(directory))
        #expect(failed.status == 0, Comment(rawValue: failed.stderr))
        let rows = Self.rows(directory)
        #expect(rows.count == 1 && rows.first?[1] == "" && rows.first?[4].contains("32 MiB allowed") == true, "\(rows)")
        #expect(failed.stderr.contains("clip.avi"), Comment(rawValue: failed.stderr))

        // Not tried again while the video and the settings stay as they are.
        _ = try TesseraProcess.run(["scan", root, "--config", small] + ScanCommandTests.store(directory))
        #expect(Self.rows(directory) == rows)
    }

    @Test func aFullDiskIsNoReasonToGiveUpOnAVideo() throws {
        // Given an HEVC clip full of detail, and a cache on a tmpfs with room for its renditions
        // but not for its web video,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        try VideoFixture.run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=2", "-vf", "noise=alls=40:allf=t",
            "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1",
            root + "/busy.mov",
        ])
        let cache = directory.appending("cache")
        try FileSystem.createDirectories(FilePath(cache))
        let script = """
            mount -t tmpfs -o size=400k tessera-test "$1" || exit 90
            "$T" scan "$2" --index "$3" --cache "$1"; status=$?
            echo "temporary=$(find "$1" -name '.tmp-*' | wc -l)"
            exit $status
            """
        let full = try TesseraProcess.inMountNamespace(script, [cache, root, directory.appending("index.sqlite")])
        try #require(
            full.status != TesseraProcess.noNamespace, "cannot mount a tmpfs in a user namespace here: \(full.stderr)")
        // when it is scanned, the scan finishes, says why the web video is not there, leaves
        // nothing half-written, and records no failure,
        #expect(full.status == 0, "\(full.stdout) \(full.stderr)")
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(full.stdout.contains("temporary=0"), "\(full.stdout)")
        #expect(Self.rows(directory).isEmpty)
        // so the next scan, with room, makes it.
        let roomy = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        #expect(roomy.status == 0, Comment(rawValue: roomy.stderr))
        #expect(Self.rows(directory).map { [$0[2], $0[4]] } == [["640x360", ""]])
    }
}
