import Foundation
import Glibc
import Logging
import Synchronization
import SystemPackage
import TesseraConfiguration
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraScan

struct LibraryScannerTests {
    @Test func newestFirstAcrossEveryDateSource() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        // Given one photo per date source, each a month apart,
        try fixture.jpeg("exif.jpg", date: "2023:05:01 10:00:00")
        let png = try SampleImage.png(
            SampleImage.pixels(width: 40, height: 30),
            time: .init(year: 2023, month: 6, day: 1, hour: 10, minute: 0, second: 0))
        try fixture.write(png, to: "time.png")
        try fixture.jpeg("IMG_20230701_100000.jpg")
        let plain = try fixture.jpeg("plain.jpg")
        fixture.setMtime(plain, 1_690_884_000)  // 2023-08-01T10:00:00Z
        // when scanned,
        _ = try fixture.scan()
        // then the index lists them newest first, each with its date's source, and the photo
        // without a date after them all: undated, however new its mtime.
        let photos = try fixture.photos()
        #expect(
            photos.map { $0.path.lastComponent?.string } == [
                "IMG_20230701_100000.jpg", "time.png", "exif.jpg", "plain.jpg",
            ])
        #expect(photos.last?.capturedAt == nil && photos.last?.sortInstantMilliseconds == nil)
        #expect(photos.map(\.dateSource) == [.filename, .png, .exifOriginal, .undated])
        #expect(photos.allSatisfy { $0.renditions.count == 3 && $0.thumbhash?.isEmpty == false && $0.status == .ok })
    }

    @Test func rescanAfterTouchModifyDeleteAndRename() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let touched = try fixture.jpeg("a/touched.jpg", date: "2020:01:01 00:00:00", seed: 1)
        let modified = try fixture.jpeg("a/modified.jpg", date: "2020:01:02 00:00:00", seed: 2)
        let deleted = try fixture.jpeg("a/deleted.jpg", date: "2020:01:03 00:00:00", seed: 3)
        let renamed = try fixture.jpeg("a/renamed.jpg", date: "2020:01:04 00:00:00", seed: 4)
        try fixture.jpeg("a/same.jpg", date: "2020:01:05 00:00:00", seed: 5)
        let first = try fixture.scan()
        #expect(first.counts.new == 5)
        let before = Dictionary(uniqueKeysWithValues: try fixture.photos().map { ($0.path.string, $0) })
        func thumbnail(_ path: FilePath) -> FilePath? { before[path.string]?.thumbnail(64).map { FilePath($0) } }
        let touchedThumb = try #require(thumbnail(touched)), modifiedThumb = try #require(thumbnail(modified))
        let deletedThumb = try #require(thumbnail(deleted)), renamedThumb = try #require(thumbnail(renamed))
        let touchedInode = touchedThumb.inode

        // Given a touch, a modification, a deletion and a rename into another album,
        fixture.setMtime(touched, 1_700_000_000)
        try fixture.jpeg("a/modified.jpg", date: "2021:06:01 00:00:00", seed: 22)
        #expect(unlink(deleted.string) == 0)
        try FileManager.default.createDirectory(
            atPath: fixture.root.appending("b").string, withIntermediateDirectories: true)
        let newName = fixture.root.appending("b/moved.jpg")
        #expect(rename(renamed.string, newName.string) == 0)

        // when rescanned,
        let second = try fixture.scan()

        // then each change is counted once and nothing else is touched.
        #expect(second.counts.unchanged == 1)
        #expect(second.counts.changed == 2)
        #expect(second.counts.missing == 1 && second.counts.removed == 0)
        #expect(second.counts.moved == 1)
        #expect(second.counts.new == 0)
        let after = Dictionary(uniqueKeysWithValues: try fixture.photos().map { ($0.path.string, $0) })
        #expect(after.count == 4)
        // The deleted file is missing: hidden, its thumbnail kept for the grace period.
        #expect(after[deleted.string] == nil && deletedThumb.exists)
        // The touched file's content is unchanged: same thumbnail file, not rendered again.
        #expect(after[touched.string]?.thumbnail(64) == touchedThumb.string)
        #expect(touchedThumb.inode == touchedInode)
        // The modified file has a new thumbnail and its old one is gone.
        #expect(after[modified.string]?.capturedAt == "2021-06-01T00:00:00")
        #expect(after[modified.string]?.thumbnail(64) != modifiedThumb.string && !modifiedThumb.exists)
        // The renamed file kept its thumbnails and moved album.
        #expect(after[newName.string]?.thumbnail(64) == renamedThumb.string && renamedThumb.exists)
        #expect(after[newName.string]?.albumName == "b")
        #expect(after[renamed.string] == nil)

        // A third scan finds nothing to do.
        let third = try fixture.scan()
        #expect(third.counts.unchanged == 4 && third.counts.new + third.counts.changed + third.counts.missing == 0)
    }

    @Test func aDeletionIsFoundWhenAChangeBalancesItInTheCounts() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let kept = try fixture.jpeg("kept.jpg", seed: 1)
        let changed = try fixture.jpeg("changed.jpg", seed: 2)
        let deleted = try fixture.jpeg("deleted.jpg", seed: 3)
        _ = try fixture.scan()
        try fixture.jpeg("changed.jpg", seed: 22)
        try FileManager.default.removeItem(atPath: deleted.string)
        let summary = try fixture.scan()
        #expect(summary.counts.missing == 1 && summary.counts.changed == 1 && summary.counts.unchanged == 1)
        #expect(Set(try fixture.photos().map(\.path.string)) == [kept.string, changed.string])
    }

    @Test func copyAcrossFoldersThenDeleteKeepsTheThumbnailsAsAMove() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let original = try fixture.jpeg("old/photo.jpg", date: "2020:01:01 00:00:00")
        _ = try fixture.scan()
        let thumb = try #require(try fixture.photos().first?.thumbnail(128))
        let inode = FilePath(thumb).inode
        // A copy (new inode) and a deletion look like a move to another filesystem.
        try FileManager.default.createDirectory(
            atPath: fixture.root.appending("new").string, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: original.string, toPath: fixture.root.appending("new/photo.jpg").string)
        try FileManager.default.removeItem(atPath: original.string)
        let summary = try fixture.scan()
        #expect(summary.counts.moved == 1 && summary.counts.new == 0 && summary.counts.removed == 0)
        #expect(try fixture.photos().first?.thumbnail(128) == thumb)
        #expect(FilePath(thumb).inode == inode)
    }

    @Test func sizeChangesRenderOnlyWhatIsMissingOnAPlainScanAndDropWhatWent() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        // Given three photos scanned with a 64 square only,
        fixture.configuration.renditions = [.square(64)]
        for number in 0..<3 {
            try fixture.jpeg("a/p\(number).jpg", date: "2020:01:0\(number + 1) 00:00:00", seed: number)
        }
        _ = try fixture.scan()
        let squares = try fixture.photos().map { FilePath(try #require($0.thumbnail(64))) }
        let inodes = squares.map(\.inode)
        func files(_ kind: String) -> Set<String> {
            let base = fixture.configuration.cache.appending(kind).string
            let found = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
            return Set(found.filter { $0.hasSuffix(".jpg") })
        }

        // when a 96 fit is added and a plain scan runs,
        fixture.configuration.renditions = [.square(64), .fit(96)]
        let added = try fixture.scan()
        // then every photo gains the fit, made now, while its square file is the one it had.
        #expect(added.counts.unchanged == 3 && added.counts.rerendered == 3 && added.counts.changed == 0)
        var photos = try fixture.photos()
        #expect(photos.allSatisfy { $0.renditions.map(\.spec) == [.fit(96), .square(64)] })
        #expect(photos.allSatisfy { $0.rendition(.fit(96)).map { $0.width == 96 && $0.height == 64 } == true })
        #expect(squares.map(\.inode) == inodes)
        #expect(files("fit-96").count == 3)
        // The next plain scan has nothing left to make.
        #expect(try fixture.scan().counts.rerendered == 0)

        // When the square goes, its files go with it, and nothing is decoded to get there.
        fixture.configuration.renditions = [.fit(96)]
        let removed = try fixture.scan()
        #expect(removed.counts.unchanged == 3 && removed.counts.rerendered == 0)
        photos = try fixture.photos()
        #expect(photos.allSatisfy { $0.renditions.map(\.spec) == [.fit(96)] })
        #expect(squares.allSatisfy { !$0.exists })
        #expect(files("64").isEmpty)

        // When the quality changes, the pixels do: every rendition is made again under a new
        // key, and the old files go.
        let oldFits = Set(photos.compactMap { $0.rendition(.fit(96))?.path })
        fixture.configuration.rendering.quality = 60
        let requality = try fixture.scan()
        #expect(requality.counts.rerendered == 3)
        let newFits = Set(try fixture.photos().compactMap { $0.rendition(.fit(96))?.path })
        #expect(newFits.count == 3 && newFits.isDisjoint(with: oldFits))
        #expect(oldFits.allSatisfy { !FilePath($0).exists } && newFits.allSatisfy { FilePath($0).exists })
        #expect(files("fit-96").count == 3)
    }

    @Test func theIndexRecordsWhereEachRenditionCameFrom() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        fixture.configuration.renditions = [.square(64), .fit(96)]
        let image = SampleImage.pixels(width: 1600, height: 1200, seed: 7)
        let main = try SampleImage.jpeg(image)
        try fixture.write(
            MPF.jpeg(main, images: [(0x010001, try SampleImage.jpeg(SampleImage.pixels(width: 640, height: 480)))]),
            to: "mpf.jpg")
        try fixture.write(try SampleImage.jpeg(image, progressive: true), to: "progressive.jpg")
        try fixture.write(main, to: "baseline.jpg")
        _ = try fixture.scan()
        let sources = Dictionary(
            uniqueKeysWithValues: try fixture.photos().map {
                ($0.path.lastComponent?.string ?? "", Set($0.renditions.map(\.source)))
            })
        #expect(sources == ["mpf.jpg": [.mpfPreview], "progressive.jpg": [.dcScans], "baseline.jpg": [.decoded]])
        // Turning previews off makes the preview's photo again, and only it.
        fixture.configuration.rendering.embeddedPreviews = false
        let again = try fixture.scan()
        #expect(again.counts.rerendered == 1)
        #expect(try fixture.photos().allSatisfy { $0.renditions.allSatisfy { $0.source != .mpfPreview } })
    }

    /// The renderer takes a HEIF's thumbnail item as it takes a JPEG's preview: the setting that
    /// allows it is part of the key of those photos too.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func turningEmbeddedPreviewsOffRendersHEIFPhotosFromTheirPrimaryImage() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        fixture.configuration.renditions = [.square(64), .fit(96)]
        try FileManager.default.copyItem(
            atPath: Corpus.path("formats/heic/IMG_2682.heic"), toPath: fixture.root.appending("IMG_2682.HEIC").string)
        _ = try fixture.scan()
        #expect(try fixture.photos().first?.renditions.map(\.source) == [.heifThumbnail, .heifThumbnail])
        fixture.configuration.rendering.embeddedPreviews = false
        let again = try fixture.scan()
        #expect(again.counts.rerendered == 1)
        #expect(try fixture.photos().first?.renditions.map(\.source) == [.decoded, .decoded])
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func aPhoneAndCameraFolderIsIndexedWholeWithRawFilesPairedToTheirJPEGs() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        // Given a folder as a phone and a camera fill it: HEIC, AVIF, WebP, a RAW file and the
        // JPEG of the same shot,
        for (file, name) in [
            ("formats/heic/IMG_2682.heic", "IMG_2682.HEIC"), ("formats/avif/paris_icc_exif_xmp.avif", "paris.avif"),
            ("formats/webp/denali.webp", "denali.webp"), ("formats/raw/canon_eos_6d.dng", "IMG_0001.DNG"),
            ("camera/Canon EOS 7D.jpg", "IMG_0001.JPG"),
        ] {
            try FileManager.default.copyItem(atPath: Corpus.path(file), toPath: fixture.root.appending(name).string)
        }
        // when it is scanned,
        let summary = try fixture.scan()
        // then every file is a photo with renditions and its format,
        #expect(summary.counts.new == 5 && summary.counts.unsupported == 0 && summary.counts.errors == 0)
        let photos = try fixture.photos()
        #expect(Set(photos.map(\.format)) == [.heif, .avif, .webp, .raw, .jpeg])
        #expect(photos.allSatisfy { $0.renditions.count == 3 && $0.thumbhash != nil })
        // and the RAW file is paired with its JPEG.
        let pairs =
            SQLite.query(
                fixture.configuration.index.string,
                """
                SELECT r.path_text, o.path_text FROM photo_pairs p JOIN photos r ON r.id = p.raw_id JOIN photos o ON o.id = p.photo_id
                """) ?? []
        #expect(
            pairs.map { $0.map { String($0.split(separator: "/").last ?? "") } } == [["IMG_0001.DNG", "IMG_0001.JPG"]])
    }

    @Test func namesThatAreNotUTF8RoundTrip() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let name: [UInt8] = Array("caf".utf8) + [0xE9, 0xFF] + Array(".jpg".utf8)
        let path = FilePath(rawBytes: fixture.root.rawBytes + [UInt8(ascii: "/")] + name)
        try FileSystem.writeAtomically(
            SampleImage.jpeg(SampleImage.pixels(width: 32, height: 32), exif: nil), to: path)
        #expect(try fixture.scan().counts.new == 1)
        let photo = try #require(try fixture.photos().first)
        #expect(photo.pathBytes == path.rawBytes)
        #expect(try fixture.scan().counts.unchanged == 1)
    }

    @Test func symlinkLoopsEndAndLinksAreSkippedUnlessFollowed() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        try fixture.jpeg("a/one.jpg", date: "2020:01:01 00:00:00")
        #expect(symlink("..", fixture.root.appending("a/loop").string) == 0)
        #expect(symlink("a/one.jpg", fixture.root.appending("link.jpg").string) == 0)
        let unfollowed = try fixture.scan()
        #expect(unfollowed.counts.found == 1)
        fixture.configuration.followSymlinks = true
        let followed = try fixture.scan(full: true)
        // one.jpg and link.jpg (the link's own path); the loop back to the root is not re-entered.
        #expect(followed.counts.found == 2)
    }

    @Test func hiddenAndExcludedEntriesAreSkipped() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        fixture.configuration.exclude = ["@eaDir", "*.tmp.jpg", "private/*"]
        try fixture.jpeg("keep.jpg")
        try fixture.jpeg(".hidden.jpg")
        try fixture.jpeg(".trash/old.jpg")
        try fixture.jpeg("@eaDir/thumb.jpg")
        try fixture.jpeg("draft.tmp.jpg")
        try fixture.jpeg("private/secret.jpg")
        let summary = try fixture.scan()
        #expect(summary.counts.found == 1)
        #expect(try fixture.photos().map { $0.path.lastComponent?.string } == ["keep.jpg"])
    }

    @Test func theIndexAndTheCacheInsideARootAreNotIndexed() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        fixture.configuration.index = fixture.root.appending("tessera/index.sqlite")
        fixture.configuration.cache = fixture.root.appending("thumbnails")
        try fixture.jpeg("photo.jpg")
        _ = try fixture.scan()
        let second = try fixture.scan()
        // Only the photo: not its thumbnails, not the index file, its WAL or its shared memory.
        #expect(second.counts.found == 1 && second.counts.unchanged == 1)
        #expect(try fixture.photos().count == 1)
    }

    @Test func aMissingRootWithIndexedPhotosIsOfflineAndKept() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        try fixture.jpeg("photo.jpg")
        _ = try fixture.scan()
        let root = fixture.root
        try FileManager.default.moveItem(atPath: root.string, toPath: root.string + "-unmounted")
        let summary = try fixture.scan()
        #expect(summary.offline == [root.string] && summary.counts.missing + summary.counts.removed == 0)
        fixture.configuration.roots = [root]
        #expect(try fixture.photos().count == 1)
    }

    @Test func aMissingRootWithNothingIndexedStopsTheScan() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        try FileManager.default.removeItem(atPath: fixture.root.string)
        #expect(throws: ScanError.self) { try fixture.scan() }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func brokenCorpusIsRecordedWithReasons() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        fixture.configuration.roots = [FilePath(Corpus.path("broken"))]
        let summary = try fixture.scan()
        let errors = try fixture.photos(.init(kind: .errors))
        // The truncated JPEG decodes with a warning; the file without any image signature is
        // unsupported, like MANIFEST.tsv and SOURCES.md; the six others fail with a reason.
        #expect(summary.counts.errors == 6)
        #expect(summary.counts.unsupported == 3)
        #expect(errors.count == 6)
        #expect(errors.allSatisfy { ($0.error ?? "").count > 5 })
        #expect(errors.contains { $0.error?.contains("pixel limit") == true })
        let recovered = try fixture.photos()
        #expect(recovered.count == 1 && recovered.first?.status == .warning)
    }
}

