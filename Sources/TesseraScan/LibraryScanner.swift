public import Foundation
public import Logging
import Synchronization
public import SystemPackage
public import TesseraAnalysis
public import TesseraConfiguration
import TesseraDesktop
import TesseraFacts
import TesseraImage
public import TesseraIndex
import TesseraMetadata
import TesseraPlaces
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
/// settings go to the workers too, for what they lack. Memory is bounded by the queue sizes and the
/// workers' budgets, not by the size of the library or of any file.
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
    /// The analyses each photo gets after its renditions (`AnalysisStages.enabled`).
    let analyses: [any PhotoAnalysis]
    /// What names places (docs/PLACES.md): the data is mapped once, here.
    let places: PlaceNamer
    /// Whether the missing place data was said: once for the process.
    let saidNoPlaces = Atomic<Bool>(false)
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - lock: the index's writer lock, when the caller has taken (or will wait for) it.
    ///   - role: what the lock's note says this process is.
    ///   - progress: where the scan reports its progress (a daemon's lasts across scans).
    ///   - now: the wall clock, which dates missing files and ages temporary files.
    public init(
        configuration: Configuration, index: any PhotoStore, logger: Logger, lock: IndexLock? = nil,
        role: IndexLock.Role = .scan, progress: ScanProgress = ScanProgress(),
        analyses: [any PhotoAnalysis]? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.analyses = analyses ?? AnalysisStages.enabled(by: configuration, logger: logger)
        places = PlaceNamer(
            data: PlaceFinder.installed(
                environment: ProcessInfo.processInfo.environment, executable: CurrentProcess.executable),
            corrections: configuration.placeCorrections, roots: configuration.roots)
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
        /// What the walk counted the file as already, for a job that only makes what it lacks: its
        /// outcome then adds nothing to that count.
        var counted: Counted?

        /// Why the file is read: it is new to the index, it changed on disk (content, metadata or
        /// sidecar), or it is read again as it was (`scan --full`, a retry after an I/O error).
        enum Change: Sendable { case new, changed, reread }

        /// A move (its desktop thumbnails were gone), or an unchanged photo (a repair).
        enum Counted: Sendable { case moved, unchanged }

        /// The outcome that records the file as read, with `content`.
        func update(_ identity: FileIdentity, _ content: FileUpdate.Content) -> Outcome {
            .update(
                FileUpdate(
                    path: path, albumPath: albumPath, root: root, identity: identity, sidecar: sidecar,
                    content: content),
                // A file rewritten between the walk and the read changed after all.
                change == .reread && identity != self.identity ? .changed : change)
        }

        /// `outcome` as the writer is to count it.
        func counting(_ outcome: Outcome) -> Outcome {
            counted.map { .counted(outcome, as: $0) } ?? outcome
        }

        struct Known: Sendable {
            var id: Int64
            var rendering: IndexedFile.Rendering
        }
    }

    /// What the walk and the workers hand to the writer, which counts each.
    indirect enum Outcome: Sendable {
        case update(FileUpdate, Job.Change)
        case move(FileMove)
        /// An unchanged photo's renditions brought up to date (`rerendered`: some were made).
        case renditions(RenditionUpdate, rerendered: Bool)
        /// Not recorded, so the next scan tries again (the cache could not be written).
        case retryLater(FilePath, reason: String)
        /// The file disappeared between the walk and the read: nothing to record.
        case vanished(FilePath, root: FilePath)
        /// Files the walk found in one directory, and how many of them were unchanged (settled there).
        case seen(found: Int, unchanged: Int)
        /// What the walk could not list or stat.
        case unlisted(FilePath, reason: String)
        /// The outcome of a job whose file the walk counted already (`Job.counted`).
        case counted(Outcome, as: Job.Counted)

        /// Whether this is one file's outcome (read, moved or gone), not the walk's.
        var isFile: Bool {
            switch self {
            case .seen, .unlisted: false
            case .update, .move, .renditions, .retryLater, .vanished, .counted: true
            }
        }
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
        progress.reset()
        let run = try begin(roots: RootSet(plan.present), full: full, stop: stop)
        var sightings = runStages(run)
        if run.tally.failure == nil { _ = AnalysisStage(scanner: self, analyses: analyses, stop: stop).run() }
        let summary = try finish(
            run, sightings: &sightings, offline: plan.offline.map(\.root),
            retireUnconfigured: requested == nil && configuration.rootsFromFile)
        // The scan is recorded: its files are in the index whatever happens to a video now.
        if configuration.webVideos && summary.state == .finished {
            _ = WebVideoStage(scanner: self, stop: stop).run()
            progress.update { $0.phase = .finished }
        }
        return summary
    }

    /// Records the scan's start in the index, and sets up what its stages share.
    private func begin(roots: RootSet, full: Bool, stop: StopFlag) throws(ScanError) -> ScanRun {
        let started = ContinuousClock.now
        try verifyIndex(full: full)
        let scan: (id: Int64, recovered: Bool)
        do throws(IndexError) {
            scan = try index.beginScan(roots: roots.paths, full: full)
        } catch {
            throw ScanError(writingIndex: error)
        }
        let redated = try resolveDatesIfTheTimeZoneChanged()
        do throws(IndexError) {
            // An analysis new or changed since the last scan waits for every photo (`AnalysisStage`).
            let queued = try index.enqueueAnalyses(AnalysisStages.versions(of: analyses))
            if queued > 0 { logger.notice("\(Wording.count(queued, "photo")) queued for new analyses") }
        } catch {
            throw ScanError(writingIndex: error)
        }
        if scan.recovered {
            logger.notice("the previous scan was interrupted; finishing its work")
        }
        let journal: ReadJournal
        do throws(SystemError) {
            journal = try ReadJournal(index: index.path, workers: configuration.workerCount)
        } catch {
            throw ScanError(.index, "cannot write the index's journal: \(error)")
        }
        if !journal.isEmpty {
            logger.warning(
                """
                the previous scan stopped while reading some files: each is read alone at the end of this scan, \
                or recorded as failed if it stopped a scan that read it alone
                """)
        }
        return ScanRun(
            id: scan.id, recovered: scan.recovered, started: started, roots: roots, full: full, stop: stop,
            tally: ScanTally(stop: stop), jobs: BoundedQueue(capacity: configuration.workerCount * 4),
            outcomes: BoundedQueue(capacity: WriteStage.batchSize * 2), journal: journal,
            cache: RenditionCache(root: configuration.cache),
            // Under new decoders, files that failed (and HEIF/AVIF photos) are read again, once;
            // under new metadata readers, every file is (renditions are found by key).
            newDecoders: ((try? index.state(StateKey.decoders)) ?? nil) != Renderer.decoders,
            newReaders: ((try? index.state(StateKey.readers)) ?? nil) != MetadataReader.version, redated: redated)
    }

    /// Runs the stages: the walk on this thread, then the repairs, feeding the render workers,
    /// whose outcomes the writer commits; returns when the writer has committed the last one.
    private func runStages(_ run: ScanRun) -> Sightings {
        let memory = MemoryPool(share: configuration.rendering.memoryLimit, workers: configuration.workerCount)
        let workers = RenderStage.start(run, scanner: self, memory: memory, cache: run.cache)
        let writer = WriteStage(scanner: self, run: run).start()
        // Rendition files gone from the cache are looked for beside the walk (not by a full
        // scan, which renders everything anyway).
        let cacheCheck = run.full ? nil : CacheCheck(index: index, cache: configuration.cache, stop: run.stop)
        let checking = cacheCheck.map { check in DedicatedThread.start("cache check") { _ = check.run() } }
        // The desktop cache's folders before any write of this scan, in one listing each (which
        // also removes what writes killed mid-way left there: SIGKILL, a power cut).
        let desktopCounts = desktop?.survey(now: Int64(now().timeIntervalSince1970))

        var walk = WalkStage(self, run)
        do throws(ScanError) {
            try walk.walk()
        } catch {
            run.tally.fail(error)
        }
        var sightings = walk.sightings
        func feed(_ repair: some RepairSource) {
            // A stopped scan starts no file; its counts stay those of the walk.
            guard !run.stop.isSet else { return }
            do throws(IndexError) {
                try repair.feed(run, &sightings, scanner: self)
            } catch {
                run.tally.fail(ScanError(readingIndex: error))
            }
        }
        // Desktop thumbnails deleted since the last scan (a cache emptied, old ones cleaned up).
        if !run.full, let desktop, let desktopCounts { feed(DesktopRepair(desktop: desktop, counts: desktopCounts)) }
        if let cacheCheck, let checking {
            cacheCheck.finish(by: .now + run.started.duration(to: .now) / 10)
            checking.join()
            feed(RenditionRepair(missing: cacheCheck.result.missing))
        }
        progress.update { $0.phase = .rendering }
        run.jobs.close()
        for worker in workers { worker.join() }
        // Files in hand when a scan died, each read alone now that no other is being read.
        if !sightings.alone.isEmpty {
            let stage = RenderStage(
                scanner: self, renderer: Renderer(options: configuration.rendering, pool: memory), cache: run.cache,
                full: run.full, tally: run.tally)
            for job in sightings.alone where !run.stop.isSet {
                run.outcomes.push(
                    read(job, journalSlot: run.journal.soloSlot, alone: true, journal: run.journal) {
                        stage.process(job)
                    })
                settle(job.path, in: run.journal)
            }
        }
        run.outcomes.close()
        writer.join()
        if !run.stop.isSet, let desktop { DesktopRepair.recordCounts(of: desktop, in: index, logger: logger) }
        return sightings
    }

    /// Settles what a completed walk did not see, and records the scan's end and counts.
    private func finish(
        _ run: ScanRun, sightings: inout Sightings, offline: [FilePath], retireUnconfigured: Bool
    ) throws(ScanError) -> ScanSummary {
        let lost = run.roots.lost()
        for root in lost {
            logger.error("\(root): the photo folder disappeared during the scan; nothing was removed")
        }
        let tally = run.tally
        let completed = !run.stop.isSet && lost.isEmpty && tally.failure == nil
        if completed && !run.journal.isEmpty {
            do throws(SystemError) {
                try run.journal.settleAll()
            } catch {
                logger.warning("\(error)")
            }
        }
        var offline = offline
        var returned = 0  // missing files seen again
        let settle = SettleStage(scanner: self, tally: tally)
        if tally.failure == nil {
            progress.update { $0.phase = .cleaning }
            do throws(IndexError) {
                returned = try index.unmarkMissing(where: sightings.ids.contains)
                if completed {
                    settle.forgetUnmountedDisks(&sightings)
                    offline += try settle.settleVanished(
                        under: run.roots.paths, sightings: sightings, scanID: run.id,
                        retireUnconfigured: retireUnconfigured && offline.isEmpty)
                }
            } catch {
                tally.fail(ScanError(writingIndex: error))
            }
        }
        // Cache files are deleted only now, with no worker writing: see `removeCacheOrphans`.
        settle.removeCacheOrphans(run.cache, sweep: completed && (run.recovered || run.full))
        let counts = tally.counts
        let failure = tally.failure
        let state: ScanState = failure != nil ? .failed : completed ? .finished : .interrupted
        let changedAnything =
            counts.new + counts.changed + counts.moved + counts.removed + counts.missing
            + counts.unsupported + counts.errors + returned + run.redated > 0 || run.full || run.recovered
        do throws(IndexError) {
            if changedAnything { try index.refreshAlbums() }
            if completed { refreshGroups() }
            if completed { refreshPlaces() }
            if completed { groupFaces() }
            if completed && run.newDecoders { try index.setState(StateKey.decoders, Renderer.decoders) }
            if completed && run.newReaders { try index.setState(StateKey.readers, MetadataReader.version) }
            try index.finishScan(
                id: run.id, counts: counts, state: state, reason: failure?.description, offline: offline)
        } catch {
            // The index cannot take even this small write (a full disk): say so, loudly.
            logger.error("cannot record the end of scan \(run.id): \(error)")
            tally.fail(ScanError(writingIndex: error))
        }
        progress.update { $0.phase = .finished }
        if let failure = tally.failure {
            throw failure
        }
        return ScanSummary(
            scanID: run.id, state: state, counts: counts, elapsed: run.started.duration(to: .now).seconds,
            offline: offline.map(\.string), failing: try? index.failingFiles())
    }
}
