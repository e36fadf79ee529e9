import Logging
import SystemPackage
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// The scan's write stage: the only one that writes the index while files are read, and the one
/// that counts them, from each outcome the walk and the workers hand it.
///
/// It commits outcomes in batches, one transaction each; the settle stage writes after it.
struct WriteStage {
    typealias Job = LibraryScanner.Job
    typealias Outcome = LibraryScanner.Outcome

    /// Outcomes per transaction, and the longest an outcome waits to be committed.
    static let batchSize = 256
    static let batchInterval: Duration = .seconds(1)

    let scanner: LibraryScanner
    let run: ScanRun

    private var index: any PhotoStore { scanner.index }
    private var logger: Logger { scanner.logger }

    /// Starts the writer on a thread of its own; it ends once the outcome queue is closed and drained.
    func start() -> DedicatedThread {
        DedicatedThread.start("index writer") { [self] in
            while true {
                let (batch, finished) = run.outcomes.popBatch(limit: Self.batchSize, until: .now + Self.batchInterval)
                if !batch.isEmpty {
                    // A batch is one transaction: retrying it after "busy" (a reader holding the
                    // file past the busy timeout) repeats nothing.
                    var attempt = 1
                    while true {
                        do throws(IndexError) {
                            try commit(batch)
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

    /// Writes one batch of outcomes in one transaction.
    ///
    /// Thumbnails the batch leaves unreferenced are not deleted here: the index records
    /// them in the same transaction, and `removeCacheOrphans` deletes them once no worker
    /// can be writing a file of the same content.
    private func commit(_ batch: [Outcome]) throws(IndexError) {
        var updates: [FileUpdate] = []
        var moves: [FileMove] = []
        var renditions: [RenditionUpdate] = []
        var unlisted: [(FilePath, String)] = []
        var figures = ScanTally.Figures()
        var (found, done) = (0, 0)
        for handed in batch {
            var (outcome, counted): (Outcome, Job.Counted?) = (handed, nil)
            if case .counted(let inner, let already) = handed { (outcome, counted) = (inner, already) }
            // A file counted already is done already; the walk's own outcomes say how many they are.
            if counted == nil && outcome.isFile { done += 1 }
            switch outcome {
            case .update(let update, let change):
                updates.append(update)
                if counted == .unchanged { figures.repairsReadAgain += 1 }
                switch change {
                case .new: figures.recorded.new += 1
                case .changed: figures.recorded.changed += 1
                case .reread: figures.recorded.reread += 1
                }
                switch update.content {
                case .photo(let metadata, let warnings, _):
                    if !(metadata.warnings + warnings).isEmpty { figures.recorded.warnings += 1 }
                case .failed(_, let error, _):
                    figures.recorded.errors += 1
                    logger.info("\(update.path): \(error.reason)")
                case .unsupported:
                    figures.recorded.unsupported += 1
                }
            case .renditions(let update, let rerendered):
                renditions.append(update)
                if counted == nil { figures.recorded.unchanged += 1 }
                if rerendered && counted != .moved { figures.recorded.rerendered += 1 }
            case .move(let move):
                moves.append(move)
                figures.recorded.moved += 1
            case .retryLater(let path, let reason):
                if counted == .unchanged { figures.repairsReadAgain += 1 }
                figures.recorded.errors += 1
                logger.error("\(path): \(reason); will retry on the next scan")
            case .vanished(let path, let root):
                // Deleted since the walk, or gone with its root: either way there is nothing to record.
                if !run.roots.check(root) { logger.info("\(path): vanished with its photo folder") }
            case .seen(let files, let unchanged):
                found += files
                done += unchanged
                figures.recorded.found += files
                figures.recorded.unchanged += unchanged
            case .unlisted(let path, let reason):
                unlisted.append((path, reason))
                figures.recorded.unlisted += 1
            case .counted:
                break  // only ever one level deep: the workers wrap what they make
            }
        }
        for (path, reason) in unlisted { try index.recordWalkError(scanID: run.id, path: path, reason: reason) }
        // A batch of the walk's counts alone writes nothing: an unchanged rescan opens no transaction.
        if !(updates.isEmpty && moves.isEmpty && renditions.isEmpty) {
            try index.apply(updates, moves: moves, renditions: renditions, scanID: run.id)
        }
        run.tally.record { total in
            total.recorded.add(figures.recorded)
            total.repairsReadAgain += figures.repairsReadAgain
        }
        scanner.progress.update { snapshot in
            snapshot.found += found
            snapshot.done += done
            snapshot.errors += figures.recorded.errors + figures.recorded.unlisted
        }
    }
}
