import Foundation
import SystemPackage
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
        try FileSystem.writeAtomically(try ScanCommandTests.jpeg(width: 64, seed: 1), to: FilePath(root).appending("still.jpg"))
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
        #expect(counts["unchanged"] as? Int == 2 && counts["changed"] as? Int == 0 && counts["rerendered"] as? Int == 0, "\(counts)")
    }
}