extension LibraryScannerTests {
    @Test func aFileSwappedForAFIFOAfterTheWalkIsRecordedNotWaitedOn() throws {
        // Given a job for a regular file that has since been replaced by a FIFO,
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let path = try fixture.jpeg("a/swapped.jpg")
        let walked = try FileSystem.status(of: path)
        try FileManager.default.removeItem(atPath: path.string)
        #expect(mkfifo(path.string, 0o644) == 0)
        let index = try PhotoIndex(path: fixture.configuration.index)
        let scanner = LibraryScanner(configuration: fixture.configuration, index: index, logger: Logger(label: "test"))
        let job = LibraryScanner.Job(
            path: path, albumPath: path.removingLastComponent(), root: fixture.root,
            identity: FileIdentity(walked), change: .new)
        // when a worker takes it,
        let outcome = Mutex<LibraryScanner.Outcome?>(nil)
        let worker = Thread {
            let stage = RenderStage(
                scanner: scanner, renderer: Renderer(options: RenderOptions()),
                cache: RenditionCache(root: fixture.configuration.cache), full: false,
                tally: ScanTally(stop: StopFlag()))
            let result = stage.process(job)
            outcome.withLock { $0 = result }
        }
        worker.start()
        // then it answers at once, recording the file as not a photo, with why.
        #expect(Deadline.wait(seconds: 10) { outcome.withLock { $0 } != nil }, "the worker blocked on the FIFO")
        guard case .update(let update, _)? = outcome.withLock({ $0 }), case .unsupported(let reason) = update.content
        else {
            Issue.record("expected an unsupported record, got \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(reason.contains("not a regular file (a FIFO)"))
    }

    @Test func anotherTimeZoneResolvesTheDatesThatDependOnItAgainWithoutAFullScan() throws {
        var fixture = try ScanFixture()
        defer { fixture.remove() }
        try fixture.jpeg("clock.jpg", date: "2023:05:01 10:00:00", seed: 1)
        // A time stamp in a name is an instant, like a file's time: 2023-11-14T22:13:20Z.
        try fixture.jpeg("mmexport1700000000000.jpg", seed: 2)
        _ = try fixture.scan()
        func dates() throws -> [String: (clock: String?, offset: String?, instant: Int64?)] {
            Dictionary(
                uniqueKeysWithValues: try fixture.photos().map {
                    (AlbumName.file($0), ($0.capturedAt, $0.utcOffset, $0.sortInstantMilliseconds))
                })
        }
        #expect(try dates()["clock.jpg"]?.instant == 1_682_935_200_000)
        fixture.configuration.timeZone = TimeZone(identifier: "Asia/Tokyo")
        let summary = try fixture.scan()
        #expect(summary.counts.unchanged == 2 && summary.counts.rerendered == 0)
        let after = try dates()
        // The camera's clock stays as written; it was 10:00 in Tokyo, 01:00 UTC.
        #expect(after["clock.jpg"]?.clock == "2023-05-01T10:00:00" && after["clock.jpg"]?.offset == nil)
        #expect(after["clock.jpg"]?.instant == Int64(1_682_935_200_000 - 9 * 3_600_000))
        // The name's instant stays the same, shown on Tokyo's clock.
        let stamped = after["mmexport1700000000000.jpg"]
        #expect(stamped?.clock == "2023-11-15T07:13:20.000" && stamped?.offset == "+09:00")
        #expect(stamped?.instant == 1_700_000_000_000)
    }
}

/// A photo's file name, for tests that look photos up by it.
enum AlbumName {
    static func file(_ photo: PhotoRecord) -> String { photo.path.lastComponent?.string ?? "" }
}

extension LibraryScannerTests {
    /// An index written before libheif 1.19: iPhone 15 Pro HEICs recorded as errors, an HDR photo
    /// rendered without tone mapping.
    ///
    /// The first scan under the new decoders reads both again
    /// (once), though neither file changed; a scan under the same decoders leaves an error as it is.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func filesThatFailedUnderOlderDecodersAreReadAgainOnce() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        for file in ["media/live/IMG_3582.HEIC", "formats/heic/Canon.HIF"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))))
            _ = try fixture.write(bytes, to: String(file.split(separator: "/").last ?? ""))
        }
        let first = try fixture.scan()
        #expect(first.counts.errors == 0 && first.counts.new == 2)
        let index = fixture.configuration.index.string
        #expect(SQLite.query(index, "SELECT hdr FROM photos WHERE path_text LIKE '%Canon.HIF'")?.first == ["pq"])
        func recordAsOlderDecodersDid(decoders: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [
                index,
                """
                UPDATE photos SET status = 'error', error_code = 'corrupt', content_hash = NULL, thumbnail_key = NULL,
                    error = 'cannot read the HEIF file (Too many auxiliary image references)' WHERE path_text LIKE '%IMG_3582.HEIC';
                UPDATE photos SET thumbnail_key = 'narrowed', hdr = NULL WHERE path_text LIKE '%Canon.HIF';
                INSERT OR REPLACE INTO state VALUES ('decoders', '\(decoders)');
                """,
            ]
            _ = try? process.run()
            process.waitUntilExit()
        }
        func status(_ name: String) -> String? {
            SQLite.query(
                index, "SELECT status || ' ' || IFNULL(thumbnail_key, '-') FROM photos WHERE path_text LIKE '%\(name)'")?
                .first?.first
        }
        // Same decoders: an error stays recorded, as for any unchanged file.
        recordAsOlderDecodersDid(decoders: Renderer.decoders)
        _ = try fixture.scan()
        #expect(status("IMG_3582.HEIC") == "error -")
        // Older decoders: both are read again, and the next scan settles them.
        recordAsOlderDecodersDid(decoders: "1")
        _ = try fixture.scan()
        #expect(status("IMG_3582.HEIC")?.hasPrefix("ok ") == true)
        #expect(status("Canon.HIF")?.hasPrefix("ok ") == true && status("Canon.HIF") != "ok narrowed")
        #expect(SQLite.query(index, "SELECT hdr FROM photos WHERE path_text LIKE '%Canon.HIF'")?.first == ["pq"])
        let settled = try fixture.scan()
        #expect(settled.counts.unchanged == 2 && settled.counts.changed == 0)
    }
}

