import Foundation
public import Logging
import Synchronization
import SystemPackage
public import TesseraConfiguration
import TesseraFacts
import TesseraImage
import TesseraIndex
public import TesseraObjectStore
import TesseraScan
import TesseraSystem

/// `tessera worker`: claims files from the queue, reads and renders each with the scan's own
/// render stage, stores its renditions, and records it, fenced by its lease (docs/SCALE.md).
///
/// Decoding runs on threads of its own, so the heartbeat that renews the lease (a task on the
/// concurrency pool) keeps time however long a file takes.
public final class ClusterWorker: Sendable {
    public struct Options: Sendable {
        /// Names the worker in the queue and in status; unique among the cluster's workers.
        public var name: String
        /// Jobs claimed at a time.
        public var batch = 4
        /// How long a claim holds without a heartbeat.
        public var lease: Duration = .seconds(60)
        /// Claims of one file before it is recorded as failed (a file that stops its workers).
        public var maxAttempts = 3
        /// Exit once nothing is pending or leased.
        public var untilIdle = false
        /// How often an idle worker looks for work when no notification wakes it sooner.
        public var poll: Duration = .seconds(2)
        /// Read and render files; false records each as not a photo without opening it, which
        /// measures the queue alone (bench/cluster.py).
        public var render = true

        public init(name: String) {
            self.name = name
        }
    }

    /// What a worker did.
    public struct Summary: Sendable, Equatable {
        public var recorded = 0
        public var failed = 0
        public var lost = 0
        public var returned = 0
    }

    let index: ClusterIndex
    let store: ObjectStore
    let configuration: Configuration
    let options: Options
    let logger: Logger
    private let stopped = Atomic<Bool>(false)
    /// The tokens of the claims in hand, which the heartbeat renews.
    private let held = Mutex<Set<Int64>>([])
    /// Where the worker waits while the queue is empty.
    private let wakeup = Wakeup()

    public init(
        index: ClusterIndex, store: ObjectStore, configuration: Configuration, options: Options, logger: Logger
    ) {
        self.index = index
        self.store = store
        self.configuration = configuration
        self.options = options
        self.logger = logger
    }

    /// Asks the worker to stop once the file in hand is recorded; the rest of its claim goes back.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        wakeup.signal()
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Runs until stopped (or, with `untilIdle`, until the queue is empty).
    public func run() async throws(ClusterError) -> Summary {
        try await index.register(
            worker: options.name, host: ProcessInfo.processInfo.hostName,
            pid: ProcessInfo.processInfo.processIdentifier)
        // Renditions are made in a cache folder of this worker's own, and removed once stored.
        let scratch = FilePath(
            configuration.cache.string + "/worker-\(options.name.replacingOccurrences(of: "/", with: "_"))")
        do throws(SystemError) {
            try FileSystem.createDirectories(scratch)
        } catch {
            throw ClusterError(.local, "cannot make the worker's cache folder: \(error)")
        }
        let cache = RenditionCache(root: scratch)
        let rendering = FileRendering(
            configuration: configuration, cache: cache,
            memory: MemoryPool(share: configuration.rendering.memoryLimit, workers: 1), logger: logger,
            analyses: AnalysisStages.enabled(by: configuration, logger: logger))
        var summary = Summary()
        var reclaimed = ContinuousClock.now
        var ahead: Task<Result<[ClaimedJob], ClusterError>, Never>?
        let heartbeat = startHeartbeat()
        let listener = index.listenForJobs { [wakeup] in wakeup.signal() }
        defer {
            heartbeat.cancel()
            listener.cancel()
        }
        while !isStopped {
            let jobs: [ClaimedJob]
            if let ahead {
                jobs = try await ahead.value.get()
            } else {
                jobs = try await claim().get()
            }
            ahead = nil
            // Expired leases are looked for when the queue runs dry, and once a lease's length
            // while it does not, so a dead worker's files wait at most that long behind the rest.
            var returned = 0
            if jobs.isEmpty || ContinuousClock.now - reclaimed > options.lease {
                reclaimed = .now
                let (back, failed) = try await index.reclaimExpired(maxAttempts: options.maxAttempts)
                if back + failed > 0 {
                    logger.notice("reclaimed \(back) expired leases; \(failed) files failed for good")
                }
                returned = back
            }
            if jobs.isEmpty {
                if returned > 0 { continue }
                if options.untilIdle {
                    let (pending, leased) = try await index.outstanding()
                    if pending == 0 && leased == 0 { break }
                }
                await wakeup.wait(upTo: options.poll)
                continue
            }
            for (position, job) in jobs.enumerated() {
                if isStopped {
                    summary.returned += try await giveBack(jobs[position...])
                    break
                }
                // The next claim travels while the last file of this one is read and recorded.
                if position == jobs.count - 1 { ahead = Task { await self.claim() } }
                try await process(job, rendering: rendering, cache: cache, summary: &summary)
            }
            release(jobs)
        }
        // Stopped with a claim made ahead: it goes back at once.
        if let ahead, case .success(let jobs) = await ahead.value {
            summary.returned += try await giveBack(jobs[...])
            release(jobs)
        }
        try? FileSystem.removeTree(scratch)
        try await index.signOff(worker: options.name)
        return summary
    }

