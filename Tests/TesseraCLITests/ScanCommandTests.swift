import Foundation
import Glibc
import SystemPackage
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// `tessera scan` and `tessera list` as real processes.
struct ScanCommandTests {
    /// A library of `count` JPEGs below `directory/photos`, large enough that rendering takes a while.
    static func library(in directory: TemporaryDirectory, count: Int, width: Int = 1600) throws -> String {
        let root = directory.appending("photos")
        for index in 0..<count {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: String(format: "2022:03:%02d 12:00:00", 1 + index % 28))
            let bytes = try SampleImage.jpeg(
                SampleImage.pixels(width: width, height: width * 3 / 4, seed: index), exif: exif)
            try FileSystem.writeAtomically(bytes, to: FilePath(root).appending("album\(index % 3)/p\(index).jpg"))
        }
        return root
    }

    /// A JPEG of `width`×`width·3/4` with a DateTimeOriginal.
    static func jpeg(width: Int, seed: Int) throws -> [UInt8] {
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: String(format: "2022:04:%02d 12:00:00", 1 + seed % 28))
        return try SampleImage.jpeg(SampleImage.pixels(width: width, height: width * 3 / 4, seed: seed), exif: exif)
    }

    static func store(_ directory: TemporaryDirectory) -> [String] {
        ["--index", directory.appending("index.sqlite"), "--cache", directory.appending("cache")]
    }

    /// Thumbnail files in the cache (temporary files of interrupted writes excluded), with their inodes.
    static func thumbnails(_ directory: TemporaryDirectory) -> [String: UInt64] {
        let cache = directory.appending("cache")
        var found: [String: UInt64] = [:]
        let walker = FileManager.default.enumerator(atPath: cache)
        while let relative = walker?.nextObject() as? String {
            let path = cache + "/" + relative
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular,
                !(relative as NSString).lastPathComponent.hasPrefix(FileSystem.temporaryPrefix)
            else { continue }
            found[path] = (attributes?[.systemFileNumber] as? NSNumber)?.uint64Value
        }
        return found
    }

    @Test func killedAtAnyMomentLeavesAConsistentIndexAndTheNextScanFinishes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try Self.library(in: directory, count: 36)
        for rendered in [0, 4, 12, 24] {
            // Given a scan killed with SIGKILL once `rendered` thumbnails are in the cache,
            let scan = try TesseraProcess.start(["scan", root, "--workers", "2"] + Self.store(directory))
            #expect(Deadline.wait(seconds: 60) { Self.thumbnails(directory).count >= rendered || !scan.isRunning })
            kill(scan.pid, SIGKILL)
            _ = scan.wait()

            // then status tells the killed scan from a running one,
            if SQLite.integer(directory.appending("index.sqlite"), "SELECT count(*) FROM scans WHERE state = 'running'")
                == 1
            {
                let status = try TesseraProcess.run(
                    ["status", "--socket", directory.appending("none.sock")] + Self.store(directory))
                #expect(status.stdout.contains("last scan    interrupted"), "\(status.stdout)")
            }
            // the index is sound and every thumbnail in the cache is a whole JPEG,
            let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")))
            #expect(try index.integrityCheck() == "ok", "after \(rendered) thumbnails")
            let finished = Self.thumbnails(directory)
            for path in finished.keys {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                #expect(bytes.starts(with: [0xFF, 0xD8]) && bytes.suffix(2).elementsEqual([0xFF, 0xD9]), "\(path)")
            }
            // and the next scan completes without rendering the finished thumbnails again.
            let rescan = try TesseraProcess.run(["scan", root, "--json"] + Self.store(directory))
            #expect(rescan.status == 0, "\(rescan.stderr)")
            let after = Self.thumbnails(directory)
            #expect(after.count == 36 * 4, "four renditions by default")
            for (path, inode) in finished {
                #expect(after[path] == inode, "\(path) was rendered again")
            }
            let list = try TesseraProcess.run(["list", "--json"] + Self.store(directory))
            let photos = try #require(
                try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
            #expect(photos.count == 36)
            // Start the next round from nothing.
            try FileManager.default.removeItem(atPath: directory.appending("cache"))
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: directory.appending("index.sqlite" + suffix))
            }
        }
    }

    /// `tessera scan FOLDER` scans that folder only: the configuration's own roots, not walked,
    /// keep every photo (they are neither missing nor, days later, deleted).
    @Test func aFolderNamedOnTheCommandLineLeavesTheConfiguredRootsAsTheyAre() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configured = try Self.library(in: directory, count: 3, width: 200)
        let other = directory.appending("other")
        try FileSystem.writeAtomically(try Self.jpeg(width: 200, seed: 7), to: FilePath(other).appending("x.jpg"))
        let config = directory.appending("config.yaml")
        try FileSystem.writeAtomically(
            Array(
                "roots:\n  - \(configured)\nindex: \(directory.appending("index.sqlite"))\ncache: \(directory.appending("cache"))\n"
                    .utf8),
            to: FilePath(config))
        #expect(try TesseraProcess.run(["scan", "--config", config]).stdout.contains("3 new"))
        let scan = try TesseraProcess.run(["scan", "--config", config, other])
        #expect(scan.status == 0)
        #expect(scan.stdout.contains("1 new") && !scan.stdout.contains("missing"), "\(scan.stdout)")
        let list = try TesseraProcess.run(["list", "--json", "--config", config])
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(photos.count == 4)
        // The next scan of the configured roots finds theirs as they were; the folder outside them
        // is not in the library the configuration names, so its photo is hidden, as documented.
        let again = try TesseraProcess.run(["scan", "--config", config])
        #expect(again.stdout.contains("3 unchanged") && again.stdout.contains("1 missing"), "\(again.stdout)")
    }

    @Test func listJsonHasAlbumThumbnailsAndStatus() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try Self.library(in: directory, count: 4, width: 200)
        let scan = try TesseraProcess.run(["scan", root] + Self.store(directory))
        #expect(scan.status == 0)
        #expect(scan.stdout.contains("4 new"))
        let list = try TesseraProcess.run(
            ["list", "--json", "--album", "album1", "--limit", "5"] + Self.store(directory))
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(photos.count == 1)
        let photo = try #require(photos.first)
        #expect(photo["album"] as? String == "album1")
        #expect(photo["status"] as? String == "ok")
        let thumbnail = try #require((photo["thumbnails"] as? [String: String])?["256"])
        #expect(FileManager.default.fileExists(atPath: thumbnail))
        #expect(photo["capturedAt"] as? String == "2022-03-02T12:00:00")
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func listAndTheAlbumPagesSayEachPhotosFormat() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = directory.appending("photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for file in ["formats/heic/IMG_2682.heic", "formats/webp/denali.webp", "formats/raw/canon_eos_6d.dng"] {
            try FileManager.default.copyItem(
                atPath: Corpus.path(file), toPath: photos + "/" + (file as NSString).lastPathComponent)
        }
        #expect(try TesseraProcess.run(["scan", photos] + Self.store(directory)).status == 0)
        let list = try TesseraProcess.run(["list"] + Self.store(directory))
        let formats = list.stdout.split(separator: "\n").map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropLast().last.map(String.init) ?? ""
        }
        #expect(Set(formats) == ["heif", "webp", "raw"], "\(list.stdout)")
        let site = directory.appending("site")
        #expect(try TesseraProcess.run(["album", "build", "--out", site] + Self.store(directory)).status == 0)
        // The viewer's details say it, from the album's photos.js ("… px, HEIF").
        let scripts =
            FileManager.default.enumerator(atPath: site)?.compactMap { $0 as? String }.filter {
                $0.hasPrefix("albums/") && $0.hasSuffix("/photos.js")
            } ?? []
        let data = try scripts.map { try String(contentsOfFile: site + "/" + $0, encoding: .utf8) }.joined()
        #expect(!scripts.isEmpty && ["HEIF", "WEBP", "RAW"].allSatisfy { data.contains(", \($0)\"") }, "\(data)")
    }

    @Test func summariesCountWhatIsTrueNowAndTheirHintWorksWhenPasted() throws {
        // Given a library with a broken file, scanned once,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try Self.library(in: directory, count: 4, width: 120)
        try FileSystem.writeAtomically(
            Array(try Self.jpeg(width: 120, seed: 9).prefix(200)), to: FilePath(photos).appending("album0/broken.jpg"))
        let store = Self.store(directory)
        let first = try TesseraProcess.run(["scan", photos] + store)
        #expect(first.status == 0 && first.stdout.contains("5 files: 5 new, 1 could not be read\n"), "\(first.stdout)")
        // when nothing changes, the rescan still says the file cannot be read, and how to see why,
        let again = try TesseraProcess.run(["scan", photos] + store)
        #expect(again.stdout.contains("5 files: 5 unchanged\n"), "\(again.stdout)")
        let hint = try #require(
            again.stdout.split(separator: "\n").first { $0.hasPrefix("1 file cannot be read; which and why: ") })
        // in a command that works as printed (this binary, the same index),
        let words = hint.split(separator: ": ", maxSplits: 1)[1].split(separator: " ").map(String.init)
        #expect(
            words.first == TesseraProcess.executable.path && Array(words.dropFirst()) == ["list", "--errors"] + store,
            "\(hint)")
        let listed = try TesseraProcess.run(Array(words.dropFirst()))
        #expect(listed.status == 0 && listed.stdout.contains("broken.jpg"), "\(listed.stdout)")
        // --full reads every file again without calling it changed,
        let full = try TesseraProcess.run(["scan", "--full", photos] + store)
        #expect(full.stdout.contains("5 files: 5 read again as they were, 1 could not be read\n"), "\(full.stdout)")
        // and a file rewritten is changed.
        try FileSystem.writeAtomically(
            try Self.jpeg(width: 120, seed: 20), to: FilePath(photos).appending("album1/p1.jpg"))
        let changed = try TesseraProcess.run(["scan", photos] + store)
        #expect(changed.stdout.contains("5 files: 1 changed, 4 unchanged\n"), "\(changed.stdout)")
        let json = try JSONSerialization.jsonObject(
            with: Data(try TesseraProcess.run(["scan", "--json", photos] + store).stdout.utf8))
        #expect((json as? [String: Any])?["failing"] as? Int == 1, "\(json)")
    }

    @Test func statusWithoutADaemonSaysWhatTheIndexHolds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try Self.library(in: directory, count: 3, width: 120)
        #expect(try TesseraProcess.run(["scan", photos] + Self.store(directory)).status == 0)
        let socket = directory.appending("nobody.sock")
        let status = try TesseraProcess.run(["status", "--socket", socket] + Self.store(directory))
        #expect(status.status == 0)
        #expect(status.stdout.hasPrefix("No daemon: the index as the last scan left it\n"), "\(status.stdout)")
        #expect(status.stdout.contains("  daemon       no tessera daemon is running"), "\(status.stdout)")
        #expect(status.stdout.contains("library      3 photos in 3 albums; 0 files with errors"), "\(status.stdout)")
        #expect(status.stdout.contains("last scan    finished"), "\(status.stdout)")
        let json = try TesseraProcess.run(["status", "--json", "--socket", socket] + Self.store(directory))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "not-running" && object["photos"] as? Int == 3)
    }

    @Test func badConfigurationNamesTheKeyAndTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.appending("config.yaml")
        for (yaml, expected) in [
            ("thumbnail_sizes: [128]\n", "key 'thumbnail_sizes': unknown key"),
            ("workers: many\n", "key 'workers': must be a whole number, not \"many\""),
            ("thumbnails:\n  quality: 300\n", "key 'thumbnails.quality': must be between 1 and 100"),
            ("roots: [\n", "not valid YAML"),
        ] {
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: config))
            let result = try TesseraProcess.run(["scan", "--config", config] + Self.store(directory))
            #expect(result.status != 0)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(config) && result.stderr.contains(expected), "\(result.stderr)")
        }
    }

    @Test func missingRootIsAOneLineErrorAndANonZeroExit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.appending("nowhere")
        let result = try TesseraProcess.run(["scan", missing] + Self.store(directory))
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(missing))
    }

    @Test func unreadableDirectoryIsRecordedAndTheRestIsScanned() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try Self.library(in: directory, count: 3, width: 120)
        let locked = root + "/album1"
        #expect(chmod(locked, 0) == 0)
        defer { chmod(locked, 0o755) }
        // Root reads any directory, so the scan runs as an unprivileged user.
        if getuid() == 0 { chmod(directory.path, 0o777) }
        let scan = try TesseraProcess.runUnprivileged(["scan", root] + Self.store(directory))
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stderr.contains("album1") && scan.stderr.contains("cannot list"))
        // The summary says a folder could not be listed, not that a file could not be read.
        #expect(
            scan.stdout.contains(": 2 new, 1 could not be listed\n") && !scan.stdout.contains("cannot be read"),
            "\(scan.stdout)")
        let list = try TesseraProcess.run(["list", "--json"] + Self.store(directory))
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(photos.count == 2)
    }
}
