import Foundation
import Logging
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

/// Album pages built from a real scan of real files.
struct AlbumBuilderTests {
    /// Two roots, each with a "Garden" of `count` photos; scanned into one index.
    static func twoGardens(in directory: TemporaryDirectory, count: Int) throws -> PhotoIndex {
        let configuration = gardens(in: directory)
        for (number, root) in configuration.roots.enumerated() {
            for photo in 0..<count {
                var exif = ExifBuilder()
                exif.dateTimeOriginal = .init(dateTime: "2023:0\(number + 1):1\(photo % 10) 10:00:00")
                let jpeg = try SampleImage.jpeg(
                    SampleImage.pixels(width: 90, height: 60, seed: number * 100 + photo), exif: exif)
                try FileSystem.writeAtomically(jpeg, to: root.appending("Garden/\(number)-\(photo).jpg"))
            }
        }
        let index = try PhotoIndex(path: configuration.index)
        try scan(configuration, index)
        return index
    }

    /// Builds the site, then takes the photo whose path ends in `suffix` out of the library and
    /// scans again; returns the photo as the index had it.
    @discardableResult
    static func builtThenGone(
        _ suffix: String, _ index: PhotoIndex, _ builder: AlbumBuilder, _ directory: TemporaryDirectory
    ) throws -> PhotoRecord {
        _ = try builder.build()
        let gone = try #require(try index.photos(.init()).first { $0.path.string.hasSuffix(suffix) })
        try FileManager.default.removeItem(atPath: gone.path.string)
        try scan(gardens(in: directory), index)
        return gone
    }

    /// Two gardens of three photos, and a builder of their site in `directory/site`.
    static func gardenSite(in directory: TemporaryDirectory) throws -> (PhotoIndex, String, AlbumBuilder) {
        let index = try twoGardens(in: directory, count: 3)
        let site = directory.appending("site")
        return (index, site, AlbumBuilder(index: index, options: .init(output: FilePath(site))))
    }

    /// The configuration of the two gardens' library in `directory`.
    static func gardens(in directory: TemporaryDirectory) -> Configuration {
        var configuration = Configuration(environment: ["HOME": directory.path])
        configuration.roots = ["north", "south"].map { FilePath(directory.appending($0)) }
        configuration.index = FilePath(directory.appending("index.sqlite"))
        configuration.cache = FilePath(directory.appending("cache"))
        configuration.renditions = [.square(64)]
        return configuration
    }

    static func scan(_ configuration: Configuration, _ index: PhotoIndex, full: Bool = false) throws {
        _ = try LibraryScanner(configuration: configuration, index: index, logger: Logger(label: "test")).scan(
            full: full, stop: StopFlag())
    }

