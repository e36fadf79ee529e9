import Foundation
import SystemPackage
import TesseraImage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// `memory_limit` is a promise per worker: a one-worker scan of each format in the corpus
/// peaks (wait4's maximum resident set) no higher than a scan of one tiny photo plus the limit.
/// Photos that do not fit are refused with their reason; none is decoded past the budget.
struct MemoryBudgetTests {
    static let folders = [
        "formats/progressive", "formats/icc", "formats/mpf", "formats/webp", "formats/raw", "large", "camera", "pngsuite",
        "orientation",
    ]

    /// Peak RSS in MiB of `tessera scan folder --workers 1` under `limit`, in a fresh index and cache.
    static func peak(_ folder: String, limit: Int, in directory: TemporaryDirectory, run: Int) throws -> (MiB: Int, status: Int32, stderr: String) {
        let config = directory.appending("config-\(limit).yaml")
        try Data("memory_limit: \(limit)\n".utf8).write(to: URL(fileURLWithPath: config))
        let result = try TesseraProcess.measure([
            "scan", folder, "--workers", "1", "--config", config,
            "--index", directory.appending("index-\(run).sqlite"), "--cache", directory.appending("cache-\(run)"),
        ])
        return (result.peakKiB / 1024, result.status, result.stderr)
    }

    /// The peak of a scan of one tiny photo under `limit`: the process's own baseline.
    static func baseline(limit: Int, in directory: TemporaryDirectory) throws -> (MiB: Int, status: Int32, stderr: String) {
        let tiny = directory.appending("tiny")
        try FileSystem.writeAtomically(
            SampleImage.jpeg(SampleImage.pixels(width: 64, height: 48)), to: FilePath(tiny).appending("tiny.jpg"))
        let baseline = try peak(tiny, limit: limit, in: directory, run: 0)
        #expect(baseline.status == 0)
        return baseline
    }

    /// Every HEIF and AVIF file of the corpus on its own, under a small limit and the default:
    /// grids are decoded a tile at a time, other images whole when the budget allows.
    static let heifFiles = (Corpus.manifest(folder: "formats") + Corpus.manifest(folder: "media"))
        .filter { ["HEIF", "AVIF"].contains($0["format"] ?? "") }.map(\.file)

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote), arguments: [64, 192])
    func eachHEIFAndAVIFStaysWithinTheMemoryLimit(limit: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let baseline = try Self.baseline(limit: limit, in: directory)
        #expect(Self.heifFiles.count > 20)
        var rendered = 0
        for (number, file) in Self.heifFiles.enumerated() {
            let folder = directory.appending("file-\(number)")
            try FileSystem.writeAtomically(
                [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path(file)))),
                to: FilePath(folder).appending(String(file.split(separator: "/").last ?? "")))
            let scan = try Self.peak(folder, limit: limit, in: directory, run: number + 1)
            #expect(scan.status == 0, "\(file): \(scan.stderr)")
            #expect(scan.MiB - baseline.MiB <= limit,
                    "\(file) under memory_limit \(limit): peak \(scan.MiB) MiB, \(scan.MiB - baseline.MiB) above a one-photo scan")
            let index = directory.appending("index-\(number + 1).sqlite")
            rendered += SQLite.integer(index, "SELECT count(*) FROM photos WHERE status IN ('ok', 'warning')") ?? 0
        }
        // Not a test that passes by refusing everything: under the default limit, all but the
        // broken files and the few too large for it render.
        if limit >= 192 {
            #expect(rendered * 5 >= Self.heifFiles.count * 4, "\(rendered) of \(Self.heifFiles.count) rendered under \(limit) MiB")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote), arguments: [32, 64])
    func eachFormatStaysWithinTheMemoryLimit(limit: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let baseline = try Self.baseline(limit: limit, in: directory)
        for (number, folder) in Self.folders.enumerated() {
            let scan = try Self.peak(Corpus.path(folder), limit: limit, in: directory, run: number + 1)
            #expect(scan.status == 0, "\(folder): \(scan.stderr)")
            #expect(scan.MiB - baseline.MiB <= limit,
                    "\(folder) under memory_limit \(limit): peak \(scan.MiB) MiB, \(scan.MiB - baseline.MiB) above a one-photo scan")
        }
    }
}
