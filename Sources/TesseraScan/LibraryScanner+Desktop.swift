import Logging
import Synchronization
import SystemPackage
import TesseraDesktop
import TesseraIndex
import TesseraSystem

extension LibraryScanner {
    /// Queues the photos whose desktop thumbnails are gone (a user emptied `~/.cache/thumbnails`,
    /// GNOME's housekeeping removed old ones), to be decoded again for them.
    ///
    /// A rescan must stay near a bare walk's speed, so the photos are looked at only when one of
    /// the cache's folders held fewer files at the start of this scan (`counts`) than at the end
    /// of the last one. Thumbnails deleted while others were added meanwhile go unnoticed until
    /// the next drop. A photo queued here also makes any rendition file it lacks.
    func queueDesktopRepairs(
        _ desktop: DesktopThumbnailCache, counts: DesktopThumbnailCache.Counts, _ run: ScanRun,
        sightings: inout Sightings
    ) throws(IndexError) {
        let (roots, tally) = (run.roots, run.tally)
        let recorded = DesktopThumbnailCache.Counts(recorded: try index.state(StateKey.desktopThumbnailCounts))
        guard counts.dropped(since: recorded, in: desktop.sizes) else { return }
        let listing = desktop.listing()
        var queued = 0
        for root in roots.paths {
            try index.forEachRenderedFile(under: root) { files in
                for file in files where sightings.ids.contains(file.id) && !sightings.queued.contains(file.id) {
                    guard let rendering = file.rendering, !desktop.hasEveryThumbnail(of: file.path, in: listing) else {
                        continue
                    }
                    sightings.queued.insert(file.id)
                    let path = file.path
                    let job = Job(
                        path: path, albumPath: path.removingLastComponent(), root: root, identity: file.identity,
                        change: .reread, known: .init(id: file.id, rendering: rendering), desktopMissing: true)
                    hand(job, run, alone: &sightings.alone)
                    queued += 1
                }
            }
        }
        guard queued > 0 else { return }
        // The walk counted them unchanged; the writer counts them again once their thumbnails are made.
        tally.counts.withLock { $0.unchanged -= queued }
        progress.update { $0.done -= queued }
        logger.notice(
            "desktop thumbnails gone from \(desktop.root): making them again (\(Wording.count(queued, "photo")))")
    }

    /// Records how many files the desktop cache's folders hold, for the next scan to compare.
    func recordDesktopCounts(_ desktop: DesktopThumbnailCache) {
        do throws(IndexError) {
            try index.setState(StateKey.desktopThumbnailCounts, desktop.entryCounts().recorded)
        } catch {
            logger.warning("cannot record the desktop cache's size: \(error)")
        }
    }
}