/// XMP sidecars are part of their photo: seen on the first scan, their edits and removal on
/// the next, without rendering pixels again unless the orientation changed.
struct SidecarScanTests {
    @Test func addingEditingAndDeletingASidecarUpdatesThePhotoRow() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        try fixture.jpeg("IMG_1.jpg", date: "2023:05:01 10:00:00")
        let sidecar = try fixture.write(SampleSidecar.xmp(rating: 3, keyword: "harbour"), to: "IMG_1.JPG.XMP")
        // An orphan sidecar is no item either.
        try fixture.write(SampleSidecar.xmp(rating: 1, keyword: "nothing"), to: "gone.xmp")
        _ = try fixture.scan()
        var photos = try fixture.photos()
        #expect(photos.count == 1)
        #expect(photos.first?.annotations.rating == 3 && photos.first?.annotations.keywords == ["harbour"])
        #expect(photos.first?.annotations.sidecar == "IMG_1.JPG.XMP")
        #expect(try fixture.photos(.init(kind: .unsupported)).isEmpty)
        let key = photos.first?.renditions.first?.path

        // An edit of the same size keeps the photo's mtime; the sidecar's own changes.
        try fixture.write(SampleSidecar.xmp(rating: 5, keyword: "sunset"), to: "IMG_1.JPG.XMP")
        fixture.setMtime(sidecar, 1_800_000_000)
        var summary = try fixture.scan()
        photos = try fixture.photos()
        #expect(photos.first?.annotations.rating == 5 && photos.first?.annotations.keywords == ["sunset"])
        #expect(summary.counts.changed == 1 && summary.counts.rerendered == 0)
        #expect(photos.first?.renditions.first?.path == key)
        #expect(try fixture.photos(.init(keyword: "SUNSET")).count == 1)
        #expect(try fixture.photos(.init(minimumRating: 5)).count == 1)

