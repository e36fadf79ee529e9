public import Foundation
public import Logging
import Synchronization
public import SystemPackage
public import TesseraConfiguration
import TesseraDesktop
import TesseraImage
public import TesseraIndex
import TesseraMetadata
import TesseraSystem

/// One scan of the photo roots into the index and the rendition cache.
///
/// The pipeline: the walker (on the calling thread) stats every entry and
/// compares it with the index, one query per directory; unchanged files stop
/// there. New and changed files go through a bounded queue to the render
/// workers, which read each file as a stream (metadata, content hash,
/// renditions); their results go through a second bounded queue to one writer
/// thread that commits them in batches. After the walk, files that were not
/// seen leave the index, and renditions nothing refers to any more leave the
/// cache. Unchanged photos whose renditions do not match the configured sizes and
/// settings go to the workers too, for what they lack. Memory is bounded by the queue sizes and the workers' budgets, not
/// by the size of the library or of any file.
///
/// A root that disappears during the scan (an unmounted disk, an unplugged
/// drive) makes the scan `interrupted`: nothing is removed, and files that
/// vanished with it are not recorded as errors.
public final class LibraryScanner: Sendable {
    public let configuration: Configuration
    public let index: any PhotoStore
    public let progress: ScanProgress
    /// The index's writer lock; `scan` takes it (and keeps it) or refuses to run.
    public let lock: IndexLock
    let role: IndexLock.Role
    let logger: Logger
    /// The freedesktop thumbnail cache the scan fills too, when the configuration says to.
    let desktop: DesktopThumbnailCache?
    let now: @Sendable () -> Date

    /// Results per transaction, and the longest a result waits to be committed.
    static let batchSize = 256
    static let batchInterval: Duration = .seconds(1)

