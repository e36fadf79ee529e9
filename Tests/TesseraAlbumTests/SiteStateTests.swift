import Foundation
import Synchronization
import SystemPackage
import TesseraAlbum
import TesseraIndex
import TesseraSystem
import TesseraTestSupport
import Testing

/// The site's state file (`.tessera-album.sqlite`): each album's entry kept as its pages are put
/// in place, and nothing in it trusted that cannot be read.
struct SiteStateTests {
    static let stateFile = "/.tessera-album.sqlite"

    /// A build stopped half-way keeps the entries of the albums it wrote: the next one writes
    /// only the others (and the months), and the site is whole.
    @Test func aStoppedBuildsAlbumsAreNotWrittenAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try AlbumTreeTests.library(in: directory)
        let site = directory.appending("site")
        let builder = AlbumBuilder(index: index, options: .init(output: FilePath(site)))
        // Asked once an album and once a month (six), on two threads: stopped at the tenth
        // question, some albums are written and some not.
        let asked = Atomic(0)
        #expect {
            try builder.build(shouldStop: { asked.add(1, ordering: .relaxed).newValue > 9 })
        } throws: {
            ($0 as? AlbumError)?.code == .stopped
        }
        let kept = try #require(SQLite.integer(site + Self.stateFile, "SELECT count(*) FROM albums"))
        #expect(kept >= 3 && kept < 11)
        let next = try builder.build()
        #expect(next.albums == 11)
        #expect(next.unchanged == kept, "the albums written before the stop are left as they were")
        #expect(next.written == 11 - kept + next.months)
        let again = try builder.build()
        #expect(again.written == 0)
        try AlbumBuildConsistencyTests.expectWhole(site)
    }

    /// A build leaves its state as one file, its write-ahead log folded in: a site copied or
    /// served as it is holds no `-wal` or `-shm` file, after a first build or an unchanged one.
    @Test func aBuildLeavesNoLogBeside() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try AlbumTreeTests.library(in: directory)
        let site = directory.appending("site")
        let builder = AlbumBuilder(index: index, options: .init(output: FilePath(site)))
        for _ in 0..<3 {
            _ = try builder.build()
            let left = try FileManager.default.contentsOfDirectory(atPath: site).filter {
                $0.hasPrefix(".tessera-album.sqlite-")
            }
            #expect(left.isEmpty, "\(left)")
        }
    }

    /// A state file that is not a database (cut short, overwritten) is made again: every page is
    /// written, and the next build writes nothing.
    @Test func anUnreadableStateIsMadeAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try AlbumTreeTests.library(in: directory)
        let site = directory.appending("site")
        let builder = AlbumBuilder(index: index, options: .init(output: FilePath(site)))
        let first = try builder.build()
        try FileSystem.writeAtomically(
            Array("not a database, 4096 bytes of it".utf8), to: FilePath(site + Self.stateFile))
        let broken = try builder.build()
        #expect(broken.written == first.written && broken.unchanged == 0)
        #expect(try builder.build().written == 0)
        try AlbumBuildConsistencyTests.expectWhole(site)
    }

    /// A site of an earlier Tessera, with its manifest in JSON: the file goes, every page is
    /// written again under the new state.
    @Test func anEarlierManifestIsRemoved() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try AlbumTreeTests.library(in: directory)
        let site = directory.appending("site")
        try FileSystem.createDirectories(FilePath(site))
        try FileSystem.writeAtomically(Array("{\"albums\":{}}".utf8), to: FilePath(site + "/.tessera-album.json"))
        _ = try AlbumBuilder(index: index, options: .init(output: FilePath(site))).build()
        #expect((try? FileSystem.linkStatus(of: FilePath(site + "/.tessera-album.json"))) == nil)
        #expect((try? FileSystem.linkStatus(of: FilePath(site + Self.stateFile)))?.type == .regular)
    }

    /// A link put in place of the state file (or its log) is replaced: the build writes nothing
    /// where it points.
    @Test func aLinkInPlaceOfTheStateIsNotWrittenThrough() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try AlbumTreeTests.library(in: directory)
        let site = directory.appending("site")
        // Another program's database (a copy of the index will do): SQLite would gladly write in it.
        let elsewhere = directory.appending("elsewhere.sqlite")
        let theirs = try #require(FileSystem.smallFileContents(index.path, limit: 1 << 30))
        try FileSystem.writeAtomically(theirs, to: FilePath(elsewhere))
        try FileSystem.createDirectories(FilePath(site))
        try FileSystem.symbolicLink(to: FilePath(elsewhere), at: FilePath(site + Self.stateFile))
        try FileSystem.symbolicLink(to: FilePath(elsewhere), at: FilePath(site + Self.stateFile + "-wal"))
        _ = try AlbumBuilder(index: index, options: .init(output: FilePath(site))).build()
        let after = try #require(FileSystem.smallFileContents(FilePath(elsewhere), limit: 1 << 30))
        #expect(XXH64.hash(after) == XXH64.hash(theirs), "the file the link points to is as it was")
        #expect((try? FileSystem.linkStatus(of: FilePath(site + Self.stateFile)))?.type == .regular)
        try AlbumBuildConsistencyTests.expectWhole(site)
    }
}
