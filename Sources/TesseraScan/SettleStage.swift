import Foundation
import Logging
import SystemPackage
import TesseraConfiguration
import TesseraDesktop
import TesseraImage
import TesseraIndex
import TesseraSystem

/// The scan's last stage, once the writer has finished.
///
/// What a completed walk did not see becomes missing, offline or (after the grace period) gone,
/// and cache files no row refers to are deleted. It counts what it decides: missing, offline,
/// removed, moved across disks.
struct SettleStage {
    let scanner: LibraryScanner
    let tally: ScanTally

    private var configuration: Configuration { scanner.configuration }
    private var index: any PhotoStore { scanner.index }
    private var desktop: DesktopThumbnailCache? { scanner.desktop }
    private var logger: Logger { scanner.logger }
    private var now: Date { scanner.now() }

    /// Settles what a completed walk of `roots` did not see; nothing unseen is deleted at once.
    ///
    /// - A root where the walk found no file is *offline* (an unmounted disk leaves its empty
    ///   mount point): everything under it is kept as it is.
    /// - An unseen file on a device the walk met (its directory's, or one its seen neighbours
    ///   were indexed from) is gone from a present disk: it becomes missing, or loses its row at
    ///   once when its content is indexed elsewhere (moved across disks).
    /// - An unseen file on a device the walk never met lies on a disk that is not mounted any
    ///   more below the root: it is kept, and the folder is reported offline.
    /// - With `retireUnconfigured`, files under no root at all (a root taken out of the
    ///   configuration) become missing too.
    /// - Files missing for longer than the grace period lose their rows and renditions.
    ///
    /// - Returns: the folders found offline.
    func settleVanished(
        under roots: [FilePath], sightings: Sightings, scanID: Int64, retireUnconfigured: Bool
    ) throws(IndexError) -> [FilePath] {
        var offline: [FilePath] = []
        var online: [FilePath] = []
        for root in roots {
            if sightings.files[root, default: 0] > 0 {
                online.append(root)
            } else if try index.hasFiles(under: root) {
                logger.warning(
                    """
                    \(root): offline: the folder is empty but photos are indexed there (an unmounted disk?); \
                    they are kept until it is back
                    """)
                offline.append(root)
            } else {
                // Nothing to keep, but an empty root may be a disk not mounted yet: say so, and
                // retire nothing elsewhere on its account.
                logger.warning("\(root): offline: the folder holds no file (an unmounted disk?)")
                offline.append(root)
            }
        }
        // Rows this scan did not write are the unchanged files, the kept ones, files whose
        // write is retried later, missing files and vanished ones. When the first two account
        // for all but the missing, nothing vanished and the pass over every id can be skipped.
        var notWritten = 0
        for root in online {
            notWritten += try index.fileCount(under: root, excludingScan: scanID) - index.missingCount(under: root)
        }
        let accounted = tally.counts.unchanged + sightings.keptCount
        if notWritten != accounted {
            var unmounted: [UInt64: (count: Int, place: [UInt8])] = [:]
            // Folders a disk the walk met is mounted on, with the device each covers: a file
            // indexed there from that device (written into the bare mount point while the disk
            // was away) is hidden by the disk now, not on a disk that is away.
            let covered: [(point: [UInt8], device: UInt64)] = sightings.mounts.compactMap { device, point in
                guard sightings.devices.contains(device),
                    let under = try? FileSystem.status(of: point.removingLastComponent()).device, under != device
                else { return nil }
                return (point.rawBytes + [UInt8(ascii: "/")], under)
            }
            for root in online {
                try index.forEachFile(under: root, excludingScan: scanID) { page in
                    var gone: [Int64] = []
                    for file in page where !sightings.ids.contains(file.id) && !sightings.kept.contains(file.id) {
                        let hidden = covered.contains {
                            $0.device == file.device && file.pathBytes.starts(with: $0.point)
                        }
                        guard !sightings.devices.contains(file.device) && !hidden else {
                            gone.append(file.id)
                            continue
                        }
                        let path = [UInt8](file.pathBytes)
                        let place = Self.commonFolder(
                            unmounted[file.device]?.place
                                ?? Array(path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)]), path)
                        unmounted[file.device] = ((unmounted[file.device]?.count ?? 0) + 1, place)
                    }
                    let (moved, missing) = try index.retire(ids: gone)
                    tally.record { total in
                        total.recorded.missing += missing
                        total.newThatMoved += moved
                    }
                }
            }
            for (count, place) in unmounted.values.sorted(by: { $0.place.lexicographicallyPrecedes($1.place) }) {
                let folder = FilePath(rawBytes: place)
                logger.warning(
                    """
                    \(folder): offline: \(count) indexed files there lie on a disk that is not mounted now; \
                    they are kept until it is back
                    """)
                offline.append(folder)
                tally.record { $0.recorded.keptOffline += count }
            }
        }
        if retireUnconfigured && offline.isEmpty {
            let retired = try index.markMissing(outside: roots)
            if retired > 0 {
                logger.notice(
                    """
                    \(retired) indexed files lie outside the configured folders; they are hidden now and removed \
                    after \(configuration.keepMissingDays) days (or by tessera prune)
                    """)
            }
            tally.record { $0.recorded.missing += retired }
        }
        let expired = try index.missingFiles(
            before: now.addingTimeInterval(-Double(configuration.keepMissingDays) * 86_400))
        try index.delete(ids: expired.map(\.id))
        for file in expired { desktop?.remove(file.path) }
        tally.record { $0.recorded.removed += expired.count }
        return offline
    }

    /// The deepest folder that holds `folder` (or is it) and `file`: paths as bytes.
    static func commonFolder(_ folder: [UInt8], _ file: [UInt8]) -> [UInt8] {
        let withSlash = folder + [UInt8(ascii: "/")]
        let shared = zip(withSlash, file).prefix { $0 == $1 }.count
        return Array(withSlash[..<(withSlash[..<shared].lastIndex(of: UInt8(ascii: "/")) ?? 0)])
    }

    /// Deletes the rendition files the index has scheduled for deletion, and with `sweep`,
    /// every cache file no row refers to (what a crash between rendering and committing leaves).
    ///
    /// Runs when no worker is writing, so a file cannot be deleted while a copy of the same
    /// content is being rendered to it. A failure only leaves files for the next scan.
    func removeCacheOrphans(_ cache: RenditionCache, sweep: Bool) {
        do {
            let pending = try index.pendingCacheDeletions()
            try index.forgetCacheDeletions(cache.remove(pending))
        } catch {
            logger.warning("cannot delete unused renditions now (\(error)); the next scan will")
        }
        guard sweep else { return }
        let removed = cache.sweep { [index] paths in try? index.referencedPaths(among: paths) }
        if removed > 0 { logger.notice("removed \(removed) rendition files no photo refers to") }
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
}
