import Logging
import TesseraConfiguration
import TesseraImage
import TesseraIndex
import TesseraSystem

extension LibraryScanner {
    /// The render workers: each takes jobs from the walk and the repairs, reads and renders the
    /// file (its name in the journal meanwhile), and hands the outcome to the writer.
    func startWorkers(_ run: ScanRun, memory: MemoryPool, cache: RenditionCache) -> [DedicatedThread] {
        (0..<configuration.workerCount).map { number in
            DedicatedThread.start("render \(number)") { [self] in
                let renderer = Renderer(options: configuration.rendering, pool: memory)
                while let job = run.jobs.pop() {
                    guard !run.stop.isSet else { continue }  // drain without starting new files
                    progress.beat()
                    run.outcomes.push(
                        read(job, journalSlot: number, alone: false, journal: run.journal) {
                            process(job, renderer: renderer, cache: cache, full: run.full, tally: run.tally)
                        })
                    progress.beat()
                }
            }
        }
    }

    /// The writer: the only stage that writes the index, in batches of outcomes, one
    /// transaction each.
    func startWriter(_ run: ScanRun) -> DedicatedThread {
        DedicatedThread.start("index writer") { [self] in
            while true {
                let (batch, finished) = run.outcomes.popBatch(limit: Self.batchSize, until: .now + Self.batchInterval)
                if !batch.isEmpty {
                    // A batch is one transaction: retrying it after "busy" (a reader holding the
                    // file past the busy timeout) repeats nothing.
                    var attempt = 1
                    while true {
                        do throws(IndexError) {
                            try commit(batch, scanID: run.id, roots: run.roots, tally: run.tally)
                        } catch  where error.code == .busy && attempt < 3 {
                            logger.warning("the index is busy; trying the batch again (\(error))")
                            attempt += 1
                            continue
                        } catch {
                            run.tally.fail(ScanError(writingIndex: error))
                        }
                        break
                    }
                }
                if finished { return }
            }
        }
    }
}
