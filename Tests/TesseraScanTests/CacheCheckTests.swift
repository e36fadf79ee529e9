import Foundation
import Glibc
import SystemPackage
import TesseraConfiguration
import TesseraIndex
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraScan

/// Rendition files gone from the cache are noticed without a full scan and made again.
struct CacheCheckTests {
    /// Every recorded rendition path, and those with no file.
    static func renditionFiles(_ fixture: ScanFixture) throws -> (all: [String], gone: [String]) {
        // Rows of sizes a photo is too small for share one file.
        let all = Array(Set(try fixture.photos().flatMap { $0.renditions.map(\.path) })).sorted()
        return (all, all.filter { !FileManager.default.fileExists(atPath: $0) })
    }

    /// A fixture with `count` photos scanned into one folder.
    static func scanned(_ count: Int) throws -> ScanFixture {
        let fixture = try ScanFixture()
        for number in 0..<count {
            try fixture.jpeg("\(number).jpg", seed: number)
        }
        _ = try fixture.scan()
        return fixture
    }

    /// One check of the fixture's cache with the given settle margin (negative: every folder is
    /// settled; an hour: none is).
    static func check(_ fixture: ScanFixture, settleMargin: Duration, whole: Bool = false) throws -> CacheCheck.Result {
        let index = try PhotoIndex(path: fixture.configuration.index)
        return CacheCheck(
            index: index, cache: fixture.configuration.cache, stop: StopFlag(), settleMargin: settleMargin
        )
        .run(whole: whole)
    }

