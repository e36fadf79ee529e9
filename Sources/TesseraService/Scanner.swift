import Foundation
import Glibc
public import Logging
import Synchronization
public import SystemPackage
public import TesseraIndex
import TesseraImage
import TesseraMetadata

/// One scan of the photo roots into the index and the thumbnail cache.
///
/// The pipeline: the walker (on the calling thread) stats every entry and
/// compares it with the index, one query per directory; unchanged files stop
/// there. New and changed files go through a bounded queue to the render
/// workers, which read each file once (metadata, content hash, thumbnails);
/// their results go through a second bounded queue to one writer thread that
/// commits them in batches. After the walk, files that were not seen leave
/// the index, and thumbnails nothing refers to any more leave the cache.
/// Memory is bounded by the queue sizes and the workers' images, not by the
/// size of the library.
public final class Scanner: Sendable {
    public let configuration: Configuration
    public let index: PhotoIndex
    public let progress = ScanProgress()
    let logger: Logger

    /// Results per transaction, and the longest a result waits to be committed.
    static let batchSize = 256
    static let batchInterval: TimeInterval = 1

    public init(configuration: Configuration, index: PhotoIndex, logger: Logger) {
        self.configuration = configuration
        self.index = index
        self.logger = logger
    }

    /// A file the walker hands to the workers.
    struct Job: Sendable {
        var path: FilePath
        var albumPath: FilePath
        var root: FilePath
        var identity: FileIdentity
        var isNew: Bool
    }

    /// What the workers and the walker hand to the writer.
    enum Outcome: Sendable {
        case update(FileUpdate, isNew: Bool)
        case move(FileMove)
        /// Not recorded, so the next scan tries again (the cache could not be written).
        case retryLater(FilePath, reason: String)
    }

    /// Scans `roots` (default: the configured ones).
    ///
    /// - Parameter full: read and render every file again, even unchanged ones.
    /// - Throws: `ScanError` when the scan cannot run: a root is missing, the index
    ///   cannot be written. Files that fail are recorded in the index and counted.
    public func scan(roots requested: [FilePath]? = nil, full: Bool, stop: StopFlag) throws(ScanError) -> ScanSummary {
        let roots = try Self.resolve(requested ?? configuration.roots)
        let started = Date()
        progress.reset()
        let scan: (id: Int64, recovered: Bool)
        do {
            scan = try index.beginScan(roots: roots, full: full)
        } catch {
            throw ScanError("cannot write the index: \(error)")
        }
        if scan.recovered {
            logger.notice("the previous scan was interrupted; finishing its work")
            ThumbnailCache.removeTemporaryFiles(under: configuration.cache)
        }

        let tally = ScanTally()
        let jobs = BoundedQueue<Job>(capacity: configuration.workerCount * 4)
        let outcomes = BoundedQueue<Outcome>(capacity: Self.batchSize * 2)
        let cache = ThumbnailCache(root: configuration.cache)

        // Render workers.
        let workers = (0..<configuration.workerCount).map { _ in
            Self.thread { [self] in
                let thumbnailer: Thumbnailer
                do {
                    thumbnailer = try Thumbnailer(options: configuration.thumbnail)
                } catch {
                    tally.failure.withLock { $0 = $0 ?? "cannot start a render worker: \(error)" }
                    stop.stop()
                    return
                }
                while let job = jobs.pop() {
                    guard !stop.isSet else { continue }  // drain without starting new files
                    outcomes.push(process(job, thumbnailer: thumbnailer, cache: cache, full: full, scanID: scan.id))
                }
            }
        }
        // The writer: batches of outcomes, one transaction each.
        let writer = Self.thread { [self] in
            while true {
                let (batch, finished) = outcomes.popBatch(
                    limit: Self.batchSize, until: Date().addingTimeInterval(Self.batchInterval))
                if !batch.isEmpty {
                    do {
                        try commit(batch, scanID: scan.id, cache: cache, tally: tally)
                    } catch {
                        tally.failure.withLock { $0 = $0 ?? "cannot write the index: \(error)" }
                        stop.stop()
                    }
                }
                if finished { return }
            }
        }

        // The walk, on this thread.
        var seen = Bitset()
        var walkError: String?
        do throws(ScanError) {
            try walk(roots, full: full, stop: stop, seen: &seen, jobs: jobs, outcomes: outcomes, tally: tally, scanID: scan.id)
        } catch {
            walkError = error.description
            stop.stop()
        }
        progress.update { $0.phase = .rendering }
        jobs.close()
        for worker in workers { worker.wait() }
        outcomes.close()
        writer.wait()

        let completed = !stop.isSet
        if completed {
            progress.update { $0.phase = .cleaning }
            do {
                try removeVanished(under: roots, seen: seen, scanID: scan.id, cache: cache, tally: tally)
            } catch {
                tally.failure.withLock { $0 = $0 ?? "cannot write the index: \(error)" }
            }
        }
        let finalCounts = tally.counts.withLock { $0 }
        let state = tally.failure.withLock({ $0 }) != nil || walkError != nil ? "failed" : completed ? "finished" : "interrupted"
        let c = finalCounts
        let changedAnything = c.new + c.changed + c.moved + c.removed + c.unsupported + c.errors > 0 || full || scan.recovered
        do {
            if changedAnything { try index.refreshAlbums() }
            try index.finishScan(id: scan.id, counts: finalCounts, state: state)
        } catch {
            tally.failure.withLock { $0 = $0 ?? "cannot write the index: \(error)" }
        }
        progress.update { $0.phase = .finished }
        if let message = walkError ?? tally.failure.withLock({ $0 }) {
            throw ScanError(message)
        }
        return ScanSummary(scanID: scan.id, state: state, counts: finalCounts, elapsed: Date().timeIntervalSince(started))
    }

