import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// `tessera list --duplicates` on real photos and copies made of them here: every copy is
/// grouped with its original, no two distinct photos are, and a burst's frames are not copies.
@Suite(
    .enabled(if: Corpus.isAvailable, Corpus.missingNote),
    .enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed"))
struct DuplicateScanTests {
    /// Distinct photos, among them two dark frames with a bright middle (a sunset and the moon)
    /// whose perceptual hashes are 8 bits apart.
    static let originals = [
        "camera/Apple iPhone 4.jpg", "camera/Olympus PEN E-P3.jpg", "camera/HTC Desire.jpg",
        "camera/FujiFilm FinePixS5500.jpg", "camera/Kodak PIXPRO FZ201.jpg",
    ]

    /// What `copies(of:into:)` makes.
    static let copyNames = [
        "exact.jpg", "quality-70.jpg", "half.jpg", "converted.webp", "converted.heic", "cropped.jpg", "turned.jpg",
    ]

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " "))")
    }

    /// The copies a library gathers of `original`, as other programs make them (without its
    /// metadata, as most converters and mail clients leave them).
    static func copies(of original: String, into folder: String) throws {
        try FileSystem.createDirectories(FilePath(folder))
        try FileManager.default.copyItem(atPath: original, toPath: folder + "/exact.jpg")
        // (copied later, as `cp` without `-p` does: the original is the earlier file)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: folder + "/exact.jpg")
        let ffmpeg = ["-v", "error", "-y", "-i", original]
        try VideoFixture.run(ffmpeg + ["-q:v", "9", folder + "/quality-70.jpg"])
        try VideoFixture.run(ffmpeg + ["-vf", "scale=iw/2:-2", "-q:v", "3", folder + "/half.jpg"])
        try VideoFixture.run(ffmpeg + ["-c:v", "libwebp", "-quality", "80", folder + "/converted.webp"])
        try VideoFixture.run(ffmpeg + [folder + "/lossless.png"])
        try run("heif-enc", ["-q", "60", "-o", folder + "/converted.heic", folder + "/lossless.png"])
        try FileManager.default.removeItem(atPath: folder + "/lossless.png")
        try VideoFixture.run(ffmpeg + ["-vf", "crop=iw*0.94:ih*0.94", "-q:v", "3", folder + "/cropped.jpg"])
        // The pixels turned a quarter counter-clockwise, the tag saying to turn them back.
        try VideoFixture.run(ffmpeg + ["-vf", "transpose=2", "-q:v", "3", folder + "/turned.jpg"])
        try run("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", folder + "/turned.jpg"])
    }

    @Test func copiesAreGroupedWithTheirOriginalAndNothingElse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        for (number, name) in Self.originals.enumerated() {
            let folder = root + "/\(number)"
            try FileSystem.createDirectories(FilePath(folder))
            try FileManager.default.copyItem(atPath: Corpus.path(name), toPath: folder + "/original.jpg")
            try Self.copies(of: folder + "/original.jpg", into: folder + "/copies")
        }
        // Two frames of a real video, written as a camera's burst, the first blurred.
        let burst = root + "/burst"
        try Self.burst(into: burst, frames: 2, sharp: 2)
        // The sharp frame sent on without its metadata, at half its size: a copy of one of the
        // frames (the bracket's are of the same scene too), never of two.
        try FileSystem.createDirectories(FilePath(root + "/sent"))
        try VideoFixture.run([
            "-v", "error", "-y", "-i", burst + "/frame2.jpg", "-vf", "scale=iw/2:-2", "-q:v", "3",
            root + "/sent/frame.jpg",
        ])
        // Three frames written as an exposure bracket: one camera, one second after another
        // (no fraction), exposure compensation 0, -2 and +2 EV, the frames brightened to match.
        let bracket = root + "/bracket"
        try FileSystem.createDirectories(FilePath(bracket))
        for (number, bias) in [0, -2, 2].enumerated() {
            let name = bracket + "/DSC_010\(number).jpg"
            try VideoFixture.run([
                "-v", "error", "-y", "-ss", "0.\(7 + number)", "-i", Corpus.path("media/videos/quicktime-hvc1.mov"),
                "-frames:v", "1", "-vf", "eq=brightness=\(Double(bias) / 10)", "-q:v", "2", name,
            ])
            try Self.run(
                "exiftool",
                [
                    "-q", "-overwrite_original", "-Make=Tessera", "-Model=Bracket",
                    "-DateTimeOriginal=2024:05:02 09:00:0\(number)", "-ExposureCompensation=\(bias)", name,
                ])
        }
        // A camera's RAW and the JPEG it made beside it.
        let pair = root + "/pair"
        try FileSystem.createDirectories(FilePath(pair))
        try FileManager.default.copyItem(
            atPath: Corpus.path("formats/raw/Canon-R6-pruned.CR3"), toPath: pair + "/DSC_0001.CR3")
        try VideoFixture.run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=600x400", "-frames:v", "1", pair + "/DSC_0001.JPG",
        ])
        // A RAW in one folder, and in another, under another name, the JPEG the same camera wrote
        // at the same instant (its metadata copied from the RAW).
        try FileSystem.createDirectories(FilePath(root + "/raw"))
        try FileManager.default.copyItem(
            atPath: Corpus.path("formats/raw/canon_eos_6d.dng"), toPath: root + "/raw/IMG_0001.DNG")
        try FileSystem.createDirectories(FilePath(root + "/exported"))
        try VideoFixture.run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "mandelbrot=s=640x480", "-frames:v", "1",
            root + "/exported/holiday.jpg",
        ])
        try Self.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-TagsFromFile", root + "/raw/IMG_0001.DNG", "-exif:all",
                root + "/exported/holiday.jpg",
            ])
        let scan = try TesseraProcess.run(["scan", root] + ScanCommandTests.store(directory))
        try #require(scan.status == 0, Comment(rawValue: scan.stderr))
        let listed = try TesseraProcess.run(["list", "--duplicates", "--json"] + ScanCommandTests.store(directory))
        try #require(listed.status == 0, Comment(rawValue: listed.stderr))
        let groups = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let members = groups.map { group in
            ((group["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        }
        // One group a photo, its original kept first, holding all its copies and nothing else.
        #expect(groups.count == Self.originals.count + 1, "\(members)")
        for number in Self.originals.indices {
            let folder = root + "/\(number)/"
            let group = try #require(members.first { $0.contains(folder + "original.jpg") }, "\(members)")
            #expect(
                Set(group) == Set([folder + "original.jpg"] + Self.copyNames.map { folder + "copies/" + $0 }),
                "\(number): \(group)")
            #expect(group.first == folder + "original.jpg", "\(number): \(group)")
        }
        let shots = members.filter { $0.contains { $0.contains("/burst/") || $0.contains("/bracket/") } }
        #expect(
            shots.count == 1 && shots[0].count == 2 && shots[0].last == root + "/sent/frame.jpg", "\(members)")
        let exact = groups.filter { $0["rule"] as? String == "same-bytes" }
        #expect(exact.isEmpty, "every group has a copy whose bytes differ")
        // Each photo's hashes are listed: the detail hash as its 32 bytes in hexadecimal.
        let details = groups.flatMap { ($0["files"] as? [[String: Any]]) ?? [] }.map { $0["detailHash"] as? String }
        #expect(details.allSatisfy { $0?.count == 64 && $0?.allSatisfy(\.isHexDigit) == true }, "\(details)")
        // `inspect` names the sunset's group of copies, as the index records it, and not the moon's.
        let inspect = try TesseraProcess.run(
            ["inspect", "--json", root + "/3/copies/half.jpg"] + ScanCommandTests.store(directory))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let copies = try #require(report["copies"] as? [String: Any], "\(inspect.stdout)")
        let named = ((copies["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        #expect(copies["rule"] as? String == "same-picture" && report["stack"] == nil, "\(copies)")
        let sunset = [root + "/3/original.jpg"] + Self.copyNames.map { root + "/3/copies/" + $0 }
        #expect(Set(named) == Set(sunset) && named.first == sunset[0], "\(named)")
        // `list` does not look for copies, so it does not say there are none.
        let listing = try TesseraProcess.run(["list", "--json"] + ScanCommandTests.store(directory))
        #expect(listing.status == 0 && !listing.stdout.contains("\"copies\""))
        // The burst's frames, the bracket and the RAW pairs are stacks: the sharpest frame, the
        // metered exposure and the JPEGs their faces.
        let stacked = try TesseraProcess.run(["list", "--stacks", "--json"] + ScanCommandTests.store(directory))
        let stacks = try #require(try JSONSerialization.jsonObject(with: Data(stacked.stdout.utf8)) as? [[String: Any]])
        let shown = stacks.map { stack in
            [stack["kind"] as? String ?? ""]
                + ((stack["files"] as? [[String: Any]]) ?? []).compactMap {
                    ($0["path"] as? String).map { ($0 as NSString).lastPathComponent }
                }
        }
        #expect(
            Set(shown) == [
                ["burst", "frame2.jpg", "frame1.jpg"], ["raw-pair", "DSC_0001.JPG", "DSC_0001.CR3"],
                ["bracket", "DSC_0100.jpg", "DSC_0101.jpg", "DSC_0102.jpg"],
                ["raw-pair", "holiday.jpg", "IMG_0001.DNG"],
            ],
            "\(shown)")
        // The text says which to keep and why.
        let text = try TesseraProcess.run(["list", "--duplicates"] + ScanCommandTests.store(directory))
        #expect(text.stdout.contains("6 groups of copies: 42 files") && text.stdout.contains("keep"), "\(text.stdout)")
        // Each frame was measured once, for its content: the sharp one the sharper.
        let measured = SQLite.query(
            directory.appending("index.sqlite"),
            "SELECT p.path_text, s.value FROM photos p JOIN sharpness s ON s.key = p.thumbnail_key ORDER BY p.path_text"
        )
        let values = (measured ?? []).map { (String($0[0].split(separator: "/").last ?? ""), Double($0[1]) ?? 0) }
        #expect(values.map(\.0) == ["frame1.jpg", "frame2.jpg"] && values[1].1 > values[0].1, "\(values)")
        // `explain` says why a burst's frame is not a copy of its neighbour, and why a copy is one.
        let frame = try Self.explained(burst + "/frame2.jpg", directory)
        #expect(frame["stack"]?.value?.hasPrefix("burst of 2 files") == true, "\(frame)")
        let neighbour = frame["copies"]?.candidates.first { $0.source == burst + "/frame1.jpg" }
        #expect(neighbour?.outcome.hasPrefix("not a copy: different shots: taken at") == true, "\(frame)")
        let blurred = try Self.explained(burst + "/frame1.jpg", directory)
        let sent = blurred["copies"]?.candidates.first { $0.source == root + "/sent/frame.jpg" }
        #expect(
            sent?.outcome.hasPrefix("alike (same-picture): hashes") == true
                && sent?.outcome.hasSuffix(
                    "but grouped apart, as its group or this file's would then hold different "
                        + "shots or hashes more than 20 bits apart (details 100)") == true,
            "\(blurred)")
        let copy = try Self.explained(root + "/3/copies/half.jpg", directory)
        let original = copy["copies"]?.candidates.first { $0.source == root + "/3/original.jpg" }
        #expect(original?.outcome.hasPrefix("a copy (same-picture): hashes") == true, "\(copy)")
        #expect(copy["stack"]?.value == nil && copy["copies"]?.value?.contains("keep \(root)/3/original.jpg") == true)
    }

    /// Two different pictures alike in all that a 64-bit hash and the colours see are not copies.
    ///
    /// One photo's composition (its lowest frequencies) with its own fine structure, and the
    /// same composition with another photo's, both without metadata. A copy of the first is
    /// still its copy.
    @Test func picturesAlikeOnlyInCompositionAreNotCopies() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        try FileSystem.createDirectories(FilePath(root))
        func luma(_ name: String) throws -> [Double] {
            let raw = directory.appending("luma.gray")
            try VideoFixture.run([
                "-v", "error", "-y", "-i", Corpus.path(name), "-vf", "scale=32:32,format=gray", "-f", "rawvideo", raw,
            ])
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
            try #require(bytes.count == 32 * 32)
            return bytes.map(Double.init)
        }
        let composition = Self.dct(try luma(Self.originals[1]))
        let texture = Self.dct(try luma(Self.originals[2]))
        var mixed = composition
        for v in 0..<32 {
            for u in 0..<32 where u >= 8 || v >= 8 { mixed[v * 32 + u] = texture[v * 32 + u] }
        }
        for (name, coefficients) in [("first", composition), ("second", mixed)] {
            let pixels = Self.inverseDCT(coefficients).map { UInt8(clamping: Int($0.rounded())) }
            let pgm = directory.appending("\(name).pgm")
            try Data(Array("P5 32 32 255\n".utf8) + pixels).write(to: URL(fileURLWithPath: pgm))
            try VideoFixture.run([
                "-v", "error", "-y", "-i", pgm, "-vf", "scale=320:320:flags=bicubic", "-q:v", "2",
                root + "/\(name).jpg",
            ])
        }
        try VideoFixture.run([
            "-v", "error", "-y", "-i", root + "/first.jpg", "-vf", "scale=iw/2:-2", "-q:v", "9", root + "/copy.jpg",
        ])
        let store = ScanCommandTests.store(directory)
        let scan = try TesseraProcess.run(["scan", root] + store)
        try #require(scan.status == 0, Comment(rawValue: scan.stderr))
        let listed = try TesseraProcess.run(["list", "--duplicates", "--json"] + store)
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let members = groups.map { group in
            ((group["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }.sorted()
        }
        #expect(members == [[root + "/copy.jpg", root + "/first.jpg"]], "\(members)")
        let second = try Self.explained(root + "/second.jpg", directory)
        let first = second["copies"]?.candidates.first { $0.source == root + "/first.jpg" }
        let outcome = try #require(first?.outcome, "\(second)")
        // Alike in all but the details: hashes within the threshold, so only they part them.
        let distance = try #require(
            outcome.firstMatch(of: /not a copy: hashes (\d+) bits apart, but their details \d+ apart, beyond/)
                .flatMap { Int($0.1) }, "\(outcome)")
        #expect(distance <= 14)
    }

    /// The two-dimensional DCT-II of a 32 × 32 image, every frequency.
    static func dct(_ image: [Double]) -> [Double] {
        transform(image) { k, n in cos(Double.pi / 32 * Double(k) * (Double(n) + 0.5)) }
    }

    /// The image whose `dct` is `coefficients`.
    static func inverseDCT(_ coefficients: [Double]) -> [Double] {
        transform(coefficients) { n, k in (k == 0 ? 1 : 2) / 32 * cos(Double.pi / 32 * Double(k) * (Double(n) + 0.5)) }
    }

    /// `values` (32 × 32) with `weight(out, in)` applied along rows, then along columns.
    private static func transform(_ values: [Double], weight: (Int, Int) -> Double) -> [Double] {
        let matrix = (0..<32).map { out in (0..<32).map { weight(out, $0) } }
        var rows = [Double](repeating: 0, count: 1024)
        for y in 0..<32 {
            for out in 0..<32 { rows[y * 32 + out] = (0..<32).reduce(0) { $0 + matrix[out][$1] * values[y * 32 + $1] } }
        }
        var result = [Double](repeating: 0, count: 1024)
        for x in 0..<32 {
            for out in 0..<32 { result[out * 32 + x] = (0..<32).reduce(0) { $0 + matrix[out][$1] * rows[$1 * 32 + x] } }
        }
        return result
    }

    /// `tessera explain --json` of `file`, by fact.
    static func explained(_ file: String, _ directory: TemporaryDirectory) throws -> [String: Fact] {
        let result = try TesseraProcess.run(["explain", "--json", file] + ScanCommandTests.store(directory))
        try #require(result.status == 0, Comment(rawValue: result.stderr))
        let facts = try JSONDecoder().decode([Fact].self, from: Data(result.stdout.utf8))
        return Dictionary(facts.map { ($0.fact, $0) }, uniquingKeysWith: { first, _ in first })
    }

    struct Fact: Decodable {
        var fact: String
        var value: String?
        var candidates: [Candidate]

        struct Candidate: Decodable {
            var source: String
            var outcome: String
        }
    }

    /// A rescan that changes one file in more than 200 decides stacks and copies around it, by
    /// index lookups, and records what a decision over the whole library records: with a kept
    /// copy gone, a new copy come, a burst's frame gone.
    @Test func aRescanDecidesAroundWhatChangedAsOverTheWholeLibraryWould() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.appending("photos")
        // Distinct pictures (noise), two photos with their copies, and a burst of three frames.
        var random = SplitMix(seed: 50)
        for number in 0..<230 {
            let pixels = (0..<(32 * 24 * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            try FileSystem.writeAtomically(
                try SampleImage.jpeg(PixelBuffer(width: 32, height: 24, channels: 3, pixels: pixels)),
                to: FilePath(root + "/noise/\(number).jpg"))
        }
        for (number, name) in Self.originals.prefix(2).enumerated() {
            let folder = root + "/\(number)"
            try FileSystem.createDirectories(FilePath(folder))
            try FileManager.default.copyItem(atPath: Corpus.path(name), toPath: folder + "/original.jpg")
            try Self.copies(of: folder + "/original.jpg", into: folder + "/copies")
        }
        try Self.burst(into: root + "/burst", frames: 3)
        let store = ScanCommandTests.store(directory)
        try #require(try TesseraProcess.run(["scan", root] + store).status == 0)
        let changes: [(String, () throws -> Void)] = [
            ("the kept copy gone", { try FileManager.default.removeItem(atPath: root + "/0/original.jpg") }),
            (
                "a copy come",
                {
                    try FileSystem.createDirectories(FilePath(root + "/more"))
                    try FileManager.default.copyItem(atPath: root + "/1/original.jpg", toPath: root + "/more/again.jpg")
                }
            ),
            ("a frame gone", { try FileManager.default.removeItem(atPath: root + "/burst/frame2.jpg") }),
        ]
        for (change, make) in changes {
            try make()
            let scan = try TesseraProcess.run(["scan", "-v", root] + store)
            #expect(scan.status == 0 && scan.stderr.contains("decided again around"), "\(change): \(scan.stderr)")
            // The same index decided over the whole library, as after new rules.
            let whole = directory.appending("whole.sqlite")
            try? FileManager.default.removeItem(atPath: whole)
            #expect(SQLite.write(directory.appending("index.sqlite"), "VACUUM INTO '\(whole)'"))
            #expect(SQLite.write(whole, "DELETE FROM state WHERE key = 'group_rules'"))
            let again = try TesseraProcess.run(
                ["scan", "-v", root, "--index", whole, "--cache", directory.appending("cache")])
            #expect(again.stderr.contains("over the whole library"), "\(change): \(again.stderr)")
            for listing in ["--duplicates", "--stacks"] {
                let around = try TesseraProcess.run(["list", listing, "--json"] + store)
                let over = try TesseraProcess.run(
                    ["list", listing, "--json", "--index", whole, "--cache", directory.appending("cache")])
                #expect(around.status == 0 && around.stdout == over.stdout, "\(change) \(listing)")
            }
        }
        // What the changes left: the sunset's copies without it, the new copy with its original,
        // and the burst's two frames.
        let listed = try TesseraProcess.run(["list", "--duplicates"] + store)
        #expect(listed.stdout.contains("2 groups of copies: 16 files"), "\(listed.stdout)")
        let stacks = try TesseraProcess.run(["list", "--stacks"] + store)
        #expect(stacks.stdout.contains("1 stack: 2 files shown as 1"), "\(stacks.stdout)")
    }

    /// `frames` frames of a real video a tenth of a second apart, written as a camera's burst:
    /// one camera, one second, stepping fractions; all but frame `sharp` blurred, as a shaken
    /// hand blurs them.
    static func burst(into folder: String, frames: Int, sharp: Int = 1) throws {
        try FileSystem.createDirectories(FilePath(folder))
        for frame in 1...frames {
            try VideoFixture.run(
                [
                    "-v", "error", "-y", "-ss", "0.\(4 + frame)", "-i", Corpus.path("media/videos/quicktime-hvc1.mov"),
                    "-frames:v", "1", "-q:v", "2",
                ] + (frame == sharp ? [] : ["-vf", "boxblur=3"]) + [folder + "/frame\(frame).jpg"])
            try Self.run(
                "exiftool",
                [
                    "-q", "-overwrite_original", "-Make=Tessera", "-Model=Burst",
                    "-DateTimeOriginal=2024:05:01 10:00:00", "-SubSecTimeOriginal=\(frame)0",
                    folder + "/frame\(frame).jpg",
                ])
        }
    }
}

/// A library indexed before perceptual (or detail) hashes gets them from its renditions, not
/// its photos: the migration to schema 18 queues it for the picture-hashes analysis.
struct PerceptualHashUpgradeTests {
    /// Makes `index` what schema 16 was: no analyses' queue, no record of their versions.
    static func asSchema16(_ index: String) -> Bool {
        SQLite.write(
            index,
            """
            DROP TABLE analysis_queue; DELETE FROM grdb_migrations WHERE identifier = 'v18';
            DELETE FROM state WHERE key LIKE 'analysis:%'; PRAGMA user_version = 16;
            """)
    }

    @Test func aPhotoWithoutItsHashGetsItFromItsRenditionWithoutBeingDecodedAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 3, width: 800)
        let store = ScanCommandTests.store(directory)
        let index = directory.appending("index.sqlite")
        let scan = try TesseraProcess.run(["scan", photos] + store)
        try #require(scan.status == 0, Comment(rawValue: scan.stderr))
        let select = "SELECT path_text, phash, hex(phash_detail), status FROM photos ORDER BY path_text"
        let hashes = SQLite.query(index, select) ?? []
        try #require(hashes.count == 3 && hashes.allSatisfy { !$0[1].isEmpty && $0[2].count == 64 })
        // Given an index as schema 13 left it (the first photo) or schema 15 (the others), and
        // photos whose bytes are now unreadable behind the same size and mtime (decoding one
        // again would fail),
        #expect(SQLite.write(index, "UPDATE photos SET phash_detail = NULL"))
        #expect(SQLite.write(index, "UPDATE photos SET phash = NULL WHERE path_text = '\(hashes[0][0])'"))
        #expect(Self.asSchema16(index))
        for row in hashes {
            let saved = directory.appending("mtime")
            #expect(FileManager.default.createFile(atPath: saved, contents: nil))
            let size = try #require(try FileManager.default.attributesOfItem(atPath: row[0])[.size] as? Int)
            try Self.touch(["-r", row[0], saved])
            let handle = try #require(FileHandle(forWritingAtPath: row[0]))
            try handle.write(contentsOf: Data(count: size))
            try handle.close()
            try Self.touch(["-r", saved, row[0]])
        }
        // when it is scanned again, each photo has its hashes back (the same, or within a few
        // bits: they are made from a rendition) and is still read.
        let again = try TesseraProcess.run(["scan", photos] + store)
        #expect(again.status == 0, Comment(rawValue: again.stderr))
        let after = SQLite.query(index, select) ?? []
        #expect(after.map { $0[3] } == ["ok", "ok", "ok"], "\(after)")
        for (before, now) in zip(hashes, after) {
            let (a, b) = (UInt64(bitPattern: Int64(before[1]) ?? 0), UInt64(bitPattern: Int64(now[1]) ?? -1))
            #expect((a ^ b).nonzeroBitCount <= 4, "\(before) → \(now)")
            let details = [before[2], now[2]].map { DetailHash(bytes: Self.bytes(hex: $0)) }
            let distance = details[0].flatMap { a in details[1].map { a.distance(to: $0) } }
            #expect(distance.map { $0 <= 12 } == true, "\(before) → \(now): \(distance ?? -1)")
        }
    }

    /// A scan that reads every photo again (new metadata readers) takes the missing detail hashes
    /// from the renditions, as a scan of unchanged photos does, not by decoding each photo again.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func photosReadAgainGetTheirHashesFromTheirRenditions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = directory.appending("photos")
        for (number, name) in DuplicateScanTests.originals.enumerated() {
            try FileSystem.createDirectories(FilePath(photos))
            try FileManager.default.copyItem(atPath: Corpus.path(name), toPath: photos + "/\(number).jpg")
        }
        let (first, second) = (directory.appending("first.sqlite"), directory.appending("second.sqlite"))
        let cache = ["--cache", directory.appending("cache")]
        try #require(try TesseraProcess.run(["scan", photos, "--index", first] + cache).status == 0)
        let select = "SELECT path_text, hex(phash_detail) FROM photos ORDER BY path_text"
        let decoded = SQLite.query(first, select) ?? []
        // Two copies of the index, both without detail hashes; the second as older readers left it.
        #expect(SQLite.write(first, "VACUUM INTO '\(second)'"))
        for index in [first, second] {
            #expect(SQLite.write(index, "UPDATE photos SET phash_detail = NULL") && Self.asSchema16(index))
        }
        #expect(SQLite.write(second, "UPDATE state SET value = 'older' WHERE key = 'readers'"))
        var after: [[[String]]] = []
        for index in [first, second] {
            let scan = try TesseraProcess.run(["scan", "-v", photos, "--index", index] + cache)
            #expect(scan.status == 0, Comment(rawValue: scan.stderr))
            after.append(SQLite.query(index, select) ?? [])
        }
        #expect(after[1].count == decoded.count && after[1].allSatisfy { $0[1].count == 64 }, "\(after[1])")
        // The same as the renditions gave the unchanged photos' (which were not read at all), and
        // so not what decoding gives: some differ from that by a few bits.
        #expect(after[1] == after[0])
        #expect(after[0] != decoded, "the renditions give every photo's details exactly: this test tells nothing")
    }

    /// The bytes hexadecimal `text` spells; short when it is not.
    static func bytes(hex text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }

    static func touch(_ arguments: [String]) throws {
        let process = try Process.run(URL(fileURLWithPath: "/usr/bin/touch"), arguments: arguments)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }
}
