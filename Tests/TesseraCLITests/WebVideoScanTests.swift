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

    /// The album page of the library's one folder (or another file of it), built now.
    static func albumPage(_ directory: TemporaryDirectory, file: String = "index.html") throws -> String {
        let site = directory.appending("site")
        let build = try TesseraProcess.run(["album", "build", "--out", site] + ScanCommandTests.store(directory))
        try #require(build.status == 0, Comment(rawValue: build.stderr))
        let albums = try FileManager.default.contentsOfDirectory(atPath: site + "/albums")
        let folder = try #require(albums.first { $0.hasPrefix("photos") })
        return try String(contentsOfFile: site + "/albums/" + folder + "/" + file, encoding: .utf8)
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
        let inspect = try TesseraProcess.run(["inspect", root + "/phone.mov"] + ScanCommandTests.store(directory))
        #expect(inspect.stdout.contains("web video") && inspect.stdout.contains(made), "\(inspect.stdout)")

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

    /// A Samsung motion photo's HEVC MP4 gets a web video made from those bytes alone.
    ///
    /// A Google motion photo's H.264 one plays as it is and gets none. The site plays the web
    /// video; `inspect` names it.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func aMotionPhotosVideoBrowsersCannotPlayGetsAWebVideo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        for name in ["samsung-one-ui-6.heic", "motion_photo.jpeg"] {
            try FileManager.default.copyItem(atPath: Corpus.path("media/motion/" + name), toPath: root + "/" + name)
        }
        let scan = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        #expect(scan.status == 0, Comment(rawValue: scan.stderr))
        let rows = Self.rows(directory)
        // The MP4 is 1440 × 1080, turned a quarter by its matrix (kept), with sound.
        #expect(
            rows.map { [($0[0] as NSString).lastPathComponent, $0[2], $0[3], $0[4]] } == [
                ["samsung-one-ui-6.heic", "1440x1080", "1", ""]
            ])
        let made = try #require(rows.first?[1])
        // H.264 and AAC sample entries in an MP4.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: made)))
        let has = { (tag: String) in bytes.indices.dropLast(3).contains { bytes[$0..<$0 + 4].elementsEqual(tag.utf8) } }
        #expect(has("ftyp") && has("avc1") && has("mp4a") && !has("hvc1"))
        // The viewer's data names the web video; no badge offers a download.
        #expect(try Self.albumPage(directory, file: "photos.js").contains("web-1080/"))
        #expect(try !Self.albumPage(directory).contains("⤓"))
        let inspect = try TesseraProcess.run(
            ["inspect", root + "/samsung-one-ui-6.heic"] + ScanCommandTests.store(directory))
        #expect(inspect.stdout.contains("web video") && inspect.stdout.contains(made), "\(inspect.stdout)")
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

extension WebVideoScanTests {
    /// The temporary files a transcode writes under `cache` before renaming them into place.
    static func halfWritten(_ cache: String) -> [String] {
        let found = FileManager.default.enumerator(atPath: cache + "/web-1080")?.allObjects as? [String] ?? []
        return found.filter { ($0 as NSString).lastPathComponent.hasPrefix(FileSystem.temporaryPrefix) }
    }

    @Test func aScanKilledInTheMiddleOfATranscodeMakesItWholeNextTime() throws {
        // Given a camera's MJPEG AVI of 12 s at 720p with sound, long enough to be caught
        // in the middle of its transcode,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        try VideoFixture.run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=25:d=12", "-f", "lavfi", "-i",
            "sine=frequency=440:duration=12", "-c:v", "mjpeg", "-q:v", "5", "-c:a", "pcm_s16le", root + "/camera.avi",
        ])
        let cache = directory.appending("cache")
        // when its scan is killed (SIGKILL) while the web video is being written,
        let scan = try TesseraProcess.start(["scan", root] + ScanCommandTests.store(directory))
        let caught = Deadline.wait(seconds: 120) { !Self.halfWritten(cache).isEmpty || !scan.isRunning }
        kill(scan.pid, SIGKILL)
        _ = scan.wait()
        try #require(caught && !Self.halfWritten(cache).isEmpty, "the transcode was not caught half-way")
        // then nothing is recorded of it, the index is whole, and the next scan makes it whole,
        // leaving nothing half-written.
        #expect(Self.rows(directory).isEmpty)
        let index = directory.appending("index.sqlite")
        #expect(SQLite.query(index, "PRAGMA integrity_check") == [["ok"]])
        let again = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        #expect(again.status == 0, Comment(rawValue: again.stderr))
        let rows = Self.rows(directory)
        #expect(rows.map { [$0[2], $0[3], $0[4]] } == [["1280x720", "1", ""]], "\(rows)")
        #expect(FileManager.default.fileExists(atPath: rows.first?[1] ?? ""))
        #expect(Self.halfWritten(cache).isEmpty)
    }
}
