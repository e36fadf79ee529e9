import Foundation
import SystemPackage
import TesseraSystem
import TesseraTestSupport
import Testing

struct FileSystemTests {
    /// The kernel's own files say they are empty: a small file is read to its end, not to its
    /// stat size, so the mount table (which the watcher uses to spot network disks) is read whole.
    @Test func theMountTableIsReadThoughItsSizeSaysZero() throws {
        #expect(try FileSystem.status(of: FilePath("/proc/self/mounts")).size == 0)
        #expect(MountTable.fileSystemType(of: FilePath("/proc/self")) == "proc")
        #expect(MountTable.fileSystemType(of: FilePath("/")) != nil)
        // and a file larger than the limit is refused, whatever its size says
        #expect(FileSystem.smallFileContents(FilePath("/proc/self/mounts"), limit: 8) == nil)
    }

    @Test func removeTreeRemovesALinkNotWhatItPointsTo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let kept = FilePath(directory.path).appending("kept/photo.jpg")
        try FileSystem.writeAtomically([1], to: kept)
        let tree = FilePath(directory.path).appending("tree")
        try FileSystem.writeAtomically([2], to: tree.appending("a/b/c.html"))
        try FileSystem.symbolicLink(to: FilePath(directory.path).appending("kept"), at: tree.appending("a/link"))
        try FileSystem.removeTree(tree)
        #expect((try? FileSystem.linkStatus(of: tree)) == nil)
        #expect(try FileSystem.status(of: kept).size == 1)
        try FileSystem.removeTree(tree)  // gone already: not an error
    }

    @Test func writeCreatesDirectoriesAndReplacesAtomically() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = FilePath(directory.path).appending("256/ab/ab12.jpg")
        try FileSystem.writeAtomically([1, 2, 3], to: target)
        try FileSystem.writeAtomically([4, 5], to: target)
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
        #expect(throws: SystemError.self) {
            try FileSystem.writeAtomically([UInt8](repeating: 7, count: 100_000), to: target)
        }
        // then nothing but the obstacle is left: no temporary, no partial thumbnail.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["thumb.jpg"])
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: target.string, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func unwritableDirectoryIsAnErrorNamingThePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let blocker = directory.appending("file")
        _ = FileManager.default.createFile(atPath: blocker, contents: Data())
        let target = FilePath(blocker).appending("sub/thumb.jpg")
        #expect {
            try FileSystem.writeAtomically([1], to: target)
        } throws: { error in
            (error as? SystemError)?.errno == .notDirectory
        }
    }

    /// Two writers placing the same file (an album's and a month's): without replacing, the
    /// first in place stays, the second is told so, and neither leaves a temporary file.
    @Test func aFileFinishedWithoutReplacingKeepsTheOneAlreadyThere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = FilePath(directory.appending("media/a.jpg"))
        let first = try FileWriter(path), second = try FileWriter(path)
        try first.append(Array("first".utf8))
        try second.append(Array("second".utf8))
        #expect(try first.finish(replacing: false))
        #expect(try !second.finish(replacing: false))
        #expect(try String(contentsOfFile: path.string, encoding: .utf8) == "first")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appending("media")) == ["a.jpg"])
        let source = FilePath(directory.appending("source.jpg"))
        try FileSystem.writeAtomically(Array("copy".utf8), to: source)
        #expect(try !FileSystem.copyFile(source, to: path, replacing: false))
        #expect(try FileSystem.copyFile(source, to: path))
        #expect(try String(contentsOfFile: path.string, encoding: .utf8) == "copy")
        // A writer given up leaves nothing behind.
        do { try FileWriter(FilePath(directory.appending("media/b.jpg"))).append(Array("x".utf8)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appending("media")) == ["a.jpg"])
    }
}
