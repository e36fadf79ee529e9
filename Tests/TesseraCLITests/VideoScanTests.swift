import Foundation
import Glibc
import SystemPackage
import TesseraIndex
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// Videos as a user meets them: scanned beside photos, listed, inspected, rescanned.
@Suite(.enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed"))
struct VideoScanTests {
    @Test func aVideoIsAnItemWithItsFactsPosterAndRenditions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        try FileSystem.writeAtomically(
            try ScanCommandTests.jpeg(width: 64, seed: 1), to: FilePath(root).appending("still.jpg"))
        // A phone video under a name that says nothing: its bytes decide.
        _ = try VideoFixture.clip(in: directory, name: "clip.mov", clockwise: 90)
        try FileManager.default.moveItem(atPath: directory.appending("clip.mov"), toPath: root + "/IMG_0001.dat")

        let scan = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        #expect(scan.status == 0, Comment(rawValue: scan.stderr))
        let listed = try TesseraProcess.run(["list", "--json", "--kind", "video"] + ScanCommandTests.store(directory))
        let videos = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(videos.count == 1)
        let video = try #require(videos.first)
        #expect(video["kind"] as? String == "video" && video["format"] as? String == "mov")
        #expect((video["displayWidth"] as? Int, video["displayHeight"] as? Int) == (180, 320))
        let facts = try #require(video["video"] as? [String: Any])
        #expect(facts["codec"] as? String == "h264" && facts["rotation"] as? Int == 90)
        #expect(abs((facts["duration"] as? Double ?? 0) - 3.5) < 0.15)
        #expect((2.5..<3.5).contains(facts["posterTime"] as? Double ?? 0))
        let renditions = try #require(video["renditions"] as? [[String: Any]])
        #expect(!renditions.isEmpty && renditions.allSatisfy { $0["source"] as? String == "video-frame" })
        #expect(renditions.allSatisfy { FileManager.default.fileExists(atPath: $0["path"] as? String ?? "") })
        #expect(video["thumbhash"] is String)

        let photos = try TesseraProcess.run(["list", "--json", "--kind", "photo"] + ScanCommandTests.store(directory))
        let stills = try #require(try JSONSerialization.jsonObject(with: Data(photos.stdout.utf8)) as? [[String: Any]])
        #expect(stills.map { $0["kind"] as? String } == ["photo"] && (stills.first?["video"] is NSNull))

        // An unchanged video is not opened again.
        let again = try TesseraProcess.run(["scan", root, "--json"] + ScanCommandTests.store(directory))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let counts = try #require(summary["counts"] as? [String: Any])
        #expect(
            counts["unchanged"] as? Int == 2 && counts["changed"] as? Int == 0 && counts["rerendered"] as? Int == 0,
            "\(counts)")
    }

    @Test func aVideoOver2GiBIsIndexedAndAPhotoThatLargeIsRefused() throws {
        // Given a real video padded past 2 GiB (sparse: its disk use stays small) and a JPEG padded likewise,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        let video = try VideoFixture.clip(in: directory, name: "long.mp4")
        try FileManager.default.moveItem(atPath: video, toPath: root + "/long.mp4")
        try FileSystem.writeAtomically(
            try ScanCommandTests.jpeg(width: 64, seed: 1), to: FilePath(root).appending("huge.jpg"))
        for name in ["long.mp4", "huge.jpg"] {
            #expect(truncate(root + "/" + name, (2 << 30) + (100 << 20)) == 0)
        }
        // when they are scanned,
        let scan = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        // then the video is an item with its facts and renditions, and the photo is refused with the limit.
        #expect(scan.status == 0, "\(scan.stdout) \(scan.stderr)")
        let index = directory.appending("index.sqlite")
        let rows = SQLite.query(index, "SELECT path_text, status, error FROM photos ORDER BY path_text") ?? []
        #expect(rows.count == 2, "\(rows)")
        #expect(rows.first { $0[0].hasSuffix("long.mp4") }?[1] == "ok", "\(rows)")
        #expect(
            rows.first { $0[0].hasSuffix("huge.jpg") }?[2].contains("larger than any photo Tessera reads") == true,
            "\(rows)")
        #expect(
            SQLite.integer(
                index,
                "SELECT count(*) FROM renditions r JOIN photos p ON p.id = r.photo_id WHERE p.path_text LIKE '%long.mp4'"
            ) == 4)
    }

    /// A Live Photo's still and video are one item: paired by Apple's identifier (the still's
    /// maker note, the video's Keys) whatever their names, or without identifiers by name and a
    /// short duration; the video leaves the timeline, and comes back when its still goes.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func aLivePhotosVideoIsItsStillsMotion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        // An iPhone still (its maker note names E905E6C6-…) and a video of another name with that identifier.
        try FileManager.default.copyItem(atPath: Corpus.path("media/live/train.jpg"), toPath: root + "/IMG_0100.JPG")
        let identifier = "E905E6C6-C747-4805-942F-9904A0281F02"
        try VideoFixture.run([
            "-v", "error", "-f", "lavfi", "-i", "color=c=red:s=64x48:d=2:r=10", "-c:v", "libx264",
            "-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.content.identifier=\(identifier)",
            root + "/motion-of-100.mov",
        ])
        // Without identifiers: a still and a 2 s video of the same name pair; a 6 s one does not.
        try FileSystem.writeAtomically(
            try ScanCommandTests.jpeg(width: 64, seed: 2), to: FilePath(root).appending("IMG_0200.JPG"))
        try VideoFixture.run([
            "-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=64x48:d=2:r=10", "-c:v", "libx264",
            root + "/IMG_0200.MOV",
        ])
        try FileSystem.writeAtomically(
            try ScanCommandTests.jpeg(width: 64, seed: 3), to: FilePath(root).appending("IMG_0300.JPG"))
        try VideoFixture.run([
            "-v", "error", "-f", "lavfi", "-i", "color=c=green:s=64x48:d=6:r=10", "-c:v", "libx264",
            root + "/IMG_0300.MOV",
        ])

        func items() throws -> [String: [String: Any]] {
            let listed = try TesseraProcess.run(["list", "--json"] + ScanCommandTests.store(directory))
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            return Dictionary(
                uniqueKeysWithValues: rows.map {
                    (URL(fileURLWithPath: $0["path"] as? String ?? "").lastPathComponent, $0)
                })
        }
        #expect(try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory)).status == 0)
        let first = try items()
        #expect(Set(first.keys) == ["IMG_0100.JPG", "IMG_0200.JPG", "IMG_0300.JPG", "IMG_0300.MOV"])
        #expect(first["IMG_0100.JPG"]?["contentIdentifier"] as? String == identifier)
        #expect((first["IMG_0100.JPG"]?["livePhotoVideo"] as? String)?.hasSuffix("/motion-of-100.mov") == true)
        #expect((first["IMG_0200.JPG"]?["livePhotoVideo"] as? String)?.hasSuffix("/IMG_0200.MOV") == true)
        #expect(first["IMG_0300.JPG"]?["livePhotoVideo"] is NSNull)
        // `status` counts the pairs as photos, and the unpaired video as a video.
        let store = ScanCommandTests.store(directory) + ["--socket", directory.appending("none.sock")]
        let status = try TesseraProcess.run(["status", "--json"] + store)
        let totals = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(
            [totals["photos"], totals["videos"], totals["livePhotos"], totals["motionPhotos"]].map { $0 as? Int } == [
                3, 1, 2, 0,
            ])
        #expect(
            try TesseraProcess.run(["status"] + store).stdout.contains("3 photos (2 Live Photos), 1 video in 1 album;"))

        // The still deleted: its video is an item of its own again.
        try FileManager.default.removeItem(atPath: root + "/IMG_0100.JPG")
        #expect(try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory)).status == 0)
        #expect(Set(try items().keys) == ["motion-of-100.mov", "IMG_0200.JPG", "IMG_0300.JPG", "IMG_0300.MOV"])
    }

    /// The daemon treats videos as photos: seen through inotify, paired when their still
    /// arrives, unpaired when it goes, followed when moved, never opened again unchanged.
    @Test func theDaemonFollowsVideosAndPairsThroughItsWatch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 1, width: 100)
        let daemon = try DaemonProcess(photos: photos, directory: directory, watch: true)
        defer { _ = daemon.terminate() }
        _ = daemon.notify.receive(for: 10) { $0.contains("READY=1") }
        #expect(try daemon.tessera(["rescan", "--wait"]).status == 0)
        func counts() -> [Int?] {
            let status = try? daemon.status()
            return ["photos", "videos", "livePhotos"].map { status?[$0] as? Int }
        }
        #expect(counts() == [1, 0, 0])

        // A clip written elsewhere and moved in, as a phone sync does.
        _ = try VideoFixture.clip(in: directory, name: "IMG_0200.MOV", extra: ["-t", "2"])
        try FileManager.default.moveItem(
            atPath: directory.appending("IMG_0200.MOV"), toPath: photos + "/album0/IMG_0200.MOV")
        #expect(Deadline.wait(seconds: 20) { counts() == [1, 1, 0] }, "\(counts())")
        // Its still arrives: one Live Photo, no separate video.
        try FileSystem.writeAtomically(
            try ScanCommandTests.jpeg(width: 64, seed: 5), to: FilePath(photos).appending("album0/IMG_0200.JPG"))
        #expect(Deadline.wait(seconds: 20) { counts() == [2, 0, 1] }, "\(counts())")
        // The still goes: the video is an item again.
        try FileManager.default.removeItem(atPath: photos + "/album0/IMG_0200.JPG")
        #expect(Deadline.wait(seconds: 20) { counts() == [1, 1, 0] }, "\(counts())")
        // Moved to another folder: the same row follows it, its renditions kept.
        let index = FilePath(directory.appending("index.sqlite"))
        func video() -> PhotoRecord? {
            try? PhotoIndex(path: index, readOnly: true).photos(.init()).first { $0.video != nil }
        }
        let before = try #require(video())
        try FileSystem.createDirectories(FilePath(photos).appending("clips"))
        try FileManager.default.moveItem(
            atPath: photos + "/album0/IMG_0200.MOV", toPath: photos + "/clips/IMG_0200.MOV")
        #expect(Deadline.wait(seconds: 20) { video()?.path.string.hasSuffix("/clips/IMG_0200.MOV") == true })
        let after = try #require(video())
        #expect(after.id == before.id && after.renditions.map(\.path) == before.renditions.map(\.path))
    }
}
