import Foundation
import Glibc
import SystemPackage
import TesseraSystem
import TesseraTestSupport
import Testing

/// Nothing a scan does not see is deleted at once: unmounted disks (real tmpfs mounts in a
/// mount namespace of the test's own), folders below a root on another disk, files gone from a
/// present root, roots reached through links or taken out of the configuration, sites built
/// inside a root.
struct OfflineRootTests {
    /// `select count(*)` of displayable or all rows, rendition rows, the files they name (rows of
    /// sizes a photo is too small for share one), and cache files.
    static let counts = """
        counts() {
          rows=$(sqlite3 "$INDEX" "select count(*) from photos")
          shown=$(sqlite3 "$INDEX" "select count(*) from photos where missing_since_ms is null")
          renditions=$(sqlite3 "$INDEX" "select count(*) from renditions")
          files=$(sqlite3 "$INDEX" "select count(distinct path) from renditions")
          cached=$(find "$CACHE" -type f ! -name '.tmp-*' | wc -l)
          echo "$1 rows=$rows shown=$shown renditions=$renditions files=$files cached=$cached site=$(find "$SITE" -type f | wc -l)"
        }

        """

    /// The `key=value` fields of the line of `output` that starts with `label`.
    static func fields(_ output: String, _ label: String) -> [String: Int] {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(label + " ") }) else { return [:] }
        var fields: [String: Int] = [:]
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=")
            if parts.count == 2 { fields[String(parts[0])] = Int(parts[1]) }
        }
        return fields
    }

    @Test func anUnmountedRootIsOfflineAndNothingOfItIsLost() throws {
        // Given a library on a disk of its own (a tmpfs mounted on the root), scanned, with a site,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try ScanCommandTests.library(in: directory, count: 24, width: 320)
        let root = directory.appending("disk")
        let script =
            Self.counts + """
                INDEX=$3 CACHE=$4 SITE=$5
                mkdir -p "$1"
                for cycle in 1 2 3; do
                  mount -t tmpfs disk "$1" || exit 90
                  cp -a "$2"/. "$1"/
                  "$T" scan "$1" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                  "$T" album build --out "$SITE" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                  counts mounted$cycle
                  # when the disk is unmounted, leaving its empty mount point, and the next scan and build run,
                  umount "$1"
                  "$T" scan "$1" --index "$INDEX" --cache "$CACHE" 2>&1; echo "status$cycle=$?"
                  "$T" album build --out "$SITE" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                  counts unmounted$cycle
                done
                """
        let result = try TesseraProcess.inMountNamespace(
            script,
            [
                root, library, directory.appending("index.sqlite"), directory.appending("cache"),
                directory.appending("site"),
            ])
        try #require(
            result.status != TesseraProcess.noNamespace,
            "cannot mount a tmpfs in a user namespace here: \(result.stderr)")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        // then every scan says the folder is offline, and no row, rendition or page is lost.
        let first = Self.fields(result.stdout, "mounted1")
        #expect(first["rows"] == 24 && first["renditions"] == 96 && first["cached"] == first["files"], "\(first)")
        for cycle in 1...3 {
            #expect(result.stdout.contains("status\(cycle)=0"), "\(result.stdout)")
            #expect(Self.fields(result.stdout, "mounted\(cycle)") == first, "\(result.stdout)")
            #expect(Self.fields(result.stdout, "unmounted\(cycle)") == first, "\(result.stdout)")
        }
        #expect(
            result.stdout.contains("Offline:    \(root), kept as it was") && !result.stdout.contains("missing"),
            "\(result.stdout)")
    }

    @Test func aDiskUnmountedBelowARootKeepsItsFilesAndTheRestIsScanned() throws {
        // Given a root with a second disk mounted on one of its folders, both scanned,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try ScanCommandTests.library(in: directory, count: 12, width: 320)
        let root = directory.appending("root")
        try FileManager.default.createDirectory(atPath: root + "/second", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: library + "/album0", toPath: root + "/album0")
        let script =
            Self.counts + """
                INDEX=$3 CACHE=$4 SITE=$4
                mount -t tmpfs second "$1/second" || exit 90
                cp -a "$2/album1" "$2/album2" "$1/second/"
                "$T" scan "$1" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                counts before
                # when the second disk is unmounted and a photo is deleted from the first,
                umount "$1/second"
                rm "$1/album0/p0.jpg"
                "$T" scan "$1" --index "$INDEX" --cache "$CACHE" 2>&1; echo "status=$?"
                counts after
                """
        let result = try TesseraProcess.inMountNamespace(
            script, [root, library, directory.appending("index.sqlite"), directory.appending("cache")])
        try #require(
            result.status != TesseraProcess.noNamespace,
            "cannot mount a tmpfs in a user namespace here: \(result.stderr)")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        // then the second disk's 8 photos are kept as offline, and the deleted one is missing, not removed.
        #expect(Self.fields(result.stdout, "before")["rows"] == 12, "\(result.stdout)")
        let after = Self.fields(result.stdout, "after")
        #expect(after["rows"] == 12 && after["shown"] == 11, "\(result.stdout)")
        #expect(after["renditions"] == 48 && after["cached"] == after["files"], "\(result.stdout)")
        #expect(result.stdout.contains("1 missing") && !result.stdout.contains("removed"), "\(result.stdout)")
        #expect(result.stdout.contains("\(root)/second: offline: 8 indexed files"), "\(result.stdout)")
        #expect(result.stdout.contains("status=0"), "\(result.stdout)")
    }

    @Test func aDiskBelowARootUnpluggedWhileTheWalkIsInsideItLosesNothing() throws {
        // Given a root with a local folder and a disk of 20 folders mounted below it, scanned,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let small = try ScanCommandTests.library(in: directory, count: 55, width: 320)
        let large = directory.appending("large")
        for index in 0..<30 {
            try FileSystem.writeAtomically(
                ScanCommandTests.jpeg(width: 2400, seed: index), to: FilePath(large).appending("new\(index).jpg"))
        }
        let root = directory.appending("root")
        try FileManager.default.createDirectory(atPath: root + "/ext", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: small + "/album0", toPath: root + "/local")
        let script =
            Self.counts + """
                INDEX=$3 CACHE=$4 SITE=$4
                mount -t tmpfs ext "$1/ext" || exit 90
                n=0
                for photo in "$2"/album1/*.jpg "$2"/album2/*.jpg; do
                  folder="$1/ext/f$(printf %02d $((n % 20)))"; mkdir -p "$folder"; cp "$photo" "$folder/"; n=$((n + 1))
                done
                "$T" scan "$1" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                counts before
                # when 30 large new photos in the disk's first folder hold the walk there while they render,
                cp "$5"/*.jpg "$1/ext/f00/"
                cached=$(find "$CACHE" -type f | wc -l)
                "$T" scan "$1" --workers 1 --index "$INDEX" --cache "$CACHE" > "$6" 2>&1 &
                scan=$!
                # and the disk is pulled out (a lazy unmount) once the first of them is rendered,
                until [ "$(find "$CACHE" -type f ! -name '.tmp-*' | wc -l)" -gt "$cached" ]; do
                  kill -0 $scan 2> /dev/null || { echo "the scan ended before rendering"; exit 1; }
                  sleep 0.01
                done
                umount -l "$1/ext"
                wait $scan; echo "status=$?"
                counts after
                """
        let log = directory.appending("scan.log")
        let result = try TesseraProcess.inMountNamespace(
            script, [root, small, directory.appending("index.sqlite"), directory.appending("cache"), large, log])
        try #require(
            result.status != TesseraProcess.noNamespace,
            "cannot mount a tmpfs in a user namespace here: \(result.stderr)")
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(result.status == 0, "\(result.stdout) \(result.stderr) \(output)")
        // then nothing indexed on the disk is missing or removed: what the walk did not reach is offline.
        let before = Self.fields(result.stdout, "before"), after = Self.fields(result.stdout, "after")
        #expect(before["rows"] == 55 && before["shown"] == 55, "\(result.stdout)")
        #expect(result.stdout.contains("status=0"), "\(result.stdout) \(output)")
        #expect((after["rows"] ?? 0) >= 55 && after["shown"] == after["rows"], "\(result.stdout) \(output)")
        #expect((after["renditions"] ?? 0) >= 55 * 4 && after["cached"] == after["files"], "\(result.stdout)")
        #expect(!output.contains("missing") && !output.contains("removed"), "\(output)")
        // (the walk had folders left to list when the disk went: the case is the one meant)
        #expect(output.contains("\(root)/ext: its disk went away during the scan"), "\(output)")
    }

    @Test func aRootLinkedIntoAnUnmountedDiskIsOfflineAndTheOtherRootsAreScanned() throws {
        // Given two configured roots: a link into a disk's folder, and a local folder, scanned,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try ScanCommandTests.library(in: directory, count: 9, width: 320)
        let config = directory.appending("config.yaml")
        let (disk, link, local) = (directory.appending("disk"), directory.appending("photolink"), library + "/album0")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: disk + "/photos")
        try Data("roots: [\"\(link)\", \"\(local)\"]\n".utf8).write(to: URL(fileURLWithPath: config))
        let script =
            Self.counts + """
                INDEX=$3 CACHE=$4 SITE=$4
                mount -t tmpfs disk "$1" || exit 90
                mkdir "$1/photos"; cp -a "$2/album1" "$2/album2" "$1/photos/"
                "$T" scan --config "$5" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                counts before
                # when the disk is unmounted (the link now leads nowhere) and the local folder gains a photo,
                umount "$1"
                cp "$2/album1/p1.jpg" "$2/album0/arrived.jpg"
                "$T" scan --config "$5" --index "$INDEX" --cache "$CACHE" 2>&1; echo "status=$?"
                counts after
                """
        let result = try TesseraProcess.inMountNamespace(
            script, [disk, library, directory.appending("index.sqlite"), directory.appending("cache"), config])
        try #require(
            result.status != TesseraProcess.noNamespace,
            "cannot mount a tmpfs in a user namespace here: \(result.stderr)")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        // then the scan succeeds, the new photo is indexed, and the disk's photos are kept, shown.
        #expect(result.stdout.contains("status=0") && result.stdout.contains("1 new"), "\(result.stdout)")
        #expect(result.stdout.contains("\(link) is a link to \(disk)/photos, which is not there"), "\(result.stdout)")
        #expect(Self.fields(result.stdout, "before")["rows"] == 9, "\(result.stdout)")
        let after = Self.fields(result.stdout, "after")
        #expect(after["rows"] == 10 && after["shown"] == 10 && after["renditions"] == 40, "\(result.stdout)")
    }

    @Test func filesWrittenIntoABareMountPointGoOutOfSightWhenTheDiskIsBack() throws {
        // Given a root on a disk of its own, scanned, then unmounted,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try ScanCommandTests.library(in: directory, count: 6, width: 320)
        let root = directory.appending("disk"), strays = directory.appending("strays")
        for number in 0..<2 {
            try FileSystem.writeAtomically(
                ScanCommandTests.jpeg(width: 320, seed: 100 + number),
                to: FilePath(strays).appending("stray\(number).jpg"))
        }
        let script =
            Self.counts + """
                INDEX=$3 CACHE=$4 SITE=$4
                mkdir -p "$1"
                mount -t tmpfs disk "$1" || exit 90
                cp -a "$2"/. "$1"/
                "$T" scan "$1" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                counts before
                umount "$1"
                # when two other photos are written into the bare mount point and scanned there,
                cp "$5"/*.jpg "$1/"
                "$T" scan "$1" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                counts strays
                # and the disk is mounted over them again,
                mount -t tmpfs disk "$1" || exit 90
                cp -a "$2"/. "$1"/
                "$T" scan "$1" --index "$INDEX" --cache "$CACHE" 2>&1; echo "status=$?"
                counts back
                """
        let result = try TesseraProcess.inMountNamespace(
            script, [root, library, directory.appending("index.sqlite"), directory.appending("cache"), strays])
        try #require(
            result.status != TesseraProcess.noNamespace,
            "cannot mount a tmpfs in a user namespace here: \(result.stderr)")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        // then the disk's photos are shown, the strays hidden (missing, not deleted), and nothing is offline.
        #expect(Self.fields(result.stdout, "strays")["shown"] == 8, "\(result.stdout)")
        let back = Self.fields(result.stdout, "back")
        #expect(back["rows"] == 8 && back["shown"] == 6, "\(result.stdout)")
        #expect(result.stdout.contains("2 missing") && !result.stdout.contains("offline"), "\(result.stdout)")
    }

    @Test func aDaemonStartedWhileADiskIsUnmountedNoticesItComingBack() throws {
        // Given a root with a disk mounted below it, scanned, and the disk unmounted,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try ScanCommandTests.library(in: directory, count: 9, width: 320)
        let root = directory.appending("root")
        try FileManager.default.createDirectory(atPath: root + "/ext", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: library + "/album0", toPath: root + "/album0")
        let config = directory.appending("config.yaml")
        try Data("album_dir: \"\(directory.appending("site"))\"\n".utf8).write(to: URL(fileURLWithPath: config))
        let script =
            Self.counts + """
                INDEX=$3 CACHE=$4 SITE=$5 LOG=$7
                scans() { sqlite3 "$INDEX" "select count(*) from scans where state = 'finished'"; }
                offline() { sqlite3 "$INDEX" "select coalesce(offline, '') from scans order by id desc limit 1"; }
                mount -t tmpfs ext "$1/ext" || exit 90
                cp -a "$2/album1" "$2/album2" "$1/ext/"
                "$T" scan "$1" --config "$6" --index "$INDEX" --cache "$CACHE" > /dev/null || exit 1
                umount "$1/ext"
                # when a daemon starts with the disk away, and the disk is mounted again,
                "$T" serve "$1" --config "$6" --socket "$8" --index "$INDEX" --cache "$CACHE" 2> "$LOG" &
                daemon=$!
                trap 'kill -TERM $daemon; wait $daemon' EXIT
                wait_for '[ "$(scans)" -ge 2 ] && [ -n "$(offline)" ]' || { echo "no offline scan"; exit 1; }
                echo "offline=$(offline)"
                mount -t tmpfs ext "$1/ext" || exit 90
                cp -a "$2/album1" "$2/album2" "$1/ext/"
                # then it rescans by itself and finds nothing offline.
                wait_for '[ "$(scans)" -ge 3 ] && [ -z "$(offline)" ]' || { echo "the disk's return was not noticed"; exit 1; }
                counts back
                """
        let result = try TesseraProcess.inMountNamespace(
            script,
            [
                root, library, directory.appending("index.sqlite"), directory.appending("cache"),
                directory.appending("site"), config, directory.appending("daemon.log"),
                directory.appending("control.sock"),
            ])
        try #require(
            result.status != TesseraProcess.noNamespace,
            "cannot mount a tmpfs in a user namespace here: \(result.stderr)")
        let log = (try? String(contentsOfFile: directory.appending("daemon.log"), encoding: .utf8)) ?? ""
        #expect(result.status == 0, "\(result.stdout) \(result.stderr) \(log)")
        #expect(result.stdout.contains("offline=\(root)/ext"), "\(result.stdout)")
        let back = Self.fields(result.stdout, "back")
        #expect(back["rows"] == 9 && back["shown"] == 9, "\(result.stdout)")
        #expect(log.contains("offline until now"), "\(log)")
    }

    @Test func filesGoneFromAPresentRootAreMissingUntilTheyComeBackOrArePruned() throws {
        // Given a scanned library,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 9, width: 320)
        let store = ScanCommandTests.store(directory)
        let index = directory.appending("index.sqlite")
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        // when three photos are deleted (one kept aside) and the library is scanned again,
        try FileManager.default.moveItem(atPath: photos + "/album0/p0.jpg", toPath: directory.appending("p0.jpg"))
        try FileManager.default.removeItem(atPath: photos + "/album1/p1.jpg")
        try FileManager.default.removeItem(atPath: photos + "/album2/p2.jpg")
        let scan = try TesseraProcess.run(["scan", photos] + store)
        // then they are missing: hidden from list, their rows and renditions kept,
        #expect(scan.stdout.contains("3 missing") && !scan.stdout.contains("removed"), "\(scan.stdout)")
        let listed = try TesseraProcess.run(["list", "--json"] + store)
        #expect(!listed.stdout.contains("p0.jpg") && listed.stdout.contains("p3.jpg"), "\(listed.stdout)")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos") == 9)
        for row in SQLite.query(index, "SELECT path FROM renditions") ?? [] {
            #expect(FileManager.default.fileExists(atPath: row[0]), "\(row[0])")
        }
        // a photo put back is simply there again,
        try FileManager.default.moveItem(atPath: directory.appending("p0.jpg"), toPath: photos + "/album0/p0.jpg")
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        #expect(try TesseraProcess.run(["list", "--json"] + store).stdout.contains("p0.jpg"))
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE missing_since_ms IS NOT NULL") == 2)
        // prune without --yes says what it would remove and removes nothing,
        let asked = try TesseraProcess.run(["prune"] + store)
        #expect(
            asked.status == 0 && asked.stdout.contains("p1.jpg") && asked.stdout.contains("2 files would be removed"),
            "\(asked.stdout)")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos") == 9)
        // and with --yes removes the rows and their rendition files.
        let missingRenditions =
            (SQLite.query(
                index,
                "SELECT r.path FROM renditions r JOIN photos p ON p.id = r.photo_id WHERE p.missing_since_ms IS NOT NULL"
            ) ?? [])
            .map { $0[0] }
        #expect(missingRenditions.count == 8)
        let pruned = try TesseraProcess.run(["prune", "--yes"] + store)
        #expect(pruned.status == 0 && pruned.stdout.contains("Removed 2 files"), "\(pruned.stdout) \(pruned.stderr)")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos") == 7)
        for path in missingRenditions { #expect(!FileManager.default.fileExists(atPath: path), "\(path)") }
    }

    @Test func missingFilesGoAfterTheGracePeriod() throws {
        // Given a library whose configuration keeps missing files 0 days,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 3, width: 320)
        let config = directory.appending("config.yaml")
        try Data("keep_missing_days: 0\n".utf8).write(to: URL(fileURLWithPath: config))
        let store = ScanCommandTests.store(directory) + ["--config", config]
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        // when a photo is deleted, the scan that finds it gone removes it at once.
        try FileManager.default.removeItem(atPath: photos + "/album1/p1.jpg")
        let scan = try TesseraProcess.run(["scan", photos] + store)
        #expect(scan.stdout.contains("1 missing, 1 removed"), "\(scan.stdout)")
        #expect(SQLite.integer(directory.appending("index.sqlite"), "SELECT count(*) FROM photos") == 2)
    }

    @Test func aRootReachedThroughALinkIsIndexedOnceAndOverlappingRootsAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 6, width: 320)
        let link = directory.appending("photolink")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "photos")
        let store = ScanCommandTests.store(directory)
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        // The same folder through a link: nothing new.
        let again = try TesseraProcess.run(["scan", link] + store)
        #expect(again.stdout.contains("6 files: 6 unchanged\n"), "\(again.stdout) \(again.stderr)")
        #expect(SQLite.integer(directory.appending("index.sqlite"), "SELECT count(*) FROM photos") == 6)
        // Both, or a folder and one inside it: refused before anything is written.
        for roots in [[photos, link], [photos, photos + "/album1"]] {
            let refused = try TesseraProcess.run(["scan"] + roots + store)
            #expect(refused.status == 1 && refused.stderr.contains("photo folders overlap"), "\(refused.stderr)")
        }
        #expect(SQLite.integer(directory.appending("index.sqlite"), "SELECT count(*) FROM scans") == 2)
    }

    @Test func aRootMovedAwayAndLinkedBackKeepsItsPhotosIds() throws {
        // Given a configured root, scanned,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 6, width: 320)
        let config = directory.appending("config.yaml")
        try Data("roots: [\"\(photos)\"]\n".utf8).write(to: URL(fileURLWithPath: config))
        let store = ScanCommandTests.store(directory) + ["--config", config]
        let index = directory.appending("index.sqlite")
        #expect(try TesseraProcess.run(["scan"] + store).status == 0)
        let ids = SQLite.query(index, "SELECT id FROM photos ORDER BY id") ?? []
        // when its folder is moved to another place on the disk and a link to it put where it was,
        try FileManager.default.createDirectory(atPath: directory.appending("disk"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: photos, toPath: directory.appending("disk/photos"))
        try FileManager.default.createSymbolicLink(
            atPath: photos, withDestinationPath: directory.appending("disk/photos"))
        let scan = try TesseraProcess.run(["scan"] + store)
        // then every photo is the same row, moved, none new or missing.
        #expect(scan.status == 0 && scan.stdout.contains("6 files: 6 moved\n"), "\(scan.stdout) \(scan.stderr)")
        #expect(SQLite.query(index, "SELECT id FROM photos WHERE missing_since_ms IS NULL ORDER BY id") ?? [] == ids)
    }

    @Test func aConfiguredRootRepointedToAnEmptyFolderIsOfflineAndRetiresNothing() throws {
        // Given a configured root that is a link to the photos, scanned,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 6, width: 320)
        let link = directory.appending("photolink")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photos)
        let config = directory.appending("config.yaml")
        try Data("roots: [\"\(link)\"]\n".utf8).write(to: URL(fileURLWithPath: config))
        let store = ScanCommandTests.store(directory) + ["--config", config]
        #expect(try TesseraProcess.run(["scan"] + store).status == 0)
        // when the link is pointed at an empty folder (a mount point with nothing mounted),
        try FileManager.default.createDirectory(atPath: directory.appending("empty"), withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.appending("empty"))
        let scan = try TesseraProcess.run(["scan"] + store)
        // then the empty folder is offline and the photos stay, shown.
        #expect(scan.status == 0 && scan.stdout.contains("kept as it was"), "\(scan.stdout) \(scan.stderr)")
        #expect(
            SQLite.integer(
                directory.appending("index.sqlite"), "SELECT count(*) FROM photos WHERE missing_since_ms IS NULL") == 6)
    }

    @Test func anAlbumSiteBuiltInsideARootIsNeverScanned() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 6, width: 320)
        let store = ScanCommandTests.store(directory)
        for _ in 1...3 {
            #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
            #expect(try TesseraProcess.run(["album", "build", "--out", photos + "/site"] + store).status == 0)
        }
        #expect(FileManager.default.fileExists(atPath: photos + "/site/index.html"))
        #expect(SQLite.integer(directory.appending("index.sqlite"), "SELECT count(*) FROM photos") == 6)
        #expect(SQLite.integer(directory.appending("index.sqlite"), "SELECT count(*) FROM albums") == 3)
    }

    @Test func aRootTakenOutOfTheConfigurationIsRetiredAndAnAbsentOneIsOffline() throws {
        // Given two configured roots, scanned,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 6, width: 320)
        let (first, second) = (photos + "/album0", photos + "/album1")
        let config = directory.appending("config.yaml")
        func configure(_ roots: [String]) throws {
            let list = roots.map { "\"\($0)\"" }.joined(separator: ", ")
            try Data("roots: [\(list)]\n".utf8).write(to: URL(fileURLWithPath: config))
        }
        try configure([first, second])
        let store = ScanCommandTests.store(directory) + ["--config", config]
        let index = directory.appending("index.sqlite")
        #expect(try TesseraProcess.run(["scan"] + store).status == 0)
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos") == 4)
        // when the second is renamed away (a disk not mounted) and the first gains a photo,
        try FileManager.default.moveItem(atPath: second, toPath: second + "-away")
        try FileManager.default.copyItem(atPath: photos + "/album2/p2.jpg", toPath: first + "/new.jpg")
        let offline = try TesseraProcess.run(["scan"] + store)
        // then the first is scanned and the second kept whole, offline;
        #expect(offline.status == 0 && offline.stdout.contains("1 new"), "\(offline.stdout) \(offline.stderr)")
        #expect(offline.stderr.contains("\(second): offline"), "\(offline.stderr)")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos WHERE missing_since_ms IS NULL") == 5)
        // when it is back but taken out of the configuration, its photos are retired and pruned.
        try FileManager.default.moveItem(atPath: second + "-away", toPath: second)
        try configure([first])
        let retired = try TesseraProcess.run(["scan"] + store)
        #expect(retired.stdout.contains("2 missing") && !retired.stdout.contains("removed"), "\(retired.stdout)")
        #expect(try !TesseraProcess.run(["list"] + store).stdout.contains("album1"))
        #expect(try TesseraProcess.run(["prune", "--yes"] + store).stdout.contains("Removed 2 files"))
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos") == 3)
    }

    @Test func theDaemonKeepsAnUnmountedRootAndItsSiteWholeAndCatchesUpWhenItIsBack() throws {
        // Given a daemon watching a root on a disk of its own and keeping an album site,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try ScanCommandTests.library(in: directory, count: 12, width: 320)
        let config = directory.appending("config.yaml")
        // (the photo that arrives is a copy of one there, which the site shows when asked to)
        try Data("watch: true\nalbum_show_copies: true\nalbum_dir: \"\(directory.appending("site"))\"\n".utf8).write(
            to: URL(fileURLWithPath: config))
        let script =
            Self.counts + """
                INDEX=$3 CACHE=$4 SITE=$5 LOG=$7
                pages() { grep -c "album pages:" "$LOG"; }
                arrived() { sqlite3 "$INDEX" "select count(*) from photos where path_text like '%/arrived.jpg'"; }
                mkdir -p "$1"
                mount -t tmpfs disk "$1" || exit 90
                cp -a "$2"/. "$1"/
                "$T" serve "$1" --config "$6" --socket "$8" --index "$INDEX" --cache "$CACHE" 2> "$LOG" &
                daemon=$!
                trap 'kill -TERM $daemon; wait $daemon' EXIT
                wait_for '[ "$(pages)" -ge 1 ]' || { echo "no site after the first scan"; exit 1; }
                counts before
                # when the disk is unmounted under it,
                umount "$1"
                wait_for '[ "$(pages)" -ge 2 ]' || { echo "no scan after the unmount"; exit 1; }
                counts unmounted
                # and mounted again with one photo more (staged in a hidden folder, then moved in),
                mount -t tmpfs disk "$1" || exit 90
                mkdir "$1/.staging"
                cp -a "$2"/. "$1/.staging/"
                cp "$2/album0/p0.jpg" "$1/.staging/album0/arrived.jpg"
                for folder in "$1/.staging"/*; do mv "$folder" "$1/"; done
                wait_for '[ "$(arrived)" -eq 1 ]' || { echo "the new photo was not indexed"; exit 1; }
                # (the build after that scan may be done already: wait for what it writes, not for its log line)
                wait_for 'grep -rqs arrived.jpg "$SITE"' || { echo "no site after the disk came back"; exit 1; }
                counts remounted
                echo "site-has-new=$(grep -rl arrived.jpg "$SITE" | wc -l)"
                """
        let result = try TesseraProcess.inMountNamespace(
            script,
            [
                directory.appending("disk"), library, directory.appending("index.sqlite"), directory.appending("cache"),
                directory.appending("site"), config, directory.appending("daemon.log"),
                directory.appending("control.sock"),
            ])
        try #require(
            result.status != TesseraProcess.noNamespace,
            "cannot mount a tmpfs in a user namespace here: \(result.stderr)")
        let log = (try? String(contentsOfFile: directory.appending("daemon.log"), encoding: .utf8)) ?? ""
        #expect(result.status == 0, "\(result.stdout) \(result.stderr) \(log)")
        // then while it is away nothing is lost, the site stays whole, and once back the new photo is there.
        let before = Self.fields(result.stdout, "before")
        #expect(before["rows"] == 12 && before["renditions"] == 48 && (before["site"] ?? 0) > 12, "\(result.stdout)")
        #expect(Self.fields(result.stdout, "unmounted") == before, "\(result.stdout) \(log)")
        let remounted = Self.fields(result.stdout, "remounted")
        #expect(
            remounted["rows"] == 13 && remounted["shown"] == 13 && remounted["renditions"] == 52, "\(result.stdout)")
        // (the new photo is a copy of one there: its renditions are that one's files)
        #expect((remounted["site"] ?? 0) >= (before["site"] ?? 0), "\(result.stdout)")
        #expect(!result.stdout.contains("site-has-new=0"), "\(result.stdout)")
        #expect(log.contains("offline") && log.contains("is back"), "\(log)")
    }
}