    @Test func aPlainScanMakesAgainTheRenditionsDeletedFromTheCache() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        for number in 0..<40 {
            try fixture.jpeg(
                "Album \(number % 4)/\(number).jpg", date: "2023:05:\(10 + number % 9) 10:00:00", seed: number)
        }
        _ = try fixture.scan()
        let (all, _) = try Self.renditionFiles(fixture)
        // Three sizes, of which both squares of a 96×64 photo are its 64×64 centre: one file.
        #expect(all.count == 80)
        // Deleted by hand: single files of many photos, and one whole fan-out folder.
        var deleted = Set(stride(from: 0, to: all.count, by: 7).map { all[$0] })
        let folder = FilePath(all[1]).removingLastComponent().string
        deleted.formUnion(all.filter { $0.hasPrefix(folder + "/") })
        try FileManager.default.removeItem(atPath: folder)
        for path in deleted where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.removeItem(atPath: path)
        }
        #expect(try Self.renditionFiles(fixture).gone.count == deleted.count)
        let photos = Set(try fixture.photos().filter { $0.renditions.contains { deleted.contains($0.path) } }.map(\.id))

        let summary = try fixture.scan()
        #expect(try Self.renditionFiles(fixture).gone.isEmpty, "every lost rendition is back")
        #expect(summary.counts.unchanged == 40 && summary.counts.rerendered == photos.count)
        #expect(summary.counts.new + summary.counts.changed + summary.counts.errors == 0)
        // And the next scan has nothing to make.
        let next = try fixture.scan()
        #expect(next.counts.unchanged == 40 && next.counts.rerendered == 0)
    }

    /// A photo the walk took for unchanged (same inode, size and mtime) but whose bytes were
    /// overwritten in place is read again by its repair, fails, and is counted as the error it
    /// is: the counts still add up to the files found.
    @Test func aRepairThatFindsThePhotoUnreadableCountsItAsAnErrorNotAsUnchanged() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        var paths: [FilePath] = []
        for number in 0..<6 {
            paths.append(try fixture.jpeg("\(number).jpg", seed: number))
            fixture.setMtime(paths[number], 1_600_000_000)
        }
        _ = try fixture.scan()
        let target = try #require(try fixture.photos().first { $0.path == paths[2] })
        for rendition in target.renditions where FileManager.default.fileExists(atPath: rendition.path) {
            try FileManager.default.removeItem(atPath: rendition.path)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: paths[2].string))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 64))
        try handle.close()
        fixture.setMtime(paths[2], 1_600_000_000)

        let summary = try fixture.scan()
        #expect(summary.counts.found == 6)
        #expect(summary.counts.errors == 1 && summary.counts.unchanged == 5, "\(summary.counts)")
        #expect(summary.counts.rerendered == 0)
        #expect(try PhotoIndex(path: fixture.configuration.index).failingFiles() == 1)
    }

    @Test func aCheckOutOfTimeStillMovesOnAFolderAndTheNextGoesOnFromThere() throws {
        let fixture = try Self.scanned(30)
        defer { fixture.remove() }
        let (all, _) = try Self.renditionFiles(fixture)
        let folders = Set(all.map { FilePath($0).removingLastComponent().string })
        #expect(folders.count > 5)
        let last = try #require(all.max())
        try FileManager.default.removeItem(atPath: last)
        let index = try PhotoIndex(path: fixture.configuration.index)
        // A check whose time is up when it begins checks one folder; round after round, the
        // whole cache, and the file gone from the last folder is found when its turn comes.
        var found: [String] = []
        var rounds = 0
        repeat {
            let check = CacheCheck(index: index, cache: fixture.configuration.cache, stop: StopFlag(), minimum: 0)
            check.finish(by: .now)
            let result = check.run()
            found += result.missing
            rounds += 1
            #expect(result.checked > 0 && (result.complete || result.checked < all.count))
        } while found.isEmpty && rounds <= folders.count
        #expect(found == [last])
        #expect(rounds > 1 && rounds <= folders.count)
    }

    @Test func anEmptyCacheFolderIsTakenForADiskNotMountedAndNothingIsRenderedIntoIt() throws {
        let fixture = try Self.scanned(6)
        defer { fixture.remove() }
        let cache = fixture.configuration.cache.string
        for entry in try FileManager.default.contentsOfDirectory(atPath: cache) {
            try FileManager.default.removeItem(atPath: cache + "/" + entry)
        }
        let summary = try fixture.scan()
        #expect(summary.counts.unchanged == 6 && summary.counts.rerendered == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty)
    }

    /// A check run straight after another, with every folder settled: none is listed again until
    /// a file goes, then only that file's folder.
    @Test func foldersUnchangedSinceACheckFoundThemWholeAreNotListedAgain() throws {
        let fixture = try Self.scanned(30)
        defer { fixture.remove() }
        let (all, _) = try Self.renditionFiles(fixture)
        let folders = Set(all.map { FilePath($0).removingLastComponent().string })
        let first = try Self.check(fixture, settleMargin: .seconds(-3600))
        #expect(first.listed == folders.count && first.checked == all.count && first.missing.isEmpty)
        let second = try Self.check(fixture, settleMargin: .seconds(-3600))
        #expect(second.listed == 0 && second.checked == all.count && second.complete)

        let gone = try #require(all.last)
        try FileManager.default.removeItem(atPath: gone)
        let third = try Self.check(fixture, settleMargin: .seconds(-3600))
        #expect(third.listed == 1 && third.missing == [gone])
        // The daemon's idle check lists every folder whatever its stamp.
        #expect(try Self.check(fixture, settleMargin: .seconds(-3600), whole: true).listed == folders.count)
    }

    /// A restore or `touch` can set a folder's modification time back to what it was; the
    /// status change time it cannot, so the file deleted under it is still found.
    @Test func aFolderWhoseModificationTimeIsSetBackIsListedAgain() throws {
        let fixture = try Self.scanned(8)
        defer { fixture.remove() }
        _ = try Self.check(fixture, settleMargin: .seconds(-3600))
        let gone = try #require(try Self.renditionFiles(fixture).all.first)
        let folder = FilePath(gone).removingLastComponent().string
        var before = stat()
        try #require(stat(folder, &before) == 0)
        try FileManager.default.removeItem(atPath: gone)
        let times = [before.st_atim, before.st_mtim]
        try #require(utimensat(AT_FDCWD, folder, times, 0) == 0)
        var after = stat()
        try #require(stat(folder, &after) == 0)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(try Self.check(fixture, settleMargin: .seconds(-3600)).missing == [gone])
    }

    /// A folder changed within the last seconds may change again without its ctime moving on a
    /// filesystem with coarse timestamps: it is not taken as settled, and the next check lists it.
    @Test func aFolderChangedMomentsAgoIsListedAgainByTheNextCheck() throws {
        let fixture = try Self.scanned(8)
        defer { fixture.remove() }
        let folders = Set(try Self.renditionFiles(fixture).all.map { FilePath($0).removingLastComponent().string })
        #expect(try Self.check(fixture, settleMargin: .seconds(3600)).listed == folders.count)
        #expect(try Self.check(fixture, settleMargin: .seconds(3600)).listed == folders.count)
    }
}