    /// Absolute, existing, readable directories; a missing root stops the scan before anything is removed.
    static func resolve(_ roots: [FilePath]) throws(ScanError) -> [FilePath] {
        guard !roots.isEmpty else { throw ScanError("no photo folder to scan: give one or set 'roots'") }
        let cwd = FilePath(FileManager.default.currentDirectoryPath)
        return try roots.map { (root) throws(ScanError) -> FilePath in
            let absolute = (root.isAbsolute ? root : cwd.pushing(root)).lexicallyNormalized()
            var info = stat()
            guard absolute.withPlatformString({ stat($0, &info) }) == 0 else {
                throw ScanError("\(root): cannot open the photo folder: \(Errno(rawValue: errno))")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else { throw ScanError("\(root): not a directory") }
            guard absolute.withPlatformString({ access($0, R_OK | X_OK) }) == 0 else {
                throw ScanError("\(root): cannot read the photo folder: \(Errno(rawValue: errno))")
            }
            return absolute
        }
    }

    /// Runs `body` on a new thread; `wait()` joins it.
    static func thread(_ body: @escaping @Sendable () -> Void) -> Joinable {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        return Joinable(semaphore: done)
    }

    struct Joinable {
        let semaphore: DispatchSemaphore
        func wait() { semaphore.wait() }
    }
}

/// What the threads of one scan add up, and the first failure that stops it.
final class ScanTally: Sendable {
    let counts = Mutex(ScanCounts())
    let failure = Mutex<String?>(nil)
    /// Indexed files kept without being seen: below directories the walk could not read.
    let kept = Mutex(0)
}

/// A growable set of row ids.
struct Bitset {
    private var words: [UInt64] = []

    mutating func insert(_ id: Int64) {
        guard id >= 0 else { return }
        let word = Int(id / 64)
        if word >= words.count { words += [UInt64](repeating: 0, count: word - words.count + 1) }
        words[word] |= 1 << UInt64(id % 64)
    }

    func contains(_ id: Int64) -> Bool {
        guard id >= 0, Int(id / 64) < words.count else { return false }
        return words[Int(id / 64)] & (1 << UInt64(id % 64)) != 0
    }
}