    /// A cover has the pixels of its card (160 CSS px at a pixel ratio of 2): a newer photo
    /// smaller than that is passed over for an older one that has them.
    @Test func aCoverIsSharpNotMerelyTheNewest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        for (name, width, height, date) in [
            ("new-scan.jpg", 80, 60, "2020:01:02"), ("old-sharp.jpg", 900, 600, "2019:01:01"),
        ] {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: "\(date) 10:00:00")
            try FileSystem.writeAtomically(
                SampleImage.jpeg(SampleImage.pixels(width: width, height: height), exif: exif),
                to: configuration.roots[0].appending("Scans/\(name)"))
        }
        let index = try PhotoIndex(path: configuration.index)
        try Self.scan(configuration, index)
        let output = FilePath(directory.appending("site"))
        _ = try AlbumBuilder(index: index, options: .init(output: output)).build()
        let list = try String(contentsOfFile: output.appending("index.html").string, encoding: .utf8)
        let cover = try #require(list.firstMatch(of: /<img src="media\/[^"]*\/([0-9a-f]+\/[0-9a-f]+\.jpg)"/)?.output.1)
        let photos = try index.photos(.init())
        let sharp = try #require(photos.first { $0.path.lastComponent?.string == "old-sharp.jpg" })
        #expect(sharp.renditions.contains { $0.path.hasSuffix(String(cover)) }, "the cover is \(cover)")
    }

    /// A day of more photos than a page holds, in tiles: its "+N" tile leads to the day's
    /// photos paged as an album is, every photo once, no page drawing more than a page's photos.
    @Test func aTilesSectionOfManyPhotosIsPaged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        for photo in 0..<30 {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: "2022:02:02 10:\(10 + photo):00")
            try FileSystem.writeAtomically(
                try SampleImage.jpeg(SampleImage.pixels(width: 24, height: 16, seed: photo), exif: exif),
                to: FilePath(directory.appending("photos/Day/\(photo).jpg")))
        }
        let index = try PhotoIndex(path: configuration.index)
        try Self.scan(configuration, index)
        let site = directory.appending("site")
        var options = AlbumBuilder.Options(output: FilePath(site))
        (options.style, options.photosPerPage) = (.tiles, 12)
        _ = try AlbumBuilder(index: index, options: options).build()
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: site + "/albums").first)
        let album = site + "/albums/\(folder)/"
        let sections = try FileManager.default.contentsOfDirectory(atPath: album).filter { $0.hasPrefix("section-") }
        #expect(
            sections.sorted() == [
                "section-2022-02-02-page-2.html", "section-2022-02-02-page-3.html",
                "section-2022-02-02.html",
            ])
        var shown: [String] = []
        for page in sections {
            let html = try String(contentsOfFile: album + page, encoding: .utf8)
            let photos = html.matches(of: #/<a class="photo"[^>]*href="([^"]+)"/#).map { String($0.output.1) }
            #expect(photos.count <= 12 && html.matches(of: #/<img /#).count <= 12, "\(page)")
            #expect(html.contains("class=\"pager\""), "\(page)")
            shown += photos
        }
        #expect(shown.count == 30 && Set(shown).count == 30)
    }

    /// A folder of more albums than a page holds pages their cards as it pages photos; so does
    /// the album list, whose pages a shorter list later leaves no more.
    @Test func aFolderOfManyAlbumsPagesTheirCards() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        for (number, folder) in ["Trips/0", "Trips/1", "Trips/2", "Trips/3", "Trips/4", "Walks", "Zoo"].enumerated() {
            try FileSystem.writeAtomically(
                try SampleImage.jpeg(SampleImage.pixels(width: 24, height: 16, seed: number)),
                to: FilePath(directory.appending("photos/\(folder)/a.jpg")))
        }
        let index = try PhotoIndex(path: configuration.index)
        try Self.scan(configuration, index)
        let site = directory.appending("site")
        var options = AlbumBuilder.Options(output: FilePath(site))
        options.photosPerPage = 2
        _ = try AlbumBuilder(index: index, options: options).build()
        let pages = { (folder: String, names: [String]) in
            try names.map { AlbumTreeTests.cards(try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) }
        }
        #expect(try pages(site, ["index.html", "albums-2.html"]) == [["Trips", "Walks"], ["Zoo"]])
        let trips = try AlbumTreeTests.page(named: "Trips", from: "index.html", in: site)
        let folder = (site + "/" + trips as NSString).deletingLastPathComponent
        #expect(try pages(folder, ["index.html", "page-2.html", "page-3.html"]) == [["0", "1"], ["2", "3"], ["4"]])
        #expect(!FileManager.default.fileExists(atPath: folder + "/page-4.html"))
        // Fewer albums: the list's second page goes.
        try FileManager.default.removeItem(atPath: directory.appending("photos/Zoo"))
        try Self.scan(configuration, index)
        _ = try AlbumBuilder(index: index, options: options).build()
        #expect(try pages(site, ["index.html"]) == [["Trips", "Walks"]])
        #expect(!FileManager.default.fileExists(atPath: site + "/albums-2.html"))
    }

    /// A photo whose largest rendition is small (a RAW's preview; here a 1200×800 photo with
    /// only a 160-pixel fit) is never drawn past that rendition's pixels, on the page as written
    /// and in what album.js lays out again (`data-px`).
    @Test func noPhotoIsDrawnLargerThanItsLargestRendition() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        configuration.renditions = [.fit(160)]
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: "2022:02:02 10:00:00")
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 1200, height: 800, seed: 7), exif: exif),
            to: FilePath(directory.appending("photos/Raw/big.jpg")))
        let index = try PhotoIndex(path: configuration.index)
        try Self.scan(configuration, index)
        let site = directory.appending("site")
        _ = try AlbumBuilder(index: index, options: .init(output: FilePath(site))).build()
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: site + "/albums").first)
        let page = try String(contentsOfFile: site + "/albums/\(folder)/index.html", encoding: .utf8)
        let anchor = try #require(
            page.firstMatch(of: #/<a class="photo"[^>]*style="[^"]*width:([\d.]+)px;height:([\d.]+)px"[^>]*>/#))
        #expect(
            Double(anchor.output.1) ?? 0 <= 160 && Double(anchor.output.2) ?? 0 <= 107,
            "drawn \(anchor.output.1)×\(anchor.output.2)")
        // (and at most half its pixels: sharp on a 2× screen)
        #expect(anchor.output.0.contains("data-wh=\"1200 800\" data-px=\"80 53\""), "\(anchor.output.0)")
    }

    @Test func albumsOfTheSameNameUnderTwoRootsEachGetTheirOwnPhotos() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.twoGardens(in: directory, count: 10)
        let output = FilePath(directory.appending("site"))
        let summary = try AlbumBuilder(index: index, options: .init(output: output)).build()
        #expect(summary.albums == 2)
        let folders = try FileManager.default.contentsOfDirectory(atPath: output.appending("albums").string).sorted()
        #expect(folders.count == 2)
        for folder in folders {
            let page = try String(
                contentsOfFile: output.appending("albums/\(folder)/index.html").string, encoding: .utf8)
            #expect(page.contains("10 photos"))
            #expect(page.components(separatedBy: "class=\"photo\"").count - 1 == 10, "\(folder)")
            #expect(page.contains("alt=\"0-") != page.contains("alt=\"1-"), "\(folder) mixes the two gardens")
        }
    }

    /// A photo nothing dates (no EXIF, a name without a date) is shown under "Undated", after
    /// the dated photos, whatever its mtime: before, the mtime put it in the current month.
    @Test func undatedPhotosAreShownUnderUndatedAfterTheDatedOnes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: "2019:06:01 10:00:00")
        try FileSystem.writeAtomically(
            SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60), exif: exif),
            to: configuration.roots[0].appending("Scans/dated.jpg"))
        try FileSystem.writeAtomically(
            SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: 1)),
            to: configuration.roots[0].appending("Scans/scan.jpg"))
        let index = try PhotoIndex(path: configuration.index)
        try Self.scan(configuration, index)
        let output = FilePath(directory.appending("site"))
        _ = try AlbumBuilder(index: index, options: .init(output: output)).build()
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: output.appending("albums").string).first)
        let page = try String(contentsOfFile: output.appending("albums/\(folder)/index.html").string, encoding: .utf8)
        let headers = page.components(separatedBy: "<div class=\"header\"").dropFirst().map { part in
            String(part.drop { $0 != ">" }.dropFirst().dropFirst("<span>".count).prefix { $0 != "<" })
        }
        // The dated section first (sparse: its month), then the undated.
        #expect(headers == ["June 2019", "Undated"])
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(!headers.contains { $0.contains(String(year)) })
        // In the first layout, after its "Undated" header: the undated photo alone.
        let undated =
            (page.components(separatedBy: ">Undated<").dropFirst().first ?? "")
            .components(separatedBy: "<div class=\"layout").first ?? ""
        #expect(undated.contains("alt=\"scan.jpg\"") && !undated.contains("alt=\"dated.jpg\""))
        // The album's dates are its dated photos' (an undated one is neither its newest nor its oldest).
        let album = try #require(try index.albums().first)
        #expect(
            album.oldestCapturedAt?.hasPrefix("2019-06-01") == true
                && album.newestCapturedAt?.hasPrefix("2019-06-01") == true)
        // The timeline's months end with one of the undated photos, and each leads to the next.
        func text(_ path: String) throws -> String {
            try String(contentsOfFile: output.appending(path).string, encoding: .utf8)
        }
        let june = try text("months/2019-06/index.html"), scans = try text("months/undated/index.html")
        #expect(
            june.contains("<nav class=\"months\"><a rel=\"next\" href=\"../undated/index.html\">Undated ›</a></nav>"))
        #expect(
            scans.contains("<nav class=\"months\"><a rel=\"prev\" href=\"../2019-06/index.html\">‹ June 2019</a></nav>")
        )
        #expect(scans.contains("alt=\"scan.jpg\"") && !scans.contains("alt=\"dated.jpg\""))
        let find = try text("find.js")
        #expect(find.contains(#""file":"months/undated/photos.js","find":{"cameras":{},"days":{},"#))
        #expect(find.contains(#""month":"","title":"Undated""#))
    }

    /// A page holds its photos laid out once, at the static width, for the script to lay out
    /// again at the window's; titles and cards take that layout's content width without script
    /// and the script's with it.
    @Test func pagesHoldOneLayoutAtTheStaticWidthAndTheScriptAnyOther() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.twoGardens(in: directory, count: 4)
        let output = FilePath(directory.appending("site"))
        var options = AlbumBuilder.Options(output: output)
        options.staticWidth = 420
        _ = try AlbumBuilder(index: index, options: options).build()
        let css = try String(contentsOfFile: output.appending("assets/album.css").string, encoding: .utf8)
        #expect(css.contains("header,.albums,.year,.children,.stacks,.album-map{width:min(404px,100% - 16px)}"))
        #expect(
            css.contains(
                ".js header,.js .albums,.js .year,.js .children,.js .stacks,.js .album-map"
                    + "{width:var(--content,calc(100% - 16px))}"))
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: output.appending("albums").string).first)
        let page = try String(contentsOfFile: output.appending("albums/\(folder)/index.html").string, encoding: .utf8)
        #expect(page.matches(of: #/class="layout /#).count == 1)
        #expect(page.contains("class=\"layout w420\" data-style=\"justified\" style=\"width:420px;"))
        // Each photo says its size, for the script's layout at the window's width.
        #expect(page.matches(of: #/<a class="photo"[^>]* data-wh="\d+ \d+"/#).count == 4)
    }

    @Test func anUnchangedIndexWritesNoPageAgainAndAStopEndsTheBuild() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.twoGardens(in: directory, count: 3)
        let builder = AlbumBuilder(index: index, options: .init(output: FilePath(directory.appending("site"))))
        // Two albums and two months.
        #expect(try builder.build().written == 4)
        let again = try builder.build()
        #expect(again.written == 0 && again.unchanged == 4)
        #expect { try builder.build(shouldStop: { true }) } throws: { ($0 as? AlbumError)?.code == .stopped }
    }

    /// Every file of `site` (links too) with its inode and modification time.
    static func stamps(of site: String) throws -> [String: String] {
        var stamps: [String: String] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: site) ?? .init() {
            let status = try FileSystem.linkStatus(of: FilePath(site + "/" + relative))
            stamps[relative] = "\(status.inode):\(status.mtimeTotalNanoseconds)"
        }
        return stamps
    }

    /// A rebuild with nothing changed writes no file at all; a photo added to one album writes
    /// that album and its month again, and no other album's or month's files.
    @Test func theTimelinesFindIndexCountsEveryPhotoOfEachMonthByEachFilter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, site, builder) = try Self.gardenSite(in: directory)
        _ = try builder.build()
        let script = try String(contentsOfFile: site + "/find.js", encoding: .utf8)
        let json = try #require(script.firstIndex(of: "{").map { script[$0...].dropLast(2) })
        let found = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let months = try #require(found["months"] as? [[String: Any]])
        let photos = try index.photos(.init())
        #expect(found["photos"] as? Int == photos.count)
        #expect(months.map { $0["file"] as? String } == (try index.months()).map { "months/\($0.month)/photos.js" })
        for month in months {
            let find = try #require(month["find"] as? [String: Any])
            let name = try #require((month["file"] as? String)?.split(separator: "/")[1])
            let inMonth = photos.filter { $0.capturedAt?.hasPrefix(name) == true }
            // Each photo once by its day and by its format.
            #expect((find["days"] as? [String: Int])?.values.reduce(0, +) == inMonth.count)
            #expect((find["formats"] as? [String: Int]) == ["JPEG": inMonth.count])
        }
    }

    @Test func aRebuildWritesOnlyWhatChanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, site, builder) = try Self.gardenSite(in: directory)
        _ = try builder.build()
        let first = try Self.stamps(of: site)
        #expect(try builder.build().written == 0)
        #expect(try Self.stamps(of: site) == first, "an unchanged rebuild wrote files")
        // A photo lands in the north Garden (January).
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: "2023:01:20 10:00:00")
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: 77), exif: exif),
            to: FilePath(directory.appending("north/Garden/new.jpg")))
        try Self.scan(Self.gardens(in: directory), index)
        let summary = try builder.build()
        #expect(summary.written == 2 && summary.unchanged == 2, "\(summary)")
        let after = try Self.stamps(of: site)
        let changed = Set(
            after.keys.filter { after[$0] != first[$0] }.map {
                $0.split(separator: "/").prefix(2).joined(separator: "/")
            })
        let south = try #require(
            try FileManager.default.contentsOfDirectory(atPath: site + "/albums").first {
                try String(contentsOfFile: site + "/albums/\($0)/index.html", encoding: .utf8).contains("2023-02")
            })
        #expect(!changed.contains("albums/" + south) && !changed.contains("months/2023-02"), "\(changed.sorted())")
        #expect(changed.contains("months/2023-01"))
        try AlbumBuildConsistencyTests.expectWhole(site)
    }

    /// Two copies of one photo in two albums share one rendition file in the site: when one
    /// album loses its copy, the file stays for the other, whose pages are not written again.
    @Test func aRenditionSharedWithAnUnchangedAlbumStays() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("north"))]
        // No EXIF date: the timeline's undated month shows both copies, and is written again.
        let jpeg = try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: 5))
        let (original, copy) = (directory.appending("north/Garden/a.jpg"), directory.appending("north/Pond/b.jpg"))
        for path in [original, copy] { try FileSystem.writeAtomically(jpeg, to: FilePath(path)) }
        let index = try PhotoIndex(path: configuration.index)
        try Self.scan(configuration, index)
        let shared = try index.photos(.init()).map { $0.renditions.map(\.path) }
        #expect(shared.count == 2 && shared[0] == shared[1], "the copies share their renditions")
        let site = directory.appending("site")
        // (both shown: a site hides copies unless asked to show them)
        let builder = AlbumBuilder(index: index, options: .init(output: FilePath(site), showCopies: true))
        _ = try builder.build()
        let before = try Self.stamps(of: site)
        try FileManager.default.removeItem(atPath: copy)
        try Self.scan(configuration, index)
        let summary = try builder.build()
        #expect(
            summary.albums == 1 && summary.months == 1 && summary.written == 1 && summary.unchanged == 1,
            "the Garden is left as it was, the undated month written again: \(summary)")
        let after = try Self.stamps(of: site)
        let gardenPage = try #require(after.keys.first { $0.hasPrefix("albums/garden") && $0.hasSuffix("/index.html") })
        #expect(before[gardenPage] == after[gardenPage])
        try AlbumBuildConsistencyTests.expectWhole(site)
    }

    /// Every file a page in `site` refers to (src, srcset, href), as a path; external links aside.
    static func references(in site: String) throws -> [(page: String, target: String)] {
        var found: [(String, String)] = []
        for case let file as String in FileManager.default.enumerator(atPath: site) ?? .init()
        where file.hasSuffix(".html") {
            let page = URL(fileURLWithPath: site + "/" + file)
            let html = try String(contentsOf: page, encoding: .utf8)
            var values = html.matches(of: #/(?:src|href)="([^"]*)"/#).map { String($0.output.1) }
            for match in html.matches(of: #/srcset="([^"]*)"/#) {
                values += match.output.1.split(separator: ",").compactMap {
                    $0.split(separator: " ").first.map(String.init)
                }
            }
            for value in values where !value.hasPrefix("https:") && !value.hasPrefix("#") {
                let decoded = value.replacingOccurrences(of: "&amp;", with: "&").removingPercentEncoding ?? value
                found.append(
                    (
                        file,
                        URL(fileURLWithPath: decoded, relativeTo: page.deletingLastPathComponent()).standardizedFileURL
                            .path
                    ))
            }
        }
        return found
    }

    /// Every page and script of the site, one after another.
    static func siteText(_ site: String) throws -> String {
        var text = ""
        for case let file as String in FileManager.default.enumerator(atPath: site) ?? .init()
        where file.hasSuffix(".html") || file.hasSuffix(".js") {
            text += try String(contentsOfFile: site + "/" + file, encoding: .utf8)
        }
        return text
    }

    @Test func aCopiedSiteWorksWithoutTheCacheOrTheLibrary() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.twoGardens(in: directory, count: 3)
        var options = AlbumBuilder.Options(output: FilePath(directory.appending("site")))
        options.originals = .copy
        let summary = try AlbumBuilder(index: index, options: options).build()
        // Renditions and originals are hard links here (one file system), twelve of them.
        #expect(summary.linked == 12 && summary.copied == 0 && summary.missing == 0)
        // Moved elsewhere, with the cache and the photos gone, every reference still resolves
        // to a file inside the folder.
        let moved = directory.appending("elsewhere")
        try FileManager.default.moveItem(atPath: directory.appending("site"), toPath: moved)
        for gone in ["cache", "north", "south"] {
            try FileManager.default.removeItem(atPath: directory.appending(gone))
        }
        let references = try Self.references(in: moved)
        #expect(references.count > 50)
        // (no photo has a position: no album shows a map)
        #expect(try !Self.siteText(moved).contains("class=\"album-map\""))
        for (page, target) in references {
            #expect(target.hasPrefix(moved + "/"), "\(page) refers outside the site: \(target)")
            #expect(FileManager.default.fileExists(atPath: target), "\(page): \(target) is missing")
        }
    }

    @Test func copiedRenditionsAreCopiesAndOriginalsCanBeLeftOut() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.twoGardens(in: directory, count: 2)
        var options = AlbumBuilder.Options(output: FilePath(directory.appending("site")))
        options.copyRenditions = true
        options.originals = .none
        let summary = try AlbumBuilder(index: index, options: options).build()
        #expect(summary.copied == 4 && summary.linked == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.appending("site/originals")))
        // Neither a page nor the lightbox's data names an original.
        let references = try Self.references(in: directory.appending("site"))
        #expect(!references.isEmpty && references.allSatisfy { !$0.target.contains("/originals/") })
        let text = try Self.siteText(directory.appending("site"))
        #expect(text.contains("\"sources\":") && !text.contains("\"original\":") && !text.contains("/originals/"))
    }

    @Test func aPhotoThatLeavesTheLibraryLeavesTheSiteWithItsFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, site, builder) = try Self.gardenSite(in: directory)
        let gone = try Self.builtThenGone("north/Garden/0-1.jpg", index, builder, directory)
        let again = try builder.build()
        // Its album and its month are written again; its rendition and original link go.
        #expect(again.written == 2 && again.removed == 2)
        let references = try Self.references(in: site)
        #expect(try !Self.siteText(site).contains("photo-\(gone.id)\""))
        #expect(references.allSatisfy { FileManager.default.fileExists(atPath: $0.target) })
        let leftovers = FileManager.default.enumerator(atPath: site)?.compactMap { $0 as? String } ?? []
        #expect(!leftovers.contains { $0.hasSuffix("/\(gone.id).html") || $0.contains("/\(gone.id)-") })
    }

    /// A build stopped after writing an album again, before the month that shows the same photos,
    /// leaves every page's files in place: the month's old page still finds the photo that left.
    @Test func aBuildStoppedBeforeItsMonthsRemovesNoFileAPageShows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, site, builder) = try Self.gardenSite(in: directory)
        try Self.builtThenGone("north/Garden/0-1.jpg", index, builder, directory)
        // Stopped at the third collection asked for, an album or a month (the two threads ask
        // alike): whichever was written, the build removes nothing.
        let asked = Condition(0)
        #expect {
            try builder.build(shouldStop: {
                asked.withLock {
                    $0 += 1
                    return $0 > 2
                }
            })
        } throws: { ($0 as? AlbumError)?.code == .stopped }
        let references = try Self.references(in: site)
        #expect(!references.isEmpty)
        #expect(references.allSatisfy { FileManager.default.fileExists(atPath: $0.target) })
    }

    /// A build stopped after writing an album again, before it removes what that album let go
    /// of, leaves those files for the next build to remove: the list of them is in the output.
    @Test func whatAStoppedBuildLetGoOfTheNextRemoves() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (index, site, builder) = try Self.gardenSite(in: directory)
        // Albums of one depth are written in the order of their paths: the north garden's first.
        let gone = try Self.builtThenGone("north/Garden/0-1.jpg", index, builder, directory)
        let list = site + "/.tessera-gone"
        #expect {
            try builder.build(shouldStop: { FileManager.default.fileExists(atPath: list) })
        } throws: { ($0 as? AlbumError)?.code == .stopped }
        let files = { FileManager.default.enumerator(atPath: site)?.compactMap { $0 as? String } ?? [] }
        let original = try #require(files().first { $0.hasPrefix("originals/") && $0.contains("/\(gone.id)-") })
        let again = try builder.build()
        #expect(again.removed >= 2, "its original link and its rendition")
        #expect(!files().contains(original) && !FileManager.default.fileExists(atPath: list))
        #expect(try Self.references(in: site).allSatisfy { FileManager.default.fileExists(atPath: $0.target) })
    }

    /// A build that lets go of more files than it lists sweeps instead, and keeps the files of the
    /// albums it left as they were.
    @Test func aSweepInsteadOfAListKeepsTheAlbumsLeftAsTheyWere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.twoGardens(in: directory, count: 3)
        let site = directory.appending("site")
        var options = AlbumBuilder.Options(output: FilePath(site))
        options.removalList = 0
        let builder = AlbumBuilder(index: index, options: options)
        try Self.builtThenGone("north/Garden/0-1.jpg", index, builder, directory)
        let again = try builder.build()
        #expect(again.written == 2 && again.unchanged == 2 && again.removed == 2)
        #expect(try Self.references(in: site).allSatisfy { FileManager.default.fileExists(atPath: $0.target) })
    }
}
