import Logging
import SystemPackage
import TesseraDesktop
import TesseraIndex
import TesseraSystem

/// A source of jobs beside the walk: unchanged photos that lack what the walk cannot see.
///
/// Rendition files and desktop thumbnails gone from their caches. Each feeds the workers' queue as the walk does, with
/// jobs counted already (`Job.Counted.unchanged`), so the writer adds only what they re-rendered.
protocol RepairSource {
    /// Queues the photos seen and not queued yet that lack what this source repairs.
    func feed(_ run: ScanRun, _ sightings: inout Sightings, scanner: LibraryScanner) throws(IndexError)
}

extension RepairSource {
    func job(_ file: IndexedFile, root: FilePath, rendering: IndexedFile.Rendering) -> LibraryScanner.Job {
        var job = LibraryScanner.Job(
            path: file.path, albumPath: file.path.removingLastComponent(), root: root, identity: file.identity,
            change: .reread, known: .init(id: file.id, rendering: rendering))
        job.counted = .unchanged
        return job
    }
}

/// Unchanged photos whose rendition files the cache check found gone.
///
/// The workers render what each lacks. Photos already on their way there make their missing renditions anyway.
struct RenditionRepair: RepairSource {
    /// Recorded rendition paths with no file in the cache.
    let missing: [String]

    func feed(_ run: ScanRun, _ sightings: inout Sightings, scanner: LibraryScanner) throws(IndexError) {
        guard !missing.isEmpty else { return }
        var queued = 0
        for file in try scanner.index.filesRendered(at: missing)
        where sightings.ids.contains(file.id) && !sightings.queued.contains(file.id) {
            let path = file.path
            guard let rendering = file.rendering,
                let root = run.roots.paths.first(where: { path.starts(with: $0) && path != $0 })
            else { continue }
            scanner.hand(job(file, root: root, rendering: rendering), run, alone: &sightings.alone)
            sightings.queued.insert(file.id)
            queued += 1
        }
        guard queued > 0 else { return }
        scanner.logger.notice(
            """
            \(Wording.count(missing.count, "rendition file")) gone from the cache; \
            rendering them again (\(Wording.count(queued, "photo")))
            """)
    }
}

/// Photos whose desktop thumbnails are gone (a user emptied `~/.cache/thumbnails`, GNOME's
/// housekeeping removed old ones), decoded again for them; each also makes any rendition file it
/// lacks.
///
/// A rescan must stay near a bare walk's speed, so the photos are looked at only when one of
/// the cache's folders held fewer files at the start of this scan (`counts`) than at the end
/// of the last one. Thumbnails deleted while others were added meanwhile go unnoticed until
/// the next drop.
struct DesktopRepair: RepairSource {
    let desktop: DesktopThumbnailCache
    /// The cache's folders before any write of this scan.
    let counts: DesktopThumbnailCache.Counts

    func feed(_ run: ScanRun, _ sightings: inout Sightings, scanner: LibraryScanner) throws(IndexError) {
        let recorded = DesktopThumbnailCache.Counts(recorded: try scanner.index.state(StateKey.desktopThumbnailCounts))
        guard counts.dropped(since: recorded, in: desktop.sizes) else { return }
        let listing = desktop.listing()
        var queued = 0
        for root in run.roots.paths {
            try scanner.index.forEachRenderedFile(under: root) { files in
                for file in files where sightings.ids.contains(file.id) && !sightings.queued.contains(file.id) {
                    guard let rendering = file.rendering, !desktop.hasEveryThumbnail(of: file.path, in: listing) else {
                        continue
                    }
                    sightings.queued.insert(file.id)
                    var job = job(file, root: root, rendering: rendering)
                    job.desktopMissing = true
                    scanner.hand(job, run, alone: &sightings.alone)
                    queued += 1
                }
            }
        }
        guard queued > 0 else { return }
        scanner.logger.notice(
            "desktop thumbnails gone from \(desktop.root): making them again (\(Wording.count(queued, "photo")))")
    }

    /// Records how many files the desktop cache's folders hold, for the next scan to compare.
    static func recordCounts(of desktop: DesktopThumbnailCache, in index: any PhotoStore, logger: Logger) {
        do throws(IndexError) {
            try index.setState(StateKey.desktopThumbnailCounts, desktop.entryCounts().recorded)
        } catch {
            logger.warning("cannot record the desktop cache's size: \(error)")
        }
    }
}