    /// Claims a batch, which the heartbeat renews from now on.
    private func claim() async -> Result<[ClaimedJob], ClusterError> {
        do throws(ClusterError) {
            let jobs = try await index.claim(worker: options.name, batch: options.batch, lease: options.lease)
            if let token = jobs.first?.token { held.withLock { _ = $0.insert(token) } }
            return .success(jobs)
        } catch {
            return .failure(error)
        }
    }

    /// The heartbeat stops renewing the claim of `jobs`, done with.
    private func release(_ jobs: [ClaimedJob]) {
        if let token = jobs.first?.token { held.withLock { _ = $0.remove(token) } }
    }

    /// Gives `jobs` back untouched (the worker is stopping); how many.
    private func giveBack(_ jobs: ArraySlice<ClaimedJob>) async throws(ClusterError) -> Int {
        for job in jobs {
            try await index.release(
                job, reason: "its worker stopped", delay: .zero, maxAttempts: .max, worker: options.name)
        }
        return jobs.count
    }

    /// Renews the claims in hand every third of a lease, and says the worker is alive, until
    /// cancelled: one task for the worker's life, one statement each time.
    private func startHeartbeat() -> Task<Void, Never> {
        Task { [self] in
            let interval = options.lease / 3
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { return }
                let tokens = held.withLock { $0 }
                do throws(ClusterError) {
                    let kept = try await index.renew(tokens: tokens, worker: options.name, lease: options.lease)
                    // A claim no longer held (expired, reclaimed): its late commits are fenced out anyway.
                    held.withLock { $0.subtract(tokens.subtracting(kept)) }
                } catch {
                    logger.warning("cannot renew leases: \(error)")
                }
            }
        }
    }

    /// Reads, stores and records one job.
    private func process(
        _ job: ClaimedJob, rendering: FileRendering, cache: RenditionCache, summary: inout Summary
    ) async throws(ClusterError) {
        let result =
            options.render
            ? await DedicatedThread.run("read \(job.fileID)") {
                rendering.read(
                    path: job.path, albumPath: job.albumPath, root: job.root, identity: job.identity,
                    sidecar: job.sidecar)
            }
            : .read(
                FileUpdate(
                    path: job.path, albumPath: job.albumPath, root: job.root, identity: job.identity,
                    content: .unsupported(reason: "not read (--no-render)")))
        switch result {
        case .read(let update):
            let record = FileRecord(update, cacheRoot: cache.root)
            let made = record.renditions?.entries ?? []
            do throws(ObjectStoreError) {
                // Each file once: renditions identical to a smaller one share its file.
                for object in Set(made.map(\.object)).sorted() {
                    try await store.put(
                        object, file: FilePath(cache.root.string + "/" + object),
                        contentType: Self.contentType(of: object))
                }
            } catch {
                remove(made, from: cache)
                if error.code == .refused || error.code == .badAnswer {
                    // Wrong keys, a missing bucket, no permission: every file would fail alike.
                    // The file is not to blame: it goes back as it was, and the worker stops.
                    try await index.release(
                        job, reason: "the object store refused", delay: .zero, maxAttempts: .max,
                        worker: options.name)
                    throw ClusterError(.configuration, "the object store refuses to store renditions: \(error)")
                }
                logger.warning("\(job.path): cannot store its renditions: \(error)")
                try await index.release(
                    job, reason: "cannot store its renditions: \(error)", delay: .seconds(5),
                    maxAttempts: options.maxAttempts, worker: options.name)
                return
            }
            remove(made, from: cache)
            if FaultPoint.stalls("commit") {
                logger.notice("\(job.path): stored, stalling before recording it (TESSERA_FAULT)")
                await DedicatedThread.run("stall") { FaultPoint.stallIfInjected("commit") }
            }
            let objects = made.map { (spec: $0.spec.description, key: $0.object) }
            switch try await index.commit(job, record: record, objects: objects, worker: options.name) {
            case .recorded:
                summary.recorded += 1
                if record.status == .failed { summary.failed += 1 }
            case .leaseLost:
                summary.lost += 1
                logger.warning("\(job.path): lease lost before it was recorded; nothing written")
            }
        case .retryLater(let reason):
            try await index.release(
                job, reason: reason, delay: .seconds(5 * Int64(job.attempts)), maxAttempts: options.maxAttempts,
                worker: options.name)
            summary.returned += 1
        case .vanished:
            try await index.dropVanished(job)
        }
    }

    private func remove(_ renditions: [FileRecord.Rendition], from cache: RenditionCache) {
        _ = cache.remove(Set(renditions.map { cache.root.string + "/" + $0.object }))
    }

    static func contentType(of key: String) -> String {
        switch key.split(separator: ".").last?.lowercased() {
        case "webp": "image/webp"
        case "avif": "image/avif"
        case "png": "image/png"
        case "mp4": "video/mp4"
        default: "image/jpeg"
        }
    }
}