    /// - Parameters:
    ///   - lock: the index's writer lock, when the caller has taken (or will wait for) it.
    ///   - role: what the lock's note says this process is.
    ///   - progress: where the scan reports its progress (a daemon's lasts across scans).
    ///   - now: the wall clock, which dates missing files and ages temporary files.
    public init(
        configuration: Configuration, index: any PhotoStore, logger: Logger, lock: IndexLock? = nil,
        role: IndexLock.Role = .scan, progress: ScanProgress = ScanProgress(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.configuration = configuration
        self.progress = progress
        self.index = index
        self.logger = logger
        self.lock = lock ?? IndexLock(index: index.path)
        self.role = role
        desktop = configuration.desktopThumbnailCache
    }

    /// A file the walker hands to the workers.
    struct Job: Sendable {
        var path: FilePath
        var albumPath: FilePath
        var root: FilePath
        var identity: FileIdentity
        var change: Change
        /// The XMP sidecar beside it, as the walk found it.
        var sidecar: SidecarIdentity?
        /// For an unchanged photo whose renditions are out of date: its row.
        var known: Known?
        /// Its desktop thumbnails are gone from their cache: it is decoded again for them.
        var desktopMissing = false
        /// It was just moved, and the move is counted: making its thumbnails adds to no count.
        var counted = false

        /// Why the file is read: it is new to the index, it changed on disk (content, metadata or
        /// sidecar), or it is read again as it was (`scan --full`, a retry after an I/O error).
        enum Change: Sendable { case new, changed, reread }

        struct Known: Sendable {
            var id: Int64
            var rendering: IndexedFile.Rendering
        }
    }

    /// What the workers and the walker hand to the writer.
    enum Outcome: Sendable {
        case update(FileUpdate, Job.Change)
        case move(FileMove)
        /// An unchanged photo's renditions brought up to date (`rerendered`: some were made);
        /// `counted` when the walk counted the photo already (a move).
        case renditions(RenditionUpdate, rerendered: Bool, counted: Bool)
        /// Not recorded, so the next scan tries again (the cache could not be written).
        case retryLater(FilePath, reason: String)
        /// The file disappeared between the walk and the read: nothing to record.
        case vanished(FilePath, root: FilePath)
    }

    /// Scans `roots` (default: the configured ones).
    ///
    /// - Parameter full: read and render every file again, even unchanged ones.
    /// - Throws: `ScanError` when the scan cannot run: a root is missing, another process
    ///   holds the index (`.busy`), the index cannot be written. Files that fail are
    ///   recorded in the index and counted.
    public func scan(roots requested: [FilePath]? = nil, full: Bool, stop: StopFlag) throws(ScanError) -> ScanSummary {
        let heldBefore = lock.isHeld
        if let holder = try lock.acquire(role: role, socket: role == .serve ? configuration.controlSocket : nil) {
            throw ScanError(.busy, "\(index.path) is being written by \(holder)")
        }
        // A lock taken here for a one-shot scan is given back at its end; the daemon keeps its own.
        defer { if role == .scan && !heldBefore { lock.release() } }
        let plan = try RootPlan(requested ?? configuration.roots, index: index)
        for (root, reason) in plan.offline {
            logger.warning("\(root): offline (\(reason)); what is indexed there is kept until it is back")
        }
        let roots = try RootSet(plan.present)
        let started = ContinuousClock.now
        progress.reset()
        try verifyIndex(full: full)
        let scan: (id: Int64, recovered: Bool)
        do throws(IndexError) {
            scan = try index.beginScan(roots: roots.paths, full: full)
        } catch {
            throw ScanError(writingIndex: error)
        }
        let cache = RenditionCache(root: configuration.cache)
        let redated = try resolveDatesIfTheTimeZoneChanged()
        // Under new decoders, files that failed (and HEIF/AVIF photos) are read again, once.
        let decoders = (try? index.state(StateKey.decoders)) ?? nil
        let newDecoders = decoders != Renderer.decoders
        // Under new metadata readers, every file is read again, once (renditions are found by key).
        let readers = (try? index.state(StateKey.readers)) ?? nil
        let newReaders = readers != MetadataReader.version
        if scan.recovered {
            logger.notice("the previous scan was interrupted; finishing its work")
        }

        let tally = ScanTally(stop: stop)
        let jobs = BoundedQueue<Job>(capacity: configuration.workerCount * 4)
        let outcomes = BoundedQueue<Outcome>(capacity: Self.batchSize * 2)
        let journal: ReadJournal
        do throws(SystemError) {
            journal = try ReadJournal(index: index.path, workers: configuration.workerCount)
        } catch {
            throw ScanError(.index, "cannot write the index's journal: \(error)")
        }
        if !journal.isEmpty {
            logger.warning(
                "the previous scan stopped while reading some files: each is read alone at the end of this scan, or recorded as failed if it stopped a scan that read it alone"
            )
        }

        let run = ScanRun(
            id: scan.id, roots: roots, full: full, stop: stop, tally: tally, jobs: jobs, outcomes: outcomes,
            journal: journal, newDecoders: newDecoders, newReaders: newReaders)
        // Render workers, whose decodes share one memory pool, and the writer.
        let memory = MemoryPool(share: configuration.rendering.memoryLimit, workers: configuration.workerCount)
        let workers = startWorkers(run, memory: memory, cache: cache)
        let writer = startWriter(run)

        // Rendition files gone from the cache are looked for beside the walk (not by a full
        // scan, which renders everything anyway).
        let cacheCheck = full ? nil : CacheCheck(index: index, cache: configuration.cache, stop: stop)
        let checking = cacheCheck.map { check in DedicatedThread.start("cache check") { _ = check.run() } }
        // The desktop cache's folders before any write of this scan, in one listing each (which
        // also removes what writes killed mid-way left there: SIGKILL, a power cut).
        let desktopCounts = desktop?.survey(now: Int64(now().timeIntervalSince1970))

        // The walk, on this thread.
        var sightings = Sightings()
        do throws(ScanError) {
            try walk(run, sightings: &sightings)
        } catch {
            tally.fail(error)
        }
        // Desktop thumbnails deleted since the last scan (a cache emptied, old ones cleaned up).
        if !full, !stop.isSet, let desktop, let desktopCounts {
            do throws(IndexError) {
                try queueDesktopRepairs(desktop, counts: desktopCounts, run, sightings: &sightings)
            } catch {
                tally.fail(ScanError(readingIndex: error))
            }
        }
        if let cacheCheck, let checking {
            cacheCheck.finish(by: .now + started.duration(to: .now) / 10)
            checking.join()
            // A stopped scan starts no file; its counts stay those of the walk.
            if !stop.isSet {
                do throws(IndexError) {
                    try queueRepairs(cacheCheck.result.missing, run, sightings: &sightings)
                } catch {
                    tally.fail(ScanError(readingIndex: error))
                }
            }
        }
        progress.update { $0.phase = .rendering }
        jobs.close()
        for worker in workers { worker.join() }
        // Files in hand when a scan died, each read alone now that no other is being read.
        if !sightings.alone.isEmpty {
            let renderer = Renderer(options: configuration.rendering, pool: memory)
            for job in sightings.alone where !stop.isSet {
                outcomes.push(
                    read(job, journalSlot: journal.soloSlot, alone: true, journal: journal) {
                        process(job, renderer: renderer, cache: cache, full: full, tally: tally)
                    })
                settle(job.path, in: journal)
            }
        }
        outcomes.close()
        writer.join()
        if !stop.isSet, let desktop { recordDesktopCounts(desktop) }

        let lost = roots.lost()
        for root in lost {
            logger.error("\(root): the photo folder disappeared during the scan; nothing was removed")
        }
        let completed = !stop.isSet && lost.isEmpty && tally.failure == nil
        if completed && !journal.isEmpty {
            do throws(SystemError) {
                try journal.settleAll()
            } catch {
                logger.warning("\(error)")
            }
        }
        var offline = plan.offline.map(\.root)
        var returned = 0  // missing files seen again
        if tally.failure == nil {
            progress.update { $0.phase = .cleaning }
            do throws(IndexError) {
                returned = try index.unmarkMissing(where: sightings.ids.contains)
                if completed {
                    forgetUnmountedDisks(&sightings)
                    offline += try settleVanished(
                        under: roots.paths, sightings: sightings, scanID: scan.id, tally: tally,
                        retireUnconfigured: requested == nil && configuration.rootsFromFile && offline.isEmpty)
                }
            } catch {
                tally.fail(ScanError(writingIndex: error))
            }
        }
        // Cache files are deleted only now, with no worker writing: see `removeCacheOrphans`.
        removeCacheOrphans(cache, sweep: completed && (scan.recovered || full))
        let counts = tally.counts.withLock { $0 }
        let failure = tally.failure
        let state: ScanState = failure != nil ? .failed : completed ? .finished : .interrupted
        let changedAnything =
            counts.new + counts.changed + counts.moved + counts.removed + counts.missing
            + counts.unsupported + counts.errors + returned + redated > 0 || full || scan.recovered
        do throws(IndexError) {
            if changedAnything { try index.refreshAlbums() }
            if completed && newDecoders { try index.setState(StateKey.decoders, Renderer.decoders) }
            if completed && newReaders { try index.setState(StateKey.readers, MetadataReader.version) }
            try index.finishScan(
                id: scan.id, counts: counts, state: state, reason: failure?.description, offline: offline)
        } catch {
            // The index cannot take even this small write (a full disk): say so, loudly.
            logger.error("cannot record the end of scan \(scan.id): \(error)")
            tally.fail(ScanError(writingIndex: error))
        }
        progress.update { $0.phase = .finished }
        if let failure = tally.failure {
            throw failure
        }
        return ScanSummary(
            scanID: scan.id, state: state, counts: counts, elapsed: started.duration(to: .now).seconds,
            offline: offline.map(\.string), failing: try? index.failingFiles())
    }
}

/// What the stages of one scan share: its id and mode, the queues from the walk (and the
/// repairs, which feed the same one) to the workers and from them to the writer, its tally, and
/// the journal of the files in hand.
struct ScanRun: Sendable {
    let id: Int64
    let roots: RootSet
    let full: Bool
    let stop: StopFlag
    let tally: ScanTally
    let jobs: BoundedQueue<LibraryScanner.Job>
    let outcomes: BoundedQueue<LibraryScanner.Outcome>
    let journal: ReadJournal
    /// Decoders or metadata readers changed since the last complete scan: files they may now
    /// read otherwise are read again, once.
    let newDecoders: Bool
    let newReaders: Bool
}

extension LibraryScanner {
    /// When the configured time zone (or the system's) is not the one the index's dates were
    /// resolved in, resolves them again in it; returns how many changed.
    func resolveDatesIfTheTimeZoneChanged() throws(ScanError) -> Int {
        let zone = configuration.timeZone ?? .current
        do throws(IndexError) {
            let recorded = try index.state(StateKey.timeZone)
            guard recorded != zone.identifier else { return 0 }
            // An index from before the zone was recorded was resolved in this one, as far as can be told.
            let changed = recorded == nil ? 0 : try index.resolveDates(in: zone)
            try index.setState(StateKey.timeZone, zone.identifier)
            if changed > 0 {
                logger.notice(
                    "the time zone is \(zone.identifier) now, not \(recorded ?? ""): \(changed) capture dates resolved again"
                )
            }
            return changed
        } catch {
            throw ScanError(writingIndex: error)
        }
    }

