import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

struct RenditionCacheTests {
    @Test func pathsFanOutByKindSizeAndKey() {
        let cache = RenditionCache(root: "/cache")
        // Squares keep the layout thumbnails always had, so migrated indexes keep their files.
        #expect(cache.path(key: "ab12cd", spec: .square(256), format: .jpeg) == "/cache/256/ab/ab12cd.jpg")
        #expect(cache.path(key: "ab12cd", spec: .square(128), format: .png) == "/cache/128/ab/ab12cd.png")
        #expect(cache.path(key: "ab12cd", spec: .fit(2048), format: .jpeg) == "/cache/fit-2048/ab/ab12cd.jpg")
    }

    @Test func theSweepKeepsWhatIsReferencedAndNothingElseOfItsOwn() throws {
        // Given a cache with a kept and an orphaned rendition of each kind, a temporary file an
        // interrupted write left, and a file that is not the cache's,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = RenditionCache(root: FilePath(directory.path))
        let kept = [
            cache.path(key: "aa01", spec: .square(256), format: .jpeg),
            cache.path(key: "aa01", spec: .fit(1024), format: .jpeg),
        ]
        let orphans = [
            cache.path(key: "aa02", spec: .square(256), format: .jpeg),
            cache.path(key: "bb03", spec: .fit(1024), format: .png),
        ]
        for path in kept + orphans { try cache.write([1, 2, 3], to: path) }
        let temporary = FilePath(directory.path).appending("256/aa/\(FileSystem.temporaryPrefix)x")
        try FileSystem.writeAtomically([0], to: temporary)
        let foreign = FilePath(directory.path).appending("notes/aa/readme.txt")
        try FileSystem.writeAtomically([0], to: foreign)
        // when swept,
        let removed = cache.sweep { paths in Set(paths.filter { kept.map(\.string).contains($0) }) }
        // then exactly the orphans and the temporary file are gone.
        #expect(removed == 3)
        #expect(kept.allSatisfy(cache.contains))
        #expect(!(orphans + [temporary]).contains(where: cache.contains))
        #expect(cache.contains(foreign))
        // A lookup that fails deletes nothing.
        try cache.write([1], to: orphans[0])
        #expect(cache.sweep { _ in nil } == 0 && cache.contains(orphans[0]))
    }
}
