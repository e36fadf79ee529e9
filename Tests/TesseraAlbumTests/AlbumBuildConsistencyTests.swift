import Foundation
import SystemPackage
import TesseraAlbum
import TesseraConfiguration
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraLayout
import TesseraMetadata
import TesseraSamples
import TesseraScan
import TesseraSystem
import TesseraTestSupport
import Testing

/// Album builds stay consistent when a scan, a link or a lost cache file meets them, and heal
/// once the cause is gone (another build at once: `AlbumCommandTests`).
struct AlbumBuildConsistencyTests {
    typealias Gardens = AlbumBuilderTests

    /// Every reference of every page in `site` resolves to a file inside it.
    static func expectWhole(_ site: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let references = try Gardens.references(in: site)
        #expect(!references.isEmpty, sourceLocation: sourceLocation)
        for (page, target) in references {
            #expect(
                target.hasPrefix(site + "/"), "\(page) refers outside the site: \(target)",
                sourceLocation: sourceLocation)
            #expect(
                FileManager.default.fileExists(atPath: target), "\(page): \(target) is missing",
                sourceLocation: sourceLocation)
        }
    }

    static func photo(_ path: String, month: Int = 3, day: Int, seed: Int) throws {
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: String(format: "2023:%02d:%02d 10:00:00", month, day))
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: seed), exif: exif), to: FilePath(path))
    }

    /// A build killed while putting an album's pages in place leaves a staging folder, or the
    /// old folder under `.retired`, beside it: the next build removes both, and never the files
    /// their lists name, which are the album's own.
    @Test func whatAKilledBuildLeftBesideAnAlbumGoesWithoutItsFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, site, builder) = try Gardens.gardenSite(in: directory)
        _ = try builder.build()
        // The north Garden (January), which the change below leaves as it was.
        let album = try #require(
            try FileManager.default.contentsOfDirectory(atPath: site + "/albums").first {
                try String(contentsOfFile: site + "/albums/\($0)/index.html", encoding: .utf8).contains("2023-01-1")
            })
        for leftover in [album + ".partial", album + ".retired"] {
            try FileManager.default.copyItem(atPath: site + "/albums/" + album, toPath: site + "/albums/" + leftover)
        }
        // A photo elsewhere changes, so the build is not one that finds nothing to do.
        try Self.photo(directory.appending("south/Garden/extra.jpg"), month: 2, day: 20, seed: 900)
        try Gardens.scan(Gardens.gardens(in: directory), index)
        _ = try builder.build()
        #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/albums").count == 2)
        try Self.expectWhole(site)
    }

    @Test func aScanCommittingDuringABuildNeverBreaksItsLinks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Gardens.twoGardens(in: directory, count: 3)
        // New photos in a new album, in a month the build has not reached yet, land between
        // the build's first and second collection: a build reading the index question by
        // question would link that month's page to viewer pages of an album it never wrote.
        for photo in 0..<4 {
            try Self.photo(directory.appending("north/Pond/\(photo).jpg"), month: 2, day: 1 + photo, seed: 500 + photo)
        }
        let site = directory.appending("site")
        // The first to ask (the albums' thread or the months') scans; the months, when their
        // own read of the index began after it, are written from the build's first read.
        let scanned = Condition(false)
        let summary = try AlbumBuilder(index: index, options: .init(output: FilePath(site))).build(shouldStop: {
            let first = scanned.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return false }
            let writer = try? PhotoIndex(path: index.path)
            if let writer { try? Gardens.scan(Gardens.gardens(in: directory), writer) }
            return false
        })
        #expect(scanned.withLock { $0 })
        #expect(try index.photos(.init()).count == 10, "the scan committed")
        #expect(summary.albums == 2, "the build saw the index as it was when it began")
        try Self.expectWhole(site)
        // The next build shows the new album, and every link still resolves.
        let next = try AlbumBuilder(index: index, options: .init(output: FilePath(site))).build()
        #expect(next.albums == 3)
        try Self.expectWhole(site)
    }

    @Test func linksInsideTheOutputAreReplacedNeverWrittenThrough() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, site, builder) = try Gardens.gardenSite(in: directory)
        _ = try builder.build()
        // Someone points the rendition folder and the albums folder elsewhere.
        let elsewhere = directory.appending("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere + "/media", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: site + "/albums", toPath: elsewhere + "/albums")
        try FileManager.default.createSymbolicLink(atPath: site + "/albums", withDestinationPath: elsewhere + "/albums")
        let spec = try #require(try FileManager.default.contentsOfDirectory(atPath: site + "/media").first)
        try FileManager.default.removeItem(atPath: site + "/media/" + spec)
        try FileManager.default.createSymbolicLink(
            atPath: site + "/media/" + spec, withDestinationPath: elsewhere + "/media")
        func files(_ path: String) -> [String] {
            (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []).sorted()
        }
        let before = files(elsewhere)
        // A collection that changes is written again; one that no longer exists is removed.
        try FileManager.default.removeItem(atPath: directory.appending("south"))
        var configuration = Gardens.gardens(in: directory)
        configuration.keepMissingDays = 0
        try FileManager.default.createDirectory(atPath: directory.appending("south"), withIntermediateDirectories: true)
        try Self.photo(directory.appending("south/Lake/0.jpg"), day: 5, seed: 900)
        try Gardens.scan(configuration, index)
        _ = try builder.build()
        #expect(files(elsewhere) == before, "nothing outside the site was written or removed")
        for folder in ["/albums", "/media/" + spec] {
            #expect(
                try FileSystem.linkStatus(of: FilePath(site + folder)).type == .directory,
                "\(folder) is a real folder again")
        }
        try Self.expectWhole(site)
    }

    @Test func pagesWrittenWhileRenditionsWereLostAreWrittenAgainWhenTheyAreBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, site, builder) = try Gardens.gardenSite(in: directory)
        let lost = try #require(try index.photos(.init()).first)
        let saved = directory.appending("saved")
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        for (number, entry) in lost.renditions.enumerated() {
            try FileManager.default.moveItem(atPath: entry.path, toPath: saved + "/\(number)")
        }
        let first = try builder.build()
        #expect(first.missing == lost.renditions.count)
        let pages = (FileManager.default.enumerator(atPath: site)?.compactMap { $0 as? String } ?? []).filter {
            $0.hasSuffix(".html")
        }
        for page in pages {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            #expect(!html.contains("src=\"\"") && !html.contains("srcset=\"\""), "\(page) asks for an empty URL")
        }
        try Self.expectWhole(site)
        // The cache has the files again (a full scan, or the next scan's check, makes them).
        for (number, entry) in lost.renditions.enumerated() {
            try FileManager.default.moveItem(atPath: saved + "/\(number)", toPath: entry.path)
        }
        let healed = try builder.build()
        #expect(healed.written == 2, "the lost photo's album and month are written again")
        let album = try FileManager.default.contentsOfDirectory(atPath: site + "/albums").map {
            site + "/albums/" + $0 + "/index.html"
        }
        let shown = try album.contains {
            try String(contentsOfFile: $0, encoding: .utf8).contains(
                try Regex("data-id=\"\(lost.id)\"[^>]*><img src=\""))
        }
        #expect(shown)
        try Self.expectWhole(site)
    }

    @Test func equalTimesAreInTheOrderListShowsAndPhotosJSIsReproducible() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Gardens.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("north"))]
        let index = try PhotoIndex(path: configuration.index)
        // Row ids in the opposite order of the paths: the later names are scanned first.
        for (round, names) in [["e", "d"], ["c", "b", "a"]].enumerated() {
            for (number, name) in names.enumerated() {
                try Self.photo(directory.appending("north/Same/\(name).jpg"), day: 9, seed: round * 10 + number)
            }
            try Gardens.scan(configuration, index)
        }
        let listed = try index.photos(.init()).map(\.id)
        #expect(listed.count == 5)
        #expect(listed != listed.sorted(), "ids and paths disagree, so the test can tell them apart")
        var builds: [String] = []
        for name in ["one", "two"] {
            let site = directory.appending(name)
            _ = try AlbumBuilder(index: index, options: .init(output: FilePath(site))).build()
            let album = try #require(try FileManager.default.contentsOfDirectory(atPath: site + "/albums").first)
            let page = try String(contentsOfFile: "\(site)/albums/\(album)/index.html", encoding: .utf8)
            let layout = try #require(page.components(separatedBy: "class=\"layout ").dropFirst().first)
            let shown = layout.matches(of: #/data-id="(\d+)"/#).compactMap { Int64($0.output.1) }
            #expect(shown == listed, "album page order")
            let script = try String(contentsOfFile: "\(site)/albums/\(album)/photos.js", encoding: .utf8)
            #expect(script.matches(of: #/"id":"(\d+)"/#).compactMap { Int64($0.output.1) } == listed, "lightbox order")
            builds.append(script)
        }
        #expect(builds[0] == builds[1], "photos.js is the same, byte for byte")
    }

    /// A collection of several pages is read and written a page at a time: its photos.js
    /// still lists every photo once, in the pages' order, and every file it names (by the
    /// shared-name and album-folder rules of docs/ALBUM.md) is in the site.
    @Test func photosJSWrittenPageByPageNamesEveryPhotoAndFilesThatExist() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Gardens.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("north"))]
        configuration.renditions = [.square(64), .fit(128)]
        for number in 0..<7 {
            try Self.photo(directory.appending("north/Pond/p\(number).jpg"), day: 1 + number % 3, seed: number)
        }
        let index = try PhotoIndex(path: configuration.index)
        try Gardens.scan(configuration, index)
        let site = directory.appending("site")
        var options = AlbumBuilder.Options(output: FilePath(site))
        (options.photosPerPage, options.originals) = (3, .copy)
        _ = try AlbumBuilder(index: index, options: options).build()
        let album = try #require(try FileManager.default.contentsOfDirectory(atPath: site + "/albums").first)
        var shown: [String] = []
        for page in ["index.html", "page-2.html", "page-3.html"] {
            let html = try String(contentsOfFile: "\(site)/albums/\(album)/\(page)", encoding: .utf8)
            shown += html.matches(of: #/data-id="(\d+)"/#).map { String($0.output.1) }
        }
        #expect(shown.count == 7 && Set(shown).count == 7, "three pages show the seven photos")
        let script = try String(contentsOfFile: "\(site)/albums/\(album)/photos.js", encoding: .utf8)
        let first = try #require(script.firstIndex(of: "{")), last = try #require(script.lastIndex(of: "}"))
        let json = script[first...last]
        let data = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let photos = try #require(data["photos"] as? [[String: Any]])
        let albums = try #require(data["albums"] as? [String])
        #expect(photos.compactMap { $0["id"] as? String } == shown, "photos.js in the pages' order")
        for photo in photos {
            let shared = photo["media"] as? String
            let named =
                ((photo["sources"] as? [[Any]]) ?? []).compactMap { $0.first as? String }
                + [photo["thumb"] as? String].compactMap { $0 }
            #expect(named.count == 2, "a fit and a square")
            for name in named {
                let path = "\(site)/media/" + (shared.map { "\(name)/\($0)" } ?? name)
                #expect(FileManager.default.fileExists(atPath: path.removingPercentEncoding ?? path), "\(path)")
            }
            let number = try #require(photo["album"] as? Int), name = try #require(photo["original"] as? String)
            let folder = try #require(albums[number].split(separator: "/").last)
            let original = "\(site)/originals/\(folder)/\(name)"
            #expect(FileManager.default.fileExists(atPath: original.removingPercentEncoding ?? original), "\(original)")
        }
    }
}