    /// Forgets the devices of disks the walk crossed that are no longer mounted where it met
    /// them (unplugged, or mounted again under another device number while it walked): what it
    /// did not see on them lies on a disk that is gone, so it is offline, not missing.
    func forgetUnmountedDisks(_ sightings: inout Sightings) {
        for (device, point) in sightings.mounts.sorted(by: { $0.value.string < $1.value.string }) {
            let now = try? FileSystem.status(of: point)
            guard now?.device != device || now?.type != .directory else { continue }
            logger.warning(
                "\(point): its disk went away during the scan; what the scan did not see there is kept as it was")
            sightings.devices.remove(device)
        }
    }

    /// Checks the index file after a crash (the last scan is still marked running, and this
    /// process holds the writer lock) and on a full scan: damaged lookup tables are rebuilt; a
    /// file damaged beyond that stops the scan with what to do.
    func verifyIndex(full: Bool) throws(ScanError) {
        do throws(IndexError) {
            let crashed = try index.lastScan()?.state == .running
            guard full || crashed else { return }
            if case .repaired(let problems) = try index.verify() {
                logger.warning(
                    "the index file was damaged (\(problems.count) problems, such as: \(problems[0])); its lookup tables were rebuilt from its rows"
                )
            }
        } catch {
            throw ScanError(error.code == .full ? .diskFull : .index, error.description)
        }
    }
}

/// What the threads of one scan add up, and the first failure that stops it.
final class ScanTally: Sendable {
    let counts = Mutex(ScanCounts())
    private let firstFailure = Mutex<ScanError?>(nil)
    private let stop: StopFlag
    /// Indexed files kept without being seen: below directories the walk could not read.
    let kept = Mutex(0)

