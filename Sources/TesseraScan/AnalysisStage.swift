import Logging
import Synchronization
import SystemPackage
import TesseraAnalysis
import TesseraConfiguration
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraSystem

/// The scan's analysis stage, once the writer has committed the files: the photos that wait in
/// the index's queue for an analysis (one added or changed since they were read, one that could
/// not run on the pixels of a crop, a copy whose original lacked it) get it from their stored
/// preview, the smallest fit rendition that covers what the analysis wants (the photo itself
/// when it has none).
///
/// A page of the queue at a time, the workers analysing while the results of the page before are
/// written; what is written leaves the queue in the same transaction, so a stop or a crash
/// loses only what was in hand, which the next scan does again.
struct AnalysisStage {
    let scanner: LibraryScanner
    let analyses: [any PhotoAnalysis]
    let stop: StopFlag
    /// Photos a page of the queue holds.
    static let page = 256

    /// Analyses what waits; returns how many photos were.
    func run() -> Int {
        let index = scanner.index
        let waiting: Int
        do throws(IndexError) {
            waiting = try index.analysisProgress().filter { p in analyses.contains { $0.name == p.name } }
                .map(\.pending).reduce(0, +)
        } catch {
            scanner.logger.warning("cannot read the analyses' queue: \(error)")
            return 0
        }
        guard waiting > 0, !stop.isSet else { return 0 }
        scanner.progress.update {
            $0.phase = .analysing
            ($0.analysed, $0.toAnalyse) = (0, waiting)
        }
        let configuration = scanner.configuration
        let memory = MemoryPool(share: configuration.rendering.memoryLimit, workers: configuration.workerCount)
        let jobs = BoundedQueue<PendingAnalysis>(capacity: configuration.workerCount * 4)
        let results = BoundedQueue<(id: Int64, results: [AnalysisResult])>(capacity: Self.page * 2)
        let workers = (0..<configuration.workerCount).map { number in
            DedicatedThread.start("analysis \(number)") { [scanner, analyses] in
                let renderer = Renderer(options: configuration.rendering, pool: memory)
                while let job = jobs.pop() {
                    let done = Self.analyse(job, analyses: analyses, renderer: renderer)
                    _ = results.push((job.record.id, done))
                    scanner.progress.update { $0.analysed = ($0.analysed ?? 0) + 1 }
                }
            }
        }
        let written = Atomic(0)
        let writer = DedicatedThread.start("analysis writer") { [scanner] in
            while true {
                let (batch, finished) = results.popBatch(limit: Self.page, until: .now + .seconds(1))
                if !batch.isEmpty {
                    do throws(IndexError) {
                        try index.recordAnalyses(Dictionary(batch.map { ($0.id, $0.results) }) { $1 })
                        written.add(batch.count, ordering: .relaxed)
                    } catch {
                        scanner.logger.warning("cannot record analyses (\(error)); the next scan does them again")
                    }
                }
                if finished { return }
            }
        }
        feed(jobs)
        jobs.close()
        for worker in workers { worker.join() }
        results.close()
        writer.join()
        let count = written.load(ordering: .relaxed)
        scanner.logger.info("analyses: \(Wording.count(count, "photo")) analysed from the index's queue")
        return count
    }

    /// Hands the workers every photo that waits, a page of the queue at a time, until stopped.
    private func feed(_ jobs: BoundedQueue<PendingAnalysis>) {
        let names = Set(analyses.map(\.name))
        var after: Int64 = 0
        while !stop.isSet {
            let page: [PendingAnalysis]
            do throws(IndexError) {
                page = try scanner.index.pendingAnalyses(after: after, limit: Self.page)
            } catch {
                scanner.logger.warning("cannot read the analyses' queue: \(error)")
                return
            }
            guard let last = page.last else { return }
            after = last.record.id
            for job in page where !stop.isSet && job.analyses.contains(where: names.contains) {
                _ = jobs.push(job)
            }
        }
    }

    /// The analyses `job` waits for, from its stored preview, or from the photo when it has no
    /// fit rendition in the cache.
    static func analyse(
        _ job: PendingAnalysis, analyses: [any PhotoAnalysis], renderer: Renderer
    ) -> [AnalysisResult] {
        let wanted = analyses.filter { job.analyses.contains($0.name) }
        let largest = wanted.map(\.imageSize).max() ?? Renderer.placeholderSide
        let fits = job.record.renditions.filter { $0.spec.kind == .fit }
            .sorted { max($0.width, $0.height) < max($1.width, $1.height) }
        let preview =
            (fits.first { max($0.width, $0.height) >= largest } ?? fits.last)
            .map { FilePath($0.path) }.flatMap { (try? FileSystem.status(of: $0)) != nil ? $0 : nil }
        let keeping = AnalysisStages.keeping(for: wanted)
        do throws(PhotoError) {
            let rendered = try renderer.render(
                file: preview ?? job.record.path, specs: [], keeping: keeping, placeholder: false)
            return AnalysisStages.run(wanted, on: rendered, facts: job.record.analysisFacts).map { result in
                // No whole image even from the photo: nothing will give one.
                guard case .pending = result.outcome else { return result }
                return AnalysisResult(
                    name: result.name, version: result.version, outcome: .failed("no whole image of the photo"))
            }
        } catch {
            // A file away for now (an I/O error, a disk gone) waits for the next scan.
            let outcome: AnalysisResult.Outcome = error.code.isTransient ? .pending : .failed(error.reason)
            return wanted.map { AnalysisResult(name: $0.name, version: $0.version, outcome: outcome) }
        }
    }
}