        // A rotation in the sidecar renders the photo again, turned.
        try fixture.write(SampleSidecar.xmp(rating: 5, keyword: "sunset", orientation: 6), to: "IMG_1.JPG.XMP")
        summary = try fixture.scan()
        photos = try fixture.photos()
        #expect(photos.first?.orientation == 6 && photos.first?.renditions.first?.path != key)

        // Without its sidecar, the photo keeps only what the file says.
        try FileSystem.removeFile(sidecar)
        summary = try fixture.scan()
        photos = try fixture.photos()
        #expect(photos.first?.annotations.rating == nil && photos.first?.annotations.sidecar == nil)
        #expect(photos.first?.orientation == 1)
        _ = summary
    }
}

extension SidecarScanTests {
    /// A sidecar too large to be XMP (a sparse 9 MiB file) is named in a warning, and the photo
    /// is not read again by every later scan for it.
    @Test func aSidecarTooLargeToReadIsAWarningAndNotReadAgainAndAgain() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        try fixture.jpeg("IMG_2.jpg", date: "2023:05:01 10:00:00")
        let sidecar = fixture.root.appending("IMG_2.xmp")
        let descriptor = open(sidecar.string, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0 && ftruncate(descriptor, 9 << 20) == 0)
        close(descriptor)
        _ = try fixture.scan()
        let photo = try #require(try fixture.photos().first)
        #expect(photo.warnings.contains { $0.contains("IMG_2.xmp") })
        let again = try fixture.scan()
        #expect(again.counts.unchanged == 1 && again.counts.changed == 0)
    }

    /// A FIFO with a sidecar's name is neither read (a read would wait for a writer forever)
    /// nor an item; its photo is indexed with what the file says.
    @Test func aFIFONamedLikeASidecarIsNeverWaitedOn() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        try fixture.jpeg("IMG_3.jpg", date: "2023:05:01 10:00:00")
        #expect(mkfifo(fixture.root.appending("IMG_3.jpg.xmp").string, 0o644) == 0)
        let done = Mutex<Result<ScanSummary, any Error>?>(nil)
        let scan = Thread { done.withLock { $0 = Result { try fixture.scan() } } }
        scan.start()
        #expect(Deadline.wait(seconds: 30) { done.withLock { $0 } != nil }, "the scan blocked on the FIFO")
        guard case .success? = done.withLock({ $0 }) else { return }
        let photos = try fixture.photos()
        #expect(photos.map(\.path.lastComponent?.string) == ["IMG_3.jpg"])
        #expect(photos.first?.annotations.sidecar == nil && photos.first?.annotations.rating == nil)
        #expect(try fixture.photos(.init(kind: .unsupported)).isEmpty)
    }
}
