import Logging
import SystemPackage
import TesseraConfiguration
import TesseraFacts
import TesseraIndex
import TesseraMetadata
import TesseraSystem

extension LibraryScanner {
    /// Runs `body`, the read of `job`'s file, with the file written into the journal's `slot`
    /// for as long as it is read: a crash meanwhile leaves it there for the next scan.
    func read(_ job: Job, journalSlot slot: Int, alone: Bool, journal: ReadJournal, _ body: () -> Outcome) -> Outcome {
        do throws(SystemError) {
            try journal.begin(job, slot: slot, alone: alone)
        } catch {
            logger.warning("\(error): a crash while reading \(job.path) would not be remembered")
        }
        let outcome = body()
        do throws(SystemError) {
            try journal.end(slot: slot)
        } catch {
            logger.warning("\(error)")
        }
        return job.counting(outcome)
    }

    /// Hands `job` to the workers, unless a crashed scan left its file in the journal (`divert`):
    /// every job goes this way, the walk's and the repairs' alike.
    func hand(_ job: Job, _ run: ScanRun, alone: inout [Job]) {
        if run.journal.isEmpty || !divert(job, journal: run.journal, alone: &alone, outcomes: run.outcomes) {
            run.jobs.push(job)
        }
    }

    /// Where a file goes when a crashed scan left it in the journal: read again alone
    /// after the others (it was read among others), or recorded as failed unread (it was read
    /// alone).
    ///
    /// Returns false for a file the journal does not hold, which goes to the workers.
    func divert(_ job: Job, journal: ReadJournal, alone: inout [Job], outcomes: BoundedQueue<Outcome>) -> Bool {
        guard let entry = journal.entry(for: job) else { return false }
        guard entry.alone else {
            logger.warning("\(job.path): the previous scan stopped while reading it among others; reading it alone")
            alone.append(job)
            return true
        }
        logger.error(
            """
            \(job.path): the previous scan stopped while reading it alone; it is recorded as failed and not read \
            again until it changes
            """)
        // Only its first bytes, to name its format: no parser runs on it.
        let format =
            (try? FileReader.withPhoto(at: job.path, followSymlinks: configuration.followSymlinks) {
                (reader) throws(PhotoError) -> ImageFormat in ImageFormat.identify(reader.prefix)
            }) ?? .unsupported
        let error = PhotoError(
            .crashed, path: job.path,
            "Tessera stopped while reading this file, twice, the second time reading it alone; it is skipped until "
                + "it changes (or tessera scan --full)")
        outcomes.push(job.counting(job.update(job.identity, .failed(format: format, error: error, facts: nil))))
        settle(job.path, in: journal)
        return true
    }

    /// Forgets what the journal holds of `path`, now read or recorded.
    func settle(_ path: FilePath, in journal: ReadJournal) {
        do throws(SystemError) {
            try journal.settle(path)
        } catch {
            logger.warning("\(error)")
        }
    }
}
