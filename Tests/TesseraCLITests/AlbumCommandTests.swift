import Foundation
import SystemPackage
import TesseraImage
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// `tessera album build` on a library whose names try to break out of the HTML.
struct AlbumCommandTests {
    static let hostile = "<script>alert(1)</script>"
    static let quoted = #"it's "quoted" & #1"#

    static func build(
        _ directory: TemporaryDirectory, style: String = "tiles"
    ) throws -> (TesseraProcess.Result, String) {
        let out = directory.appending("site")
        let store = ["--index", directory.appending("index.sqlite"), "--cache", directory.appending("cache")]
        return (try TesseraProcess.run(["album", "build", "--out", out, "--style", style] + store), out)
    }

    static func library(_ directory: TemporaryDirectory) throws {
        let root = FilePath(directory.appending("photos"))
        for (number, (album, count)) in [(hostile, 9), (quoted, 2), ("plain", 3)].enumerated() {
            for index in 0..<count {
                var exif = ExifBuilder()
                exif.dateTimeOriginal = .init(dateTime: "2023:05:01 1\(index):00:00")
                let bytes = try SampleImage.jpeg(
                    SampleImage.pixels(width: 160 + index * 20, height: 120, seed: 10 * number + index), exif: exif)
                try FileSystem.writeAtomically(bytes, to: root.appending(album).appending("p\(index) \"x\".jpg"))
            }
        }
        let scan = try TesseraProcess.run(
            [
                "scan", root.string, "--index", directory.appending("index.sqlite"), "--cache",
                directory.appending("cache"),
            ])
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    /// Every `src` and `href` in `html` (a file in `directory`), resolved to a path on disk.
    ///
    /// The only links out of the site are the credits of the data it shows (GeoNames, its
    /// licence), which a person may follow and no page loads.
    static func references(in html: String, directory: URL) -> [String] {
        let pattern = #/(?:src|href)="([^"]*)"/#
        let credits = ["https://www.geonames.org/", "https://creativecommons.org/licenses/by/4.0/"]
        return html.matches(of: pattern).filter { !credits.contains(String($0.output.1)) }.map { match in
            let value = String(match.output.1).replacingOccurrences(of: "&amp;", with: "&")
            let decoded = value.removingPercentEncoding ?? value
            return URL(fileURLWithPath: decoded, relativeTo: directory).standardizedFileURL.path
        }
    }

    /// A disk that fills up in the middle of a rebuild: the build says so and fails, the pages
    /// already there are left whole (every write is atomic), and the next build completes.
    @Test func aFullDiskFailsTheBuildClearlyAndLeavesTheSiteWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.library(directory)
        let (first, out) = try Self.build(directory)
        #expect(first.status == 0, "\(first.stderr)")
        let store = ["--index", directory.appending("index.sqlite"), "--cache", directory.appending("cache")]
        // (another style, so every page is written again; the fault stands in for ENOSPC)
        let full = try TesseraProcess.run(
            ["album", "build", "--out", out, "--style", "grid"] + store,
            environment: ["TESSERA_FAULT": "write-file:ENOSPC"])
        #expect(full.status == 1 && full.stderr.contains("No space left on device"), "\(full.stdout) \(full.stderr)")
        let pages =
            FileManager.default.enumerator(atPath: out)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".html") }
            ?? []
        #expect(pages.count == 12)
        for page in pages {
            let url = URL(fileURLWithPath: out + "/" + page)
            let html = try String(contentsOf: url, encoding: .utf8)
            #expect(html.hasSuffix("</html>\n"), "\(page) is cut short")
            for reference in Self.references(in: html, directory: url.deletingLastPathComponent()) {
                #expect(FileManager.default.fileExists(atPath: reference), "\(page): \(reference)")
            }
        }
        let again = try TesseraProcess.run(["album", "build", "--out", out, "--style", "grid"] + store)
        #expect(again.status == 0 && again.stdout.contains("5 written"), "\(again.stdout) \(again.stderr)")
    }

    @Test func pagesEscapeNamesAndEveryLinkResolves() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.library(directory)
        let (result, out) = try Self.build(directory)
        #expect(result.status == 0, "\(result.stderr)")
        // The hostile name holds a slash: a folder ("<script>alert(1)<") of one album ("script>").
        #expect(result.stdout.contains("4 albums, 1 month (5 written, 0 unchanged)"), "\(result.stdout)")
        let files =
            FileManager.default.enumerator(atPath: out)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".html") }
            ?? []
        // The album list, the timeline, four albums (one a folder of one) and a month of one page
        // each, the page of the album's and the month's day that has more than six photos, and
        // the Places page, the People page and the map (no photo has a place or a named person:
        // none has pages).
        #expect(files.count == 12)
        var sawOverlay = false
        var inAlbums: Set<Substring> = []
        for file in files {
            let url = URL(fileURLWithPath: out + "/" + file)
            let html = try String(contentsOf: url, encoding: .utf8)
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            if file.hasPrefix("albums/") { inAlbums.formUnion(html.matches(of: /data-id="(\d+)"/).map(\.output.1)) }
            #expect(!html.contains(Self.hostile), "\(file) contains the raw name")
            // The one script is the site's own, from its assets; the map's are Leaflet, its data and its own.
            let scripts = html.matches(of: /<script[^>]*>/).map { String($0.output) }
            #expect(
                file == "map.html"
                    ? scripts == [
                        #"<script src="assets/leaflet/leaflet.js">"#, #"<script src="map/index.js">"#,
                        #"<script src="assets/map.js">"#,
                    ]
                    : scripts.count == 1
                        && scripts[0].firstMatch(of: /<script src="(\.\.\/)*assets\/album\.js">/) != nil,
                "\(file) has a script element of its own: \(scripts)")
            for reference in Self.references(in: html, directory: url.deletingLastPathComponent()) {
                #expect(FileManager.default.fileExists(atPath: reference), "\(file): \(reference)")
            }
            // The "+3" tile, the sixth of its day, leads to its day's page, which shows all nine photos.
            let overlay =
                /<a class="photo more" href="(section-[^"]+)" data-id="(\d+)"[^>]*><img [^>]*><span class="more">\+3<\/span>/
            for match in html.matches(of: overlay) {
                sawOverlay = true
                let section = try String(
                    contentsOf: url.deletingLastPathComponent().appendingPathComponent(String(match.output.1)),
                    encoding: .utf8)
                #expect(Set(section.matches(of: /data-id="(\d+)"/).map(\.output.1)).count == 9)
                #expect(section.contains("data-id=\"\(match.output.2)\""))
            }
        }
        #expect(sawOverlay)
        // Every photo is on an album page as it is written, for a browser without script.
        #expect(inAlbums.count == 14)
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains("it&#39;s &quot;quoted&quot; &amp; #1"))
    }

    @Test func rebuildsOnlyChangedAlbums() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.library(directory)
        #expect(try Self.build(directory).0.stdout.contains("(5 written, 0 unchanged)"))
        #expect(try Self.build(directory).0.stdout.contains("(0 written, 5 unchanged)"))
        let root = FilePath(directory.appending("photos"))
        try FileSystem.writeAtomically(
            SampleImage.jpeg(SampleImage.pixels(width: 200, height: 100, seed: 40)), to: root.appending("plain/new.jpg")
        )
        _ = try TesseraProcess.run(
            [
                "scan", root.string, "--index", directory.appending("index.sqlite"), "--cache",
                directory.appending("cache"),
            ])
        // Its album, the timeline's new month of undated photos (its file time is no date), and
        // the month before it, which now leads to it; no other album.
        let rebuilt = try Self.build(directory).0.stdout
        #expect(rebuilt.contains("4 albums, 2 months (3 written, 3 unchanged)"), "\(rebuilt)")
        // A different style changes every album and month.
        let restyled = try Self.build(directory, style: "masonry").0.stdout
        #expect(restyled.contains("(6 written, 0 unchanged)"), "\(restyled)")
    }

    @Test func aSecondBuildOfTheSameFolderWaitsForTheFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.library(directory)
        let (first, site) = try Self.build(directory, style: "justified")
        #expect(first.status == 0, "\(first.stderr)")
        let pages = (FileManager.default.enumerator(atPath: site)?.compactMap { $0 as? String } ?? []).filter {
            $0.hasSuffix(".html")
        }
        func contents() -> [String: Data] {
            Dictionary(
                uniqueKeysWithValues: pages.map {
                    ($0, FileManager.default.contents(atPath: site + "/" + $0) ?? Data())
                })
        }
        let before = contents()
        // Another build holds the folder; a second process starts a build of another style.
        let lockPath = site + "/.tessera-album.lock"
        var other: FileLock? = try FileLock(path: FilePath(lockPath))
        #expect(try other?.tryLock() == true)
        let store = ["--index", directory.appending("index.sqlite"), "--cache", directory.appending("cache")]
        let second = try TesseraProcess.start(["album", "build", "--out", site, "--style", "grid"] + store)
        // It opens the lock file (and then waits on it) before it writes anything.
        let opened = Deadline.wait(seconds: 30) {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(second.pid)/fd")) ?? []
            return fds.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(second.pid)/fd/\($0)")) == lockPath
            }
        }
        #expect(opened, "the second build never took the folder's lock")
        #expect(second.isRunning && contents() == before, "nothing written while the other build holds the folder")
        other = nil  // the other build ends
        #expect(other == nil)
        let result = second.wait(seconds: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("another album build is writing") && result.stderr.contains("waiting"),
            "\(result.stderr)")
        #expect(contents() != before, "then it wrote its own style")
    }
}
