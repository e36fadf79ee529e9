import Foundation
import SystemPackage
import TesseraAlbum
import TesseraConfiguration
import TesseraFacts
import TesseraIndex
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// The album site as the folder tree: every folder on the way to an album is a page of the
/// albums inside it, cards carry their own names, and breadcrumbs one link per level.
struct AlbumTreeTests {
    typealias Gardens = AlbumBuilderTests

    /// Folders of folders (Trips, Trips/2023, Trips/2023/Italy, Walks) above albums, and
    /// Family, an album with an album inside it; photos over several years.
    static func library(in directory: TemporaryDirectory) throws -> PhotoIndex {
        var configuration = Gardens.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        let photos: [(String, String)] = [
            ("Trips/2023/Italy/Rome/a.jpg", "2023:05:01"), ("Trips/2023/Italy/Rome/b.jpg", "2023:05:02"),
            ("Trips/2023/Italy/Florence/c.jpg", "2023:05:04"), ("Trips/2025 Summer/d.jpg", "2025:07:01"),
            ("Trips/2025 Summer/e.jpg", "2025:07:02"), ("Family/f.jpg", "2019:03:01"),
            ("Family/Kids/g.jpg", "2020:01:01"), ("Walks/10/h.jpg", "2021:01:01"), ("Walks/9/i.jpg", "2021:02:01"),
        ]
        for (number, (path, day)) in photos.enumerated() {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: "\(day) 10:00:00")
            let jpeg = try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: number), exif: exif)
            try FileSystem.writeAtomically(jpeg, to: FilePath(directory.appending("photos/" + path)))
        }
        let index = try PhotoIndex(path: configuration.index)
        try Gardens.scan(configuration, index)
        return index
    }

    /// The names of the cards on a page, in order.
    static func cards(_ html: String) -> [String] {
        html.matches(of: #/<div class="name">([^<]*)</div>/#).map { String($0.output.1) }
    }

    /// The page of the album card named `name` on the page at `page` (relative to the site).
    static func page(named name: String, from page: String, in site: String) throws -> String {
        let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
        let link = try #require(
            html.matches(of: #/<a href="([^"]*)"[^>]*>(?:(?!</a>).)*?<div class="name">([^<]*)</div>/#).first {
                $0.output.2 == name
            }?.output.1, "no card \(name) on \(page)")
        let base = URL(fileURLWithPath: site + "/" + page).deletingLastPathComponent()
        let path = URL(fileURLWithPath: String(link), relativeTo: base).standardizedFileURL.path
        return String(path.dropFirst(site.count + 1))
    }

    @Test func aFolderOfFoldersIsAnAlbumWithACoverAndEachLevelItsOwnCrumb() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.library(in: directory)
        let site = directory.appending("site")
        let builder = AlbumBuilder(index: index, options: .init(output: FilePath(site)))
        let summary = try builder.build()
        // Seven albums with photos, and Trips, Trips/2023, Trips/2023/Italy and Walks above them.
        #expect(summary.albums == 11)
        let home = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(Self.cards(home) == ["Family", "Trips", "Walks"], "by name, each its own")
        // A folder of two or more albums shows their covers; its card counts what is below it.
        let trips = try Self.page(named: "Trips", from: "index.html", in: site)
        let tripsCard = try #require(home.firstMatch(of: #/<div class="mosaic n2">(.*?)</div><div class="name">Trips/#))
        #expect(tripsCard.output.1.matches(of: #/<img src="[^"]+"/#).count == 2)
        #expect(
            home.contains(
                "<div class=\"name\">Trips</div><div class=\"meta\">5 photos, 2 albums · <span class=\"d\">2023-05-01</span> – <span class=\"d\">2025-07-02</span>"
            ))
        // Numbers in names sort as numbers.
        let walks = try Self.page(named: "Walks", from: "index.html", in: site)
        #expect(Self.cards(try String(contentsOfFile: site + "/" + walks, encoding: .utf8)) == ["9", "10"])
        // Down the tree, one crumb a level, each leading to that level's page.
        let tripsHTML = try String(contentsOfFile: site + "/" + trips, encoding: .utf8)
        #expect(Self.cards(tripsHTML) == ["2023", "2025 Summer"])
        #expect(!tripsHTML.contains("class=\"photo"), "a folder of folders shows albums, not photos")
        let year = try Self.page(named: "2023", from: trips, in: site)
        let italy = try Self.page(named: "Italy", from: year, in: site)
        let rome = try Self.page(named: "Rome", from: italy, in: site)
        let romeHTML = try String(contentsOfFile: site + "/" + rome, encoding: .utf8)
        let crumbs = try #require(
            romeHTML.firstMatch(of: #/<span class="trail">(.*?)</span><a href="[^"]*timeline.html"/#)
        ).output.1
        let levels = crumbs.matches(of: #/<a href="([^"]*)">([^<]*)</a>/#).map { String($0.output.2) }
        #expect(levels == ["Albums", "Trips", "2023", "Italy"])
        let hrefs = crumbs.matches(of: #/<a href="([^"]*)">/#).map { String($0.output.1) }
        let base = URL(fileURLWithPath: site + "/" + rome).deletingLastPathComponent()
        #expect(
            hrefs.map { URL(fileURLWithPath: $0, relativeTo: base).standardizedFileURL.path }
                == ["index.html", trips, year, italy].map { site + "/" + $0 })
        #expect(romeHTML.matches(of: #/class="photo"/#).count == 2)
        try AlbumBuildConsistencyTests.expectWhole(site)
        // Unchanged, nothing is written; a photo more in Rome writes Rome and each level above it.
        let again = try builder.build()
        #expect(again.written == 0 && again.unchanged == 11 + summary.months)
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: "2023:05:03 10:00:00")
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: 50), exif: exif),
            to: FilePath(directory.appending("photos/Trips/2023/Italy/Rome/z.jpg")))
        var configuration = Gardens.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        try Gardens.scan(configuration, index)
        let added = try builder.build()
        #expect(added.written == 4 + 1, "Rome, Italy, 2023 and Trips, and May 2023")
        let homeAfter = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(homeAfter.contains("<div class=\"name\">Trips</div><div class=\"meta\">6 photos, 2 albums"))
        try AlbumBuildConsistencyTests.expectWhole(site)
    }

    @Test func albumsCanBeOrderedNewestFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.library(in: directory)
        let site = directory.appending("site")
        _ = try AlbumBuilder(index: index, options: .init(output: FilePath(site), order: .date)).build()
        let home = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        // Trips holds 2025's photos, Walks 2021's, Family (with Kids) 2020's.
        #expect(Self.cards(home) == ["Trips", "Walks", "Family"])
        let walks = try Self.page(named: "Walks", from: "index.html", in: site)
        #expect(Self.cards(try String(contentsOfFile: site + "/" + walks, encoding: .utf8)) == ["9", "10"])
        let trips = try Self.page(named: "Trips", from: "index.html", in: site)
        #expect(Self.cards(try String(contentsOfFile: site + "/" + trips, encoding: .utf8)) == ["2025 Summer", "2023"])
    }
}
