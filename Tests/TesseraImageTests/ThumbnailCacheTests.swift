import Foundation
import SystemPackage
import TesseraImage
import TesseraMetadata
import TesseraTestSupport
import Testing

struct ThumbnailCacheTests {
    @Test func pathsFanOutBySizeAndKey() {
        let cache = ThumbnailCache(root: "/cache")
        #expect(cache.path(key: "ab12cd", size: 256, format: .jpeg) == "/cache/256/ab/ab12cd.jpg")
        #expect(cache.path(key: "ab12cd", size: 128, format: .png) == "/cache/128/ab/ab12cd.png")
    }

    @Test func writeCreatesDirectoriesAndReplacesAtomically() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = FilePath(directory.path).appending("256/ab/ab12.jpg")
        try ThumbnailCache.writeAtomically([1, 2, 3], to: target)
        try ThumbnailCache.writeAtomically([4, 5], to: target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target.string)) == Data([4, 5]))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: directory.appending("256/ab"))
        #expect(siblings == ["ab12.jpg"])
    }

    @Test func failedWriteLeavesNoPartialFile() throws {
        // Given a target that cannot be replaced (a non-empty directory stands there),
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = FilePath(directory.appending("thumb.jpg"))
        try FileManager.default.createDirectory(atPath: target.string + "/occupied", withIntermediateDirectories: true)
        // when the write fails at the rename step,
        #expect(throws: PhotoError.self) {
            try ThumbnailCache.writeAtomically([UInt8](repeating: 7, count: 100_000), to: target)
        }
        // then nothing but the obstacle is left: no temporary, no partial thumbnail.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["thumb.jpg"])
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: target.string, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func unwritableDirectoryIsAnErrorNamingThePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let blocker = directory.appending("file")
        FileManager.default.createFile(atPath: blocker, contents: Data())
        let target = FilePath(blocker).appending("sub/thumb.jpg")
        #expect {
            try ThumbnailCache.writeAtomically([1], to: target)
        } throws: { error in
            (error as? PhotoError)?.code == .io
        }
    }
}
