import Foundation
import Glibc
import SystemPackage
import TesseraImage
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// Files that lie, damage, or are not files: each is refused or recorded on its own, within
/// the memory budget, and nothing it does reaches the next file.
struct HostileFileTests {
    /// A JPEG's bytes with the main image's frame header claiming `width`×`height`.
    static func withFrameSize(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        var offset = 2
        // Walk the marker segments to the frame header (SOF0…SOF15 but DHT, JPG and DAC).
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                bytes[offset + 5] = UInt8(height >> 8)
                bytes[offset + 6] = UInt8(height & 0xFF)
                bytes[offset + 7] = UInt8(width >> 8)
                bytes[offset + 8] = UInt8(width & 0xFF)
                return bytes
            }
            offset += 2 + length
        }
        return bytes
    }

    /// Damaged variants of `base`: cut short, bytes flipped, lengths and sizes that lie.
    static func mutants(of base: [UInt8], count: Int, random: inout SplitMix) -> [[UInt8]] {
        (0..<count).map { number in
            var bytes = base
            func position() -> Int { Int(random.next() % UInt64(max(1, bytes.count))) }
            switch number % 6 {
            case 0: bytes = Array(bytes.prefix(position()))
            case 1:
                for _ in 0..<(1 + random.next() % 8) { bytes[position()] = UInt8(truncatingIfNeeded: random.next()) }
            case 2: bytes = withFrameSize(bytes, width: 65_535, height: 1 + Int(random.next() % 3))
            case 3:
                bytes = withFrameSize(bytes, width: Int(random.next() % 65_536), height: Int(random.next() % 65_536))
            case 4:
                let at = position()
                bytes.insert(
                    contentsOf: [0xFF, 0xD8, 0xFF, 0xFF, 0xFF, UInt8(truncatingIfNeeded: random.next())], at: at)
            default:
                for _ in 0..<4 where bytes.count > 8 {
                    let at = position()
                    bytes.replaceSubrange(at..<min(bytes.count, at + 2), with: [0xFF, 0xFF])
                }
            }
            return bytes
        }
    }

    @Test func oddFilesNeverPoisonThePhotosAfterThem() throws {
        // Given real photos behind, between and after thousands of damaged files, and a JPEG
        // whose frame claims 65,535×1 first of all,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = FilePath(directory.appending("photos"))
        var real: [FilePath] = []
        var bases: [[UInt8]] = []
        for seed in 0..<12 {
            let image = SampleImage.pixels(width: 96 + seed * 7, height: 64 + seed * 3, seed: seed)
            let jpeg = try SampleImage.jpeg(image, progressive: seed % 2 == 1)
            bases.append(jpeg)
            bases.append(try SampleImage.png(image))
            for folder in ["b-real", "c-mixed"] {
                let path = root.appending("\(folder)/real-\(seed).jpg")
                try FileSystem.writeAtomically(jpeg, to: path)
                real.append(path)
            }
        }
        if Corpus.isAvailable {
            for name in try FileManager.default.contentsOfDirectory(atPath: Corpus.path("camera"))
            where name.lowercased().hasSuffix(".jpg") {
                let path = root.appending("b-real/\(name)")
                try FileSystem.writeAtomically(
                    try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path("camera/\(name)")))), to: path)
                real.append(path)
            }
        } else {
            print("note: ../shared/corpus not found; the real camera photos are left out of this test")
        }
        try FileSystem.writeAtomically(
            Self.withFrameSize(bases[0], width: 65_535, height: 1), to: root.appending("a-mutants/0000-poison.jpg"))
        var random = SplitMix(seed: 11)
        var written = 0
        for (number, base) in bases.enumerated() {
            for (variant, bytes) in Self.mutants(of: base, count: 84, random: &random).enumerated() {
                let folder = written % 5 == 0 ? "c-mixed" : "a-mutants"
                try FileSystem.writeAtomically(
                    bytes,
                    to: root.appending("\(folder)/mutant-\(number)-\(variant).\(number % 2 == 0 ? "jpg" : "png")"))
                written += 1
            }
        }
        #expect(written >= 2000)
        // when one worker scans them all,
        let scan = try TesseraProcess.run(
            ["scan", root.string, "--workers", "1"] + ScanCommandTests.store(directory) + (try Self.noFaces(directory)))
        #expect(scan.status == 0, "\(scan.stderr)")
        // then every real photo is indexed with its thumbnail, exactly as it would be alone.
        let index = directory.appending("index.sqlite")
        for path in real {
            let quoted = path.string.replacingOccurrences(of: "'", with: "''")
            let row = SQLite.query(index, "SELECT status, error FROM photos WHERE path_text = '\(quoted)'")?.first
            #expect(row?.first == "ok" || row?.first == "warning", "\(path): \(row ?? [])")
        }
        #expect(
            SQLite.query(index, "SELECT error FROM photos WHERE path_text LIKE '%0000-poison.jpg'")?.first?.first?
                .contains("65500") == true)
    }

    /// Damaged variants for formats whose lengths are 32-bit fields (HEIF boxes, RIFF chunks,
    /// TIFF and MPF offsets): cut short, bytes flipped, and lengths set to lies.
    static func fieldMutants(of base: [UInt8], count: Int, random: inout SplitMix) -> [[UInt8]] {
        (0..<count).map { number in
            var bytes = base
            func position() -> Int { Int(random.next() % UInt64(max(1, bytes.count - 4))) }
            switch number % 5 {
            case 0: bytes = Array(bytes.prefix(position()))
            case 1:
                for _ in 0..<(1 + random.next() % 8) { bytes[position()] = UInt8(truncatingIfNeeded: random.next()) }
            case 2:
                let at = position()
                bytes.replaceSubrange(at..<at + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
            case 3:
                // A plausible small length in a random place: boxes that overlap or run short.
                let at = position(), value = random.next() % 4096
                bytes.replaceSubrange(at..<at + 4, with: [0, 0, UInt8(value >> 8), UInt8(value & 0xFF)])
            default:
                let at = position()
                bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 64)], at: at)
            }
            return bytes
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func damagedHEIFWebPRAWAndMPFFilesAreRecordedNeverFatal() throws {
        // Given small real HEIF, AVIF, WebP, RAW and MPF files, and 60 damaged variants of each,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bases = [
            "formats/heic/orientation5.heic", "formats/heic/colors-with-alpha-thumbnail.heic",
            "formats/avif/kodim23_yuv420_8bpc.avif", "formats/avif/paris_icc_exif_xmp.avif",
            "formats/webp/hopper_orientation_6.webp", "formats/webp/lossy_alpha1.webp",
            "formats/webp/animated-loop-3.webp",
            "formats/webp/near_lossless_75.webp", "formats/raw/Panasonic.rw2", "formats/raw/FujiFilm.raf",
            "formats/raw/canon_eos_6d.dng", "formats/mpf/apple_gainmap_new.jpg",
        ]
        try Self.scanMutants(of: bases.map(Corpus.path), seed: 29, in: directory)
    }

    /// A configuration without faces: these scans are of the parsers and decoders (thousands of
    /// damaged files with one worker); the faces of what is decoded are the people tests'.
    static func noFaces(_ directory: TemporaryDirectory) throws -> [String] {
        let config = directory.appending("no-faces.yaml")
        try FileSystem.writeAtomically(Array("faces: false\n".utf8), to: FilePath(config))
        return ["--config", config]
    }

    /// Writes each of `bases` and 60 damaged variants of it below `directory/photos`, scans them
    /// with one worker, and checks that the scan finishes, every file has its row, the real files
    /// are photos, every failure has a reason and the index is sound.
    static func scanMutants(of bases: [String], seed: UInt64, in directory: TemporaryDirectory) throws {
        let root = FilePath(directory.appending("photos"))
        var random = SplitMix(seed: seed)
        var written = 0
        for base in bases {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: base)))
            let name = (base as NSString).lastPathComponent
            try FileSystem.writeAtomically(bytes, to: root.appending("real/\(name)"))
            for (variant, mutant) in Self.fieldMutants(of: bytes, count: 60, random: &random).enumerated() {
                try FileSystem.writeAtomically(mutant, to: root.appending("mutants/\(variant)-\(name)"))
                written += 1
            }
        }
        let scan = try TesseraProcess.run(
            ["scan", root.string, "--workers", "1"] + ScanCommandTests.store(directory) + (try Self.noFaces(directory)))
        #expect(scan.status == 0, "\(scan.stderr)")
        let index = directory.appending("index.sqlite")
        #expect(SQLite.integer(index, "SELECT count(*) FROM photos") == written + bases.count)
        #expect(
            SQLite.integer(
                index, "SELECT count(*) FROM photos WHERE path_text LIKE '%/real/%' AND status IN ('ok', 'warning')")
                == bases.count)
        #expect(
            SQLite.integer(
                index,
                "SELECT count(*) FROM photos WHERE status IN ('error', 'unsupported') AND (error IS NULL OR error = '')"
            ) == 0)
        #expect(SQLite.query(index, "PRAGMA integrity_check")?.first?.first == "ok")
    }

    @Test func fifosAndDevicesAreRefusedWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.appending("IMG_0001.jpg")
        #expect(mkfifo(fifo, 0o644) == 0)
        let device = directory.appending("IMG_0002.jpg")
        #expect(symlink("/dev/zero", device) == 0)
        for (path, kind) in [(fifo, "a FIFO"), (device, "a character device")] {
            for command in [["inspect", path], ["thumb", path, "-o", directory.appending("out.jpg")]] {
                // A process that blocks is killed at the deadline and reports -9.
                let result = try TesseraProcess.start(command).wait(seconds: 10)
                #expect(result.status == 1, "\(command) did not end by itself")
                #expect((result.stdout + result.stderr).contains("not a regular file (\(kind))"), "\(result.stderr)")
            }
        }
    }

    /// Files that claim far more than they hold.
    static func liars(in directory: TemporaryDirectory) throws -> [(name: String, path: String)] {
        var files: [(String, String)] = []
        // A real JPEG followed by a 6 GiB hole.
        let sparse = directory.appending("sparse.jpg")
        try Data(try SampleImage.jpeg(SampleImage.pixels(width: 400, height: 300))).write(
            to: URL(fileURLWithPath: sparse))
        #expect(truncate(sparse, 6 << 30) == 0)
        files.append(("6 GiB sparse JPEG", sparse))
        // A 44 KB progressive JPEG whose frame claims 14142×14142 (200 MP, at the pixel limit).
        let progressive = try SampleImage.jpeg(SampleImage.pixels(width: 1200, height: 900, seed: 3), progressive: true)
        let claimed = directory.appending("claims-200mp.jpg")
        try Data(Self.withFrameSize(progressive, width: 14_142, height: 14_142).prefix(44_000)).write(
            to: URL(fileURLWithPath: claimed))
        files.append(("progressive JPEG claiming 14142²", claimed))
        // A 110-byte PNG whose zTXt chunk claims 1 GiB.
        var png = PNGHeader.signature
        png += PNGHeader.chunk(type: "IHDR", data: [0, 0, 0, 16, 0, 0, 0, 16, 8, 2, 0, 0, 0])
        var ztxt = PNGHeader.chunk(type: "zTXt", data: Array("Comment".utf8) + [0, 0, 0x78, 0x9C, 0x03, 0x00])
        ztxt.replaceSubrange(0..<4, with: [0x40, 0x00, 0x00, 0x00])
        png += ztxt + PNGHeader.chunk(type: "IEND", data: [])
        let text = directory.appending("ztxt-claims-1gib.png")
        try Data(png).write(to: URL(fileURLWithPath: text))
        files.append(("PNG with a zTXt chunk claiming 1 GiB", text))
        if Corpus.isAvailable {
            files.append(("40000² PNG bomb", Corpus.path("broken/bombs/bomb_40000x40000_rgb8_truncated.png")))
        }
        return files
    }

    @Test func filesThatLieAboutTheirSizeStayWithinTheMemoryBudget() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (name, path) in try Self.liars(in: directory) {
            let result = try TesseraProcess.measure(["thumb", path, "-o", directory.appending("out.jpg")])
            // Refused with a reason, never by a crash, and far below the budget of 256 MB.
            #expect(result.status == 1, "\(name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
            #expect(result.peakKiB < 256 * 1024, "\(name): peak \(result.peakKiB / 1024) MiB")
        }
    }

    @Test func controlCharactersInNamesCannotForgeOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = FilePath(directory.appending("photos"))
        let jpeg = try SampleImage.jpeg(SampleImage.pixels(width: 60, height: 40))
        let forged = "a\n2099-01-01T00:00:00  1×1  /forged.jpg"
        let escape = "b\u{1B}]0;owned\u{07}\u{1B}[2J.jpg"
        try FileSystem.writeAtomically(jpeg, to: root.appending(forged))
        try FileSystem.writeAtomically(jpeg, to: root.appending(escape))
        #expect(try TesseraProcess.run(["scan", root.string] + ScanCommandTests.store(directory)).status == 0)
        let list = try TesseraProcess.run(["list"] + ScanCommandTests.store(directory))
        #expect(list.stdout.split(separator: "\n").count == 2, "\(list.stdout)")
        #expect(!list.stdout.utf8.contains(0x1B) && !list.stdout.utf8.contains(0x07))
        #expect(list.stdout.contains("a\\n2099") && list.stdout.contains("b\\e]0;owned"))
        let inspect = try TesseraProcess.run(["inspect", root.appending(escape).string])
        #expect(!inspect.stdout.utf8.contains(0x1B), "\(inspect.stdout)")
    }
}
