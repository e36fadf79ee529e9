import Foundation
import Glibc
import Logging
import SystemPackage
import TesseraAnalysis
import TesseraConfiguration
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSamples
import TesseraScan
import TesseraSystem
import TesseraTestSupport

/// A photo library in a temporary directory, with an index and cache beside it.
struct ScanFixture {
    let directory: TemporaryDirectory
    var root: FilePath { FilePath(directory.path).appending("photos") }
    var configuration: Configuration

    init() throws {
        directory = try TemporaryDirectory("tessera-scan")
        configuration = Configuration(environment: ["HOME": directory.path])
        configuration.roots = [FilePath(directory.path).appending("photos")]
        configuration.index = FilePath(directory.path).appending("state/index.sqlite")
        configuration.cache = FilePath(directory.path).appending("cache")
        configuration.renditions = [.square(64), .square(128), .fit(96)]
        // The photos lie in this home: the desktop cache would be filled, and its sizes change
        // what a scan decodes. The CLI tests check it.
        configuration.desktopThumbnails = .off
        configuration.workers = 2
        configuration.timeZone = TimeZone(identifier: "UTC")
        try FileManager.default.createDirectory(atPath: root.string, withIntermediateDirectories: true)
    }

    /// Writes a JPEG at `relative` below the root; `date` becomes its DateTimeOriginal.
    @discardableResult
    func jpeg(_ relative: String, date: String? = nil, seed: Int = 0, orientation: Int? = nil) throws -> FilePath {
        var exif: ExifBuilder?
        if date != nil || orientation != nil {
            var builder = ExifBuilder()
            builder.dateTimeOriginal = date.map { .init(dateTime: $0) }
            builder.orientation = orientation
            exif = builder
        }
        let bytes = try SampleImage.jpeg(SampleImage.pixels(width: 96, height: 64, seed: seed), exif: exif)
        return try write(bytes, to: relative)
    }

    @discardableResult
    func write(_ bytes: [UInt8], to relative: String) throws -> FilePath {
        let path = root.appending(relative)
        try FileSystem.writeAtomically(bytes, to: path)
        return path
    }

    /// Sets a file's mtime to `seconds` since the epoch.
    func setMtime(_ path: FilePath, _ seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        _ = path.withPlatformString { utimensat(AT_FDCWD, $0, &times, 0) }
    }

    /// Scans the library as `tessera scan` does: once the writer lock is free.
    ///
    /// The last scan gave the lock back, but a process spawned meanwhile by another test holds
    /// a copy of its descriptor, and so the lock, from its fork to its exec: `tessera scan`
    /// waits that out (`IndexLock.waitForTurn`), and so does this.
    func scan(
        full: Bool = false, analyses: [any PhotoAnalysis] = AnalysisStages.all, stop: StopFlag = StopFlag()
    ) throws -> ScanSummary {
        let index = try PhotoIndex(path: configuration.index)
        let lock = IndexLock(index: index.path)
        let deadline = ContinuousClock.now + .seconds(30)
        while let holder = try lock.acquire(role: .scan, socket: nil) {
            guard ContinuousClock.now < deadline else { throw ScanError(.busy, "\(index.path) is held by \(holder)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        defer { lock.release() }
        return try LibraryScanner(
            configuration: configuration, index: index, logger: Logger(label: "test"), lock: lock, analyses: analyses
        ).scan(full: full, stop: stop)
    }

    func photos(_ query: PhotoQuery = .init()) throws -> [PhotoRecord] {
        try PhotoIndex(path: configuration.index, readOnly: true).photos(query)
    }

    func remove() { directory.remove() }
}

extension PhotoRecord {
    /// The path of the square rendition of `size`, when there is one.
    func thumbnail(_ size: Int) -> String? { rendition(.square(size))?.path }

    func rendition(_ spec: RenditionSpec) -> RenditionEntry? { renditions.first { $0.spec == spec } }
}

extension FilePath {
    /// The inode of the file here, to tell a re-rendered thumbnail from a kept one.
    var inode: UInt64? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: string)
        return (attributes?[.systemFileNumber] as? NSNumber)?.uint64Value
    }

    var exists: Bool { inode != nil }
}