    init(stop: StopFlag) {
        self.stop = stop
    }

    var failure: ScanError? { firstFailure.withLock { $0 } }

    /// Records `error` unless an earlier failure is already recorded, and stops the scan.
    func fail(_ error: ScanError) {
        firstFailure.withLock { $0 = $0 ?? error }
        stop.stop()
    }
}

/// The roots of one scan and whether each is still the directory the scan started in.
///
/// A root renamed away or unmounted mid-scan makes reads below it fail with ENOENT; the
/// scan asks this set whether that is what happened, and a root once found gone stays
/// lost for the rest of the scan, even if it comes back.
final class RootSet: Sendable {
    let paths: [FilePath]
    private let identities: [FilePath: (UInt64, UInt64)]
    private let lostRoots = Mutex<Set<FilePath>>([])

    init(_ paths: [FilePath]) throws(ScanError) {
        self.paths = paths
        var identities: [FilePath: (UInt64, UInt64)] = [:]
        for root in paths {
            guard let status = try? FileSystem.status(of: root) else {
                throw ScanError(.missingRoot, "\(root): the photo folder disappeared")
            }
            identities[root] = (status.device, status.inode)
        }
        self.identities = identities
    }

    /// Whether `root` is still there and still the same directory; records it as lost if not.
    @discardableResult
    func check(_ root: FilePath) -> Bool {
        if lostRoots.withLock({ $0.contains(root) }) { return false }
        let now = try? FileSystem.status(of: root)
        let same = now.map { ($0.device, $0.inode) == identities[root] ?? (0, 0) && $0.type == .directory } ?? false
        if !same { lostRoots.withLock { _ = $0.insert(root) } }
        return same
    }

    /// The roots found gone at any time during the scan, including now.
    func lost() -> [FilePath] {
        for root in paths { check(root) }
        return lostRoots.withLock { $0 }.sorted { $0.string < $1.string }
    }
}

/// What a walk saw: it decides which unseen files are missing and which are offline.
struct Sightings {
    /// Rows seen.
    var ids = Bitset()
    /// Rows not seen but kept: below a directory the walk could not read.
    var kept = Bitset()
    /// Rows seen and sent to the workers (new content, or renditions out of date).
    var queued = Bitset()
    /// Files that were being read among others when a scan died: read alone, after the rest.
    var alone: [LibraryScanner.Job] = []
    /// The devices of the directories walked, and those the seen files were indexed from
    /// (a disk mounted again may come back under a new device number).
    var devices: Set<UInt64> = []
    /// The first directory the walk met on each device: a root, or a disk mounted below one.
    var mounts: [UInt64: FilePath] = [:]
    /// Files found under each root.
    var files: [FilePath: Int] = [:]
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
