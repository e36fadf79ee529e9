import Foundation
import Glibc
import SystemPackage
import TesseraDesktop
import TesseraImage
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// The freedesktop thumbnail cache as GNOME's own thumbnail factory (the library Nautilus uses)
/// reads it, through python3-gi.
struct DesktopThumbnailTests {
    /// Looks every file of `paths` up with `GnomeDesktop.DesktopThumbnailFactory.lookup(uri,
    /// mtime)` at the large and x-large sizes, the URI made by GLib from the path's bytes.
    ///
    /// Returns, per path, the thumbnail files found (nil where none is valid).
    static func lookUp(_ paths: [FilePath], cache: String) throws -> [FilePath: [String: String?]] {
        let script = """
            import gi, json, os, sys
            gi.require_version('GnomeDesktop', '3.0')
            from gi.repository import GnomeDesktop, Gio
            sizes = {'large': GnomeDesktop.DesktopThumbnailSize.LARGE, 'x-large': GnomeDesktop.DesktopThumbnailSize.XLARGE}
            factories = {name: GnomeDesktop.DesktopThumbnailFactory.new(size) for name, size in sizes.items()}
            found = {}
            for raw in sys.stdin.buffer.read().split(b'\\0'):
                if raw:
                    uri = Gio.File.new_for_path(os.fsdecode(raw)).get_uri()
                    mtime = int(os.stat(raw).st_mtime)
                    found[raw.hex()] = {name: factory.lookup(uri, mtime) for name, factory in factories.items()}
            print(json.dumps(found))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cache]) { $1 }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        input.fileHandleForWriting.write(Data(paths.flatMap { $0.rawBytes + [0] }))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0,
            "GNOME's thumbnail factory (gir1.2-gnomedesktop-3.0, python3-gi): \(problems)")
        let found = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        var result: [FilePath: [String: String?]] = [:]
        for path in paths {
            let hex = path.rawBytes.map { String(format: "%02x", $0) }.joined()
            result[path] = (found[hex] ?? [:]).mapValues { $0 as? String }
        }
        return result
    }

    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    /// A PNG's size from its IHDR chunk.
    static func size(ofPNG path: String) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        try #require(bytes.count == 24)
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// `count` photos below `directory/photos` and the `tessera scan` arguments that index them
    /// with the desktop cache on (in `directory/xdg`, given as `XDG_CACHE_HOME`).
    static func desktopLibrary(
        in directory: TemporaryDirectory, count: Int
    ) throws -> (root: String, xdg: String, index: String, scan: [String]) {
        let root = try ScanCommandTests.library(in: directory, count: count, width: 300)
        let config = directory.appending("on.yaml")
        try "desktop_thumbnails: true\n".write(toFile: config, atomically: true, encoding: .utf8)
        let index = directory.appending("i.sqlite")
        return (
            root, directory.appending("xdg"), index,
            ["scan", root, "--config", config, "--index", index, "--cache", directory.appending("c")]
        )
    }

    @Test func gnomesFactoryFindsAValidThumbnailForEveryPhotoAndNoneOnceOneChanges() throws {
        // Given photos whose names have spaces, non-ASCII letters and bytes that are not UTF-8,
        // a broken one, and a configuration that fills the desktop cache,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = FilePath(directory.appending("photos"))
        func named(_ name: [UInt8]) -> FilePath { FilePath(rawBytes: photos.rawBytes + [UInt8(ascii: "/")] + name) }
        let files = [
            named(Array("plain.jpg".utf8)), named(Array("with space & more.jpg".utf8)),
            named(Array("été – Zürich.jpg".utf8)),
            named(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)), named(Array("50% #1?.jpg".utf8)),
        ]
        for (seed, file) in files.enumerated() {
            try FileSystem.writeAtomically(
                try SampleImage.jpeg(SampleImage.pixels(width: 900, height: 600, seed: seed)), to: file)
        }
        // (a video too: its thumbnails come from its poster frame, never enlarged)
        let video = named(Array("clip one.mp4".utf8))
        try FileManager.default.moveItem(atPath: try VideoFixture.clip(in: directory), toPath: video.string)
        let broken = named(Array("broken.jpg".utf8))
        try FileSystem.writeAtomically(
            Array(try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60)).prefix(150)), to: broken)
        let xdg = directory.appending("xdg-cache")
        let config = directory.appending("tessera.yaml")
        try """
        roots: ["\(photos.string)"]
        index: \(directory.appending("index.sqlite"))
        cache: \(directory.appending("renditions"))
        desktop_thumbnails: true
        keep_missing_days: 0
        """.write(toFile: config, atomically: true, encoding: .utf8)
        func scan() throws {
            let result = try TesseraProcess.run(["scan", "--config", config], environment: ["XDG_CACHE_HOME": xdg])
            try #require(result.status == 0, "\(result.stdout) \(result.stderr)")
        }
        // when they are scanned,
        try scan()
        // then the factory finds a valid thumbnail of each at both sizes, no larger than its size,
        let cache = DesktopThumbnailCache(root: FilePath(xdg).appending("thumbnails"), sizes: [.large, .xLarge])
        var found = try Self.lookUp(files, cache: xdg)
        for file in files {
            for (size, pixels) in [("large", 256), ("x-large", 512)] {
                let thumbnail = try #require(found[file]?[size] ?? nil, "\(file) \(size): \(found[file] ?? [:])")
                #expect(thumbnail == cache.path(of: file, size: size == "large" ? .large : .xLarge).string)
                #expect(Self.mode(thumbnail) == 0o600, "\(thumbnail)")
                let (width, height) = try Self.size(ofPNG: thumbnail)
                #expect(max(width, height) == pixels && min(width, height) == Int((Double(pixels) * 2 / 3).rounded()))
            }
        }
        #expect(Self.mode(xdg + "/thumbnails/large") == 0o700)
        let clip = try Self.lookUp([video], cache: xdg)[video] ?? [:]
        #expect(
            try (clip["large"] ?? nil).map(Self.size(ofPNG:)).map { [$0.width, $0.height] } == [256, 144], "\(clip)")
        #expect(
            try (clip["x-large"] ?? nil).map(Self.size(ofPNG:)).map { [$0.width, $0.height] } == [320, 180], "\(clip)")
        // and the broken file has the standard's failure entry, and no thumbnail;
        #expect(try Self.lookUp([broken], cache: xdg)[broken]?["large"] == .some(nil))
        let failure = FilePath(xdg).appending("thumbnails/fail/tessera-\(TesseraVersion.current)")
            .appending(MD5.hex(Array(DesktopThumbnailCache.uri(of: broken).utf8)) + ".png")
        #expect(
            PNGText.entries(of: FileSystem.smallFileContents(failure, limit: 1 << 20) ?? [])["Thumb::URI"]
                == DesktopThumbnailCache.uri(of: broken))
        // when a photo changes, its thumbnail is no longer valid until the next scan,
        let changed = files[0]
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 600, height: 900, seed: 40)), to: changed)
        var times = [timespec(tv_sec: 2_000_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, changed.string, &times, 0) == 0)
        found = try Self.lookUp(files, cache: xdg)
        #expect(found[changed]?["large"] == .some(nil) && found[files[1]]?["large"] != .some(nil), "\(found)")
        try scan()
        let refreshed = try #require(try Self.lookUp([changed], cache: xdg)[changed]?["large"] ?? nil)
        let portrait = try Self.size(ofPNG: refreshed)
        #expect(portrait.width < portrait.height, "the new photo's thumbnail")
        // a renamed photo's thumbnail follows it, and a deleted one's goes.
        let renamed = named(Array("renamed.jpg".utf8))
        #expect(rename(files[1].string, renamed.string) == 0)
        try FileSystem.removeFile(files[2])
        try scan()
        #expect(try Self.lookUp([renamed], cache: xdg)[renamed]?["x-large"] != .some(nil))
        for gone in [files[1], files[2]] {
            #expect((try? FileSystem.status(of: cache.path(of: gone, size: .large))) == nil, "\(gone)")
        }
    }

    /// Every byte a name can hold, escaped as GLib's g_filename_to_uri escapes it.
    @Test func urisAreEscapedExactlyAsGLibDoes() throws {
        let names = (1...255).filter { $0 != 0x2F }.map { [UInt8(ascii: "a"), UInt8($0), UInt8(ascii: "b")] }
        let script = """
            import sys
            from gi.repository import GLib
            for raw in sys.stdin.buffer.read().split(b'\\0'):
                if raw:
                    print(GLib.filename_to_uri(raw.decode('utf-8', 'surrogateescape'), None))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        (process.standardInput, process.standardOutput) = (input, output)
        try process.run()
        let paths = names.map { FilePath(rawBytes: Array("/photos/".utf8) + $0) }
        input.fileHandleForWriting.write(Data(paths.flatMap { $0.rawBytes + [0] }))
        try input.fileHandleForWriting.close()
        let glib = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(
            separator: "\n")
        process.waitUntilExit()
        try #require(process.terminationStatus == 0 && glib.count == paths.count, "python3-gi")
        for (path, expected) in zip(paths, glib) { #expect(DesktopThumbnailCache.uri(of: path) == expected) }
    }

    /// `auto` fills the cache for a library inside the home directory, not for one elsewhere;
    /// turned on for an indexed library, the next scan fills it without reading anything else.
    @Test func autoMeansAUsersOwnLibraryAndTurningItOnFillsTheCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let home = directory.appending("home")
        let inside = try ScanCommandTests.library(in: directory, count: 2, width: 300)
        let mine = home + "/Pictures"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: inside, toPath: mine)
        let xdg = directory.appending("xdg")
        let environment = ["HOME": home, "XDG_CACHE_HOME": xdg]
        let desktop = xdg + "/thumbnails/large"
        func thumbnails() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: desktop))?.count ?? 0 }
        // A library outside the home directory gets none,
        let elsewhere = [
            "scan", inside, "--index", directory.appending("a.sqlite"), "--cache", directory.appending("a"),
        ]
        #expect(try TesseraProcess.run(elsewhere, environment: environment).status == 0)
        #expect(thumbnails() == 0)
        // ~/Pictures does,
        let own = ["scan", mine, "--index", directory.appending("b.sqlite"), "--cache", directory.appending("b")]
        #expect(try TesseraProcess.run(own, environment: environment).status == 0)
        #expect(thumbnails() == 2)
        // and turned on for the first library, the next scan fills the cache for it too.
        let config = directory.appending("on.yaml")
        try "desktop_thumbnails: true\n".write(toFile: config, atomically: true, encoding: .utf8)
        let again = try TesseraProcess.run(elsewhere + ["--config", config], environment: environment)
        #expect(again.stdout.contains("2 files: 2 unchanged (2 given new renditions)"), "\(again.stdout)")
        #expect(thumbnails() == 4)
    }

    /// What a write killed mid-way leaves in the cache is removed by the next scan once surely
    /// dead; a fresh one (another process may be writing it) and other programs' files stay.
    @Test func temporaryFilesOfKilledWritesAreSweptAndNothingElse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, xdg, _, arguments) = try Self.desktopLibrary(in: directory, count: 1)
        let large = xdg + "/thumbnails/large"
        try FileManager.default.createDirectory(atPath: large, withIntermediateDirectories: true)
        let name = String(repeating: "0123456789abcdef", count: 2)
        let files = [
            "stale": ".tmp-\(name).png-1234567890", "fresh": ".tmp-\(name).png-42",
            "other": ".tmp-somebody-else", "theirs": "\(name).png",
        ].mapValues { large + "/" + $0 }
        for (_, path) in files { try Data([1]).write(to: URL(fileURLWithPath: path)) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: try #require(files["stale"]))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: try #require(files["other"]))
        let scan = try TesseraProcess.run(arguments, environment: ["XDG_CACHE_HOME": xdg])
        #expect(scan.status == 0, "\(scan.stderr)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: large))
        #expect(!left.contains(".tmp-\(name).png-1234567890"))
        #expect(left.isSuperset(of: [".tmp-\(name).png-42", ".tmp-somebody-else", "\(name).png"]), "\(left)")
        #expect(left.count == 4, "\(left)")  // and the photo's own thumbnail
    }

    /// Thumbnails deleted from the desktop cache (emptied by hand, cleaned up by GNOME's
    /// housekeeping) are made again by the next scan, and only theirs; a rescan with nothing gone
    /// decodes nothing.
    @Test func deletedDesktopThumbnailsAreMadeAgainByTheNextScan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, xdg, _, scan) = try Self.desktopLibrary(in: directory, count: 3)
        func names(_ size: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: xdg + "/thumbnails/" + size)) ?? []).sorted()
        }
        #expect(try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg]).status == 0)
        let (large, xLarge) = (names("large"), names("x-large"))
        try #require(large.count == 3 && xLarge.count == 3)
        // Given one large thumbnail deleted, and the whole x-large folder,
        try FileManager.default.removeItem(atPath: xdg + "/thumbnails/large/" + large[0])
        try FileManager.default.removeItem(atPath: xdg + "/thumbnails/x-large")
        // the next scan makes them again, decoding the three photos once each,
        let again = try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg])
        #expect(again.stdout.contains("3 files: 3 unchanged (3 given new renditions)"), "\(again.stdout)")
        #expect(names("large") == large && names("x-large") == xLarge)
        // and a scan with nothing gone reads no photo.
        let third = try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg])
        #expect(third.stdout.contains("3 files: 3 unchanged\n"), "\(third.stdout)")
    }

    /// A copy of a photo already indexed (or the same file touched) is not decoded for its desktop
    /// thumbnails either: they are the other photo's, their text rewritten for the copy.
    @Test func aCopysDesktopThumbnailsAreTheOriginalsRewrittenNotDecodedAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (root, xdg, _, scan) = try Self.desktopLibrary(in: directory, count: 1)
        #expect(try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg]).status == 0)
        // Given the original's thumbnails marked (a decode would write them without the mark),
        let original = FilePath(root + "/album0/p0.jpg")
        let cache = DesktopThumbnailCache(root: FilePath(xdg).appending("thumbnails"), sizes: [.large, .xLarge])
        for size in [DesktopThumbnailCache.Size.large, .xLarge] {
            let path = cache.path(of: original, size: size).string
            let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let entries =
                PNGText.entries(of: png).map { (key: $0.key, value: $0.value) } + [
                    (key: "Thumb::Image::Marker", value: "copied")
                ]
            try Data(try #require(PNGText.replacing(entries, in: png))).write(to: URL(fileURLWithPath: path))
        }
        // and a copy of the photo in another folder,
        try FileManager.default.createDirectory(atPath: root + "/copies", withIntermediateDirectories: true)
        let copy = FilePath(root + "/copies/p0 copy.jpg")
        try FileManager.default.copyItem(atPath: original.string, toPath: copy.string)
        // the next scan gives the copy thumbnails GNOME finds valid, made from the original's.
        #expect(try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg]).status == 0)
        let found = try Self.lookUp([copy], cache: xdg)[copy] ?? [:]
        #expect((found["large"] ?? nil) != nil && (found["x-large"] ?? nil) != nil, "\(found)")
        for size in [DesktopThumbnailCache.Size.large, .xLarge] {
            let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache.path(of: copy, size: size).string)))
            #expect(PNGText.entries(of: png)["Thumb::Image::Marker"] == "copied", "\(size)")
            #expect(PNGText.entries(of: png)["Thumb::URI"] == DesktopThumbnailCache.uri(of: copy))
        }
    }

    /// A photo whose rendition files and desktop thumbnails are both gone is made again once:
    /// one decode gives both, and the summary counts it once.
    @Test func aPhotoMissingBothItsRenditionsAndItsDesktopThumbnailsIsMadeOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, xdg, index, scan) = try Self.desktopLibrary(in: directory, count: 3)
        #expect(try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg]).status == 0)
        // Given one photo's rendition files deleted, and every desktop thumbnail,
        let files = try #require(
            SQLite.query(
                index,
                """
                SELECT DISTINCT r.path FROM renditions r JOIN photos p ON p.id = r.photo_id WHERE p.path_text LIKE '%/p0.jpg'
                """)
        ).compactMap(\.first)
        try #require(!files.isEmpty)
        for file in files { try FileManager.default.removeItem(atPath: file) }
        try FileManager.default.removeItem(atPath: xdg + "/thumbnails")
        // the next scan makes all of them again, each photo once.
        let again = try TesseraProcess.run(scan + ["--verbose"], environment: ["XDG_CACHE_HOME": xdg])
        #expect(again.stdout.contains("3 files: 3 unchanged (3 given new renditions)"), "\(again.stdout)")
        // (the desktop repair queues all three; the cache check's finds its photo queued already)
        #expect(
            again.stderr.contains("making them again (3 photos)") && !again.stderr.contains("rendering them again"),
            "\(again.stderr)")
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        let large = (try? FileManager.default.contentsOfDirectory(atPath: xdg + "/thumbnails/large")) ?? []
        #expect(large.count == 3, "\(large)")
    }

    /// A photo renamed after its desktop thumbnails were deleted gets them at its new name from the
    /// next scan, even when the cache's folders hold as many files as before (other programs'
    /// thumbnails took their places), so that nothing else tells the scan they are gone.
    @Test func aRenamedPhotoWhoseThumbnailsWereGoneGetsThemUnderItsNewName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (root, xdg, _, scan) = try Self.desktopLibrary(in: directory, count: 2)
        #expect(try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg]).status == 0)
        let cache = DesktopThumbnailCache(root: FilePath(xdg).appending("thumbnails"), sizes: [.large, .xLarge])
        // Given one photo's thumbnails replaced by another program's,
        let photo = FilePath(root + "/album0/p0.jpg")
        for size in [DesktopThumbnailCache.Size.large, .xLarge] {
            let path = cache.path(of: photo, size: size)
            try FileSystem.removeFile(path)
            try FileSystem.writeAtomically(
                Array("not ours".utf8),
                to: path.removingLastComponent().appending("0123456789abcdef0123456789abcdef.png"))
        }
        // Renames `photo` to `name` and scans: the move is recorded and GNOME's factory finds
        // thumbnails under the new name.
        func renameAndScan(_ photo: FilePath, to name: String) throws -> FilePath {
            let renamed = FilePath(root + "/album0/" + name)
            #expect(rename(photo.string, renamed.string) == 0)
            let result = try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg])
            #expect(result.stdout.contains("2 files: 1 unchanged, 1 moved\n"), "\(result.stdout)")
            let found = try Self.lookUp([renamed], cache: xdg)[renamed] ?? [:]
            #expect((found["large"] ?? nil) != nil && (found["x-large"] ?? nil) != nil, "\(found)")
            return renamed
        }
        // and the photo renamed, the next scan makes its thumbnails under the new name,
        let renamed = try renameAndScan(photo, to: "renamed.jpg")
        // and the one after reads nothing.
        let third = try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg])
        #expect(third.stdout.contains("2 files: 2 unchanged\n"), "\(third.stdout)")
        // Renamed again with its thumbnails deleted, no longer replaced (the cache's repair, which
        // now looks, finds the photo made already), it is made once, under the newest name.
        for size in [DesktopThumbnailCache.Size.large, .xLarge] {
            try FileSystem.removeFile(cache.path(of: renamed, size: size))
        }
        _ = try renameAndScan(renamed, to: "newest.jpg")
    }

    /// A photo moved after its desktop thumbnails were deleted, whose decode for them then fails
    /// (its bytes damaged in place, its size and time kept), is counted once as moved and once as
    /// read again with an error, and no count of the scan goes below zero.
    @Test func aMovedPhotoWhoseThumbnailsCannotBeMadeIsCountedWithoutNegatives() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (root, xdg, index, scan) = try Self.desktopLibrary(in: directory, count: 2)
        #expect(try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg]).status == 0)
        let cache = DesktopThumbnailCache(root: FilePath(xdg).appending("thumbnails"), sizes: [.large, .xLarge])
        let photo = FilePath(root + "/album0/p0.jpg")
        for size in [DesktopThumbnailCache.Size.large, .xLarge] {
            try FileSystem.removeFile(cache.path(of: photo, size: size))
        }
        let moved = root + "/album0/moved.jpg"
        #expect(rename(photo.string, moved) == 0)
        // Its first bytes overwritten, its modification time put back: the same file to the walk.
        var status = stat()
        #expect(stat(moved, &status) == 0)
        let handle = try #require(FileHandle(forWritingAtPath: moved))
        try handle.write(contentsOf: Data([0, 0]))
        try handle.close()
        var times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, moved, &times, 0) == 0)
        let result = try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg])
        #expect(result.stdout.contains("1 moved") && result.stdout.contains("1 could not be read"), "\(result.stdout)")
        let counts = try #require(
            SQLite.query(
                index,
                """
                SELECT found, new, changed, reread, unchanged, rerendered, moved, errors FROM scans ORDER BY id DESC LIMIT 1
                """)?.first)
        #expect(counts == ["2", "0", "0", "1", "1", "0", "1", "1"], "\(counts)")
    }

    @Test func thumbnailsThatCouldNotBeWrittenAreMadeByTheNextScan() throws {
        // Given a desktop cache that cannot be written on the first scan (a file where its
        // folder goes, as a read-only or broken cache fails),
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (root, xdg, _, scan) = try Self.desktopLibrary(in: directory, count: 4)
        try FileManager.default.createDirectory(atPath: xdg, withIntermediateDirectories: true)
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: xdg + "/thumbnails"))
        let first = try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg])
        #expect(first.status == 0 && first.stdout.contains("4 new"), "\(first.stdout) \(first.stderr)")
        // when the cache is fixed, the next scan makes the thumbnails,
        try FileManager.default.removeItem(atPath: xdg + "/thumbnails")
        let again = try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg])
        #expect(
            again.stdout.contains("4 files: 4 unchanged (4 given new renditions)"), "\(again.stdout) \(again.stderr)")
        let photos = (0..<4).map { FilePath(root + "/album\($0 % 3)/p\($0).jpg") }
        let found = try Self.lookUp(photos, cache: xdg)
        #expect(
            photos.allSatisfy {
                ((found[$0]?["large"] ?? nil) ?? nil) != nil && ((found[$0]?["x-large"] ?? nil) ?? nil) != nil
            },
            "\(found)")
        // and the one after opens none.
        let third = try TesseraProcess.run(scan, environment: ["XDG_CACHE_HOME": xdg])
        #expect(third.stdout.contains("4 files: 4 unchanged\n"), "\(third.stdout)")
    }
}
