import Foundation
import Logging
import Synchronization
import SystemPackage
import TesseraAnalysis
import TesseraConfiguration
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraPlaces
import TesseraSystem

/// What a scan does to the index beside its files: stacks and copies decided again, dates
/// resolved in a new time zone, the file checked after a crash.
extension LibraryScanner {
    /// Decides again the stacks and copies of what changed (docs/DUPLICATES.md), and logs how.
    ///
    /// A failure leaves them as they were, and what changed pending: it is logged, and the
    /// scan, whose files are recorded, is not failed for it (the next scan tries again).
    func refreshGroups() {
        do throws(IndexError) {
            try decideGroups()
        } catch {
            logger.error("cannot decide stacks and copies: \(error); the next scan tries again")
        }
    }

    private func decideGroups() throws(IndexError) {
        progress.update { $0.phase = .grouping }
        let started = ContinuousClock.now
        let renderer = Renderer(
            options: configuration.rendering, pool: MemoryPool(share: configuration.rendering.memoryLimit, workers: 1))
        let refresh = try index.refreshGroups(
            colourLimit: PerceptualHash.colourLimit, colours: PerceptualHash.colours(placeholder:)
        ) { renditions in
            // A burst's frame at `Sharpness.side`, from its smallest fit rendition that covers it.
            let fits = renditions.filter { $0.spec.kind == .fit }.sorted { $0.width * $0.height < $1.width * $1.height }
            guard let fit = fits.first(where: { max($0.width, $0.height) >= Sharpness.side }) ?? fits.last else {
                return nil
            }
            let spec = RenditionSpec.fit(Sharpness.side)
            return (try? renderer.render(file: FilePath(fit.path), specs: [], keeping: [spec], placeholder: false))
                .flatMap { $0.images[spec] }.map(Sharpness.measure)
        }
        guard refresh.ran else { return }
        let around =
            refresh.whole
            ? "over the whole library"
            : "around \(Wording.count(refresh.changedFiles, "changed file"))"
                + (refresh.mended ? " and the groups of files gone" : "")
        logger.info(
            "stacks and copies decided again \(around) in \(Wording.duration(started.duration(to: .now).seconds))")
    }

    /// Names the places of the photos whose position or words are new or changed (docs/PLACES.md),
    /// from the index alone; without the place data, says so once (positions name no place until
    /// it is installed, and the photos are named again then).
    func refreshPlaces() {
        do throws(IndexError) {
            if case .failure(let error) = places.data, try index.pendingPlaces() > 0,
                !saidNoPlaces.exchange(true, ordering: .relaxed)
            {
                let why = "no place names from positions: the place data \(error)"
                let until = "places come from the photos' own words and configured corrections until it is installed"
                logger.warning("\(why); \(until)")
            }
            let started = ContinuousClock.now
            let refresh = try index.refreshPlaces(data: places.identity) { places.place($0) }
            guard refresh.photos > 0 else { return }
            let took = Wording.duration(started.duration(to: .now).seconds)
            logger.info("places named for \(refresh.named) of \(refresh.photos) new or changed photos in \(took)")
        } catch {
            logger.error("cannot name places: \(error); the next scan tries again")
        }
    }

    /// Gives the faces found since the last scan their people (docs/PEOPLE.md), from the index alone.
    func groupFaces() {
        do throws(IndexError) {
            var started = ContinuousClock.now
            let fitted = try index.fitFaceBuckets()
            if fitted > 0 {
                let took = Wording.duration(started.duration(to: .now).seconds)
                logger.info("the index over the descriptors of \(Wording.count(fitted, "face")) made again in \(took)")
                started = .now
            }
            let grouped = try index.groupFaces(batch: 256)
            guard grouped > 0 else { return }
            let took = Wording.duration(started.duration(to: .now).seconds)
            logger.info("\(Wording.count(grouped, "face")) given a person in \(took)")
        } catch {
            logger.error("cannot group faces: \(error); the next scan tries again")
        }
    }

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
                    """
                    the time zone is \(zone.identifier) now, not \(recorded ?? ""): \
                    \(changed) capture dates resolved again
                    """)
            }
            return changed
        } catch {
            throw ScanError(writingIndex: error)
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
                    """
                    the index file was damaged (\(problems.count) problems, such as: \(problems[0])); \
                    its lookup tables were rebuilt from its rows
                    """)
            }
        } catch {
            throw ScanError(error.code == .full ? .diskFull : .index, error.description)
        }
    }
}
