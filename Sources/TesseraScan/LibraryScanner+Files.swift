import Foundation
import Logging
import Synchronization
import SystemPackage
import TesseraConfiguration
import TesseraDesktop
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSystem

extension LibraryScanner {
    /// Reads one new or changed file: metadata, content hash, renditions (unless the cache
    /// already holds them for this exact content and these settings); or, for an unchanged
    /// photo whose renditions no longer match the configuration, brings them up to date.
    ///
    /// The file is opened once, without blocking and without following a link the walk did
    /// not follow, and must still be a regular file; the identity recorded is that of the
    /// file actually read.
    func process(_ job: Job, renderer: Renderer, cache: RenditionCache, full: Bool, tally: ScanTally) -> Outcome {
        let outcome = read(job, renderer: renderer, cache: cache, full: full, tally: tally)
        // A file that cannot be read gets the desktop cache's failure entry, so that file
        // managers need not try it either.
        if let desktop, case .update(let update, _) = outcome, case .failed = update.content {
            do throws(PhotoError) {
                try desktop.writeFailure(of: .init(path: update.path, identity: update.identity))
            } catch {
                logger.warning("\(error)")
            }
        }
        return outcome
    }

    private func read(_ job: Job, renderer: Renderer, cache: RenditionCache, full: Bool, tally: ScanTally) -> Outcome {
        if let known = job.known {
            return refresh(job, known, renderer: renderer, cache: cache, tally: tally)
        }
        let context = DateContext(timeZone: configuration.timeZone ?? .current)
        // Read before the photo: an edit between the two is seen by the next scan, whose stamp
        // differs. The walk's stamp is recorded even when the sidecar cannot be read, so that
        // one too large to be XMP is not read again by every scan; one gone since is not seen
        // by the next walk, whose missing stamp differs too.
        let sidecar = job.sidecar.flatMap { found in
            Sidecar.read(
                at: FilePath(rawBytes: job.path.removingLastComponent().rawBytes + [UInt8(ascii: "/")] + found.name))
        }
        let sidecarProblem = job.sidecar.flatMap { found in
            sidecar == nil ? Sidecar.unreadable(String(decoding: found.name, as: UTF8.self)) : nil
        }
        do throws(PhotoError) {
            return try FileReader.withPhoto(at: job.path, followSymlinks: configuration.followSymlinks) {
                (reader) throws(PhotoError) -> Outcome in
                let identity = reader.status.map { FileIdentity($0) } ?? job.identity
                var metadata: PhotoMetadata
                do throws(PhotoError) {
                    metadata = try MetadataReader.read(reader, sidecar: sidecar, context: context)
                    sidecarProblem.map { metadata.warnings.append($0) }
                } catch  where error.code == .notAnImage {
                    return update(job, identity, .unsupported(reason: error.reason))
                } catch  where error.code.isTransient {
                    throw error
                } catch {
                    return update(
                        job, identity, .failed(format: ImageFormat.identify(reader.prefix), error: error, facts: nil)
                    )
                }
                do throws(PhotoError) {
                    return try render(
                        reader, job: job, identity: identity, metadata: metadata, renderer: renderer, cache: cache,
                        full: full, tally: tally)
                } catch  where error.code.isTransient {
                    throw error
                } catch {
                    return update(job, identity, .failed(format: metadata.format, error: error, facts: metadata.facts))
                }
            }
        } catch {
            return outcome(job, error)
        }
    }

    private func render(
        _ reader: borrowing FileReader, job: Job, identity: FileIdentity, metadata: PhotoMetadata,
        renderer: Renderer, cache: RenditionCache, full: Bool, tally: ScanTally
    ) throws(PhotoError) -> Outcome {
        let hash = XXH64.hex(try reader.photoContentHash())
        let key = configuration.renderSettings.cacheKey(contentHash: hash, metadata: metadata)
        let specs = configuration.renditions
        // A copy of indexed content (or the same file touched) takes the renditions it already has,
        // and its desktop thumbnails are the other photo's, their text rewritten (when that one
        // has them all; else it is decoded).
        if !full, let (entries, thumbhash, source) = try? index.renditions(key: key, covering: specs),
            entries.allSatisfy({ cache.contains(FilePath($0.path)) }),
            desktop?.copy(from: source, to: .init(path: job.path, identity: identity)) ?? true
        {
            let renditions = PhotoRenditions(
                contentHash: hash, key: key, renditions: entries, thumbhash: thumbhash,
                settings: configuration.renderSettings.recorded)
            return update(job, identity, .photo(metadata.facts, warnings: [], renditions: renditions))
        }
        let rendered = try renderer.render(reader, metadata: metadata, specs: specs, keeping: desktop?.specs ?? [])
        let entries: [RenditionEntry]
        do throws(SystemError) {
            entries = try write(rendered, key: key, cache: cache, replacing: full)
        } catch {
            return cacheFailure(job, error, tally: tally)
        }
        let desktopWritten = writeDesktopThumbnails(rendered, of: job.path, identity: identity)
        let renditions = PhotoRenditions(
            contentHash: hash, key: key, renditions: entries, thumbhash: rendered.thumbhash,
            settings: desktopWritten
                ? configuration.renderSettings.recorded : configuration.renderSettings.recordedWithoutDesktop,
            posterTime: rendered.posterTime)
        return update(job, identity, .photo(metadata.facts, warnings: rendered.warnings, renditions: renditions))
    }

    /// Brings the renditions of an unchanged photo up to date with the configuration: renders
    /// only the kinds and sizes it lacks (all of them when a setting that changes pixels
    /// changed, since their key changes), and drops those no longer configured.
    ///
    /// The photo's
    /// metadata is neither read into the index nor written again.
    private func refresh(
        _ job: Job, _ known: Job.Known, renderer: Renderer, cache: RenditionCache, tally: ScanTally
    ) -> Outcome {
        let specs = configuration.renditions
        let settings = configuration.renderSettings.recorded
        let existing: [RenditionEntry]
        do throws(IndexError) {
            existing = try index.renditions(of: [known.id])[known.id] ?? []
        } catch {
            return .retryLater(job.path, reason: "cannot read the index: \(error)")
        }
        func missing(key: String) -> [RenditionSpec] {
            guard key == known.rendering.key else { return specs }
            return specs.filter { spec in
                !existing.contains { $0.spec == spec && cache.contains(FilePath($0.path)) }
            }
        }
        /// Only the rows change: no rendition is missing under an unchanged key.
        func recordOnly() -> Outcome {
            .renditions(
                RenditionUpdate(
                    photoID: known.id, key: known.rendering.key, renditions: [], configured: Set(specs), thumbhash: nil,
                    settings: settings),
                rerendered: false, counted: job.counted)
        }
        // The desktop cache was turned on or given other sizes since the photo was rendered, or
        // its thumbnails are gone from it.
        let needsDesktop =
            desktop != nil
            && (job.desktopMissing
                || !configuration.renderSettings.hasDesktopThumbnails(asRecorded: known.rendering.settings))
        // Same pixel settings, same key: the file need not even be opened when nothing is missing.
        let samePixels = configuration.renderSettings.samePixels(asRecorded: known.rendering.settings)
        if samePixels && known.rendering.hasThumbhash && missing(key: known.rendering.key).isEmpty && !needsDesktop {
            return recordOnly()
        }
        let context = DateContext(timeZone: configuration.timeZone ?? .current)
        do throws(PhotoError) {
            return try FileReader.withPhoto(at: job.path, followSymlinks: configuration.followSymlinks) {
                (reader) throws(PhotoError) -> Outcome in
                let metadata = try MetadataReader.read(reader, context: context)
                let key = configuration.renderSettings.cacheKey(
                    contentHash: known.rendering.contentHash, metadata: metadata)
                // Other pixel settings that do not concern this photo (a profile it lacks, previews
                // it has none of) leave its key, and so its renditions, as they are.
                if key == known.rendering.key && known.rendering.hasThumbhash && missing(key: key).isEmpty
                    && !needsDesktop
                {
                    return recordOnly()
                }
                let rendered: Renderer.Rendered
                do throws(PhotoError) {
                    rendered = try renderer.render(
                        reader, metadata: metadata, specs: missing(key: key), keeping: desktop?.specs ?? [])
                } catch  where error.code.isTransient {
                    throw error
                } catch {
                    // The same bytes no longer render under these settings (a lower memory
                    // limit): a failure like any other, recorded over the photo's row.
                    return update(
                        job, job.identity, .failed(format: metadata.format, error: error, facts: metadata.facts))
                }
                let entries: [RenditionEntry]
                do throws(SystemError) {
                    entries = try write(rendered, key: key, cache: cache, replacing: false)
                } catch {
                    return cacheFailure(job, error, tally: tally)
                }
                let desktopWritten = writeDesktopThumbnails(rendered, of: job.path, identity: job.identity)
                return .renditions(
                    RenditionUpdate(
                        photoID: known.id, key: key, renditions: entries, configured: Set(specs),
                        thumbhash: rendered.thumbhash,
                        settings: desktopWritten ? settings : configuration.renderSettings.recordedWithoutDesktop),
                    rerendered: true, counted: job.counted)
            }
        } catch {
            return outcome(job, error)
        }
    }

    /// Writes the desktop cache's thumbnails of the file at `path` from `rendered`'s kept images;
    /// a failure is logged, not the photo's.
    ///
    /// Returns false when they could not all be written
    /// (the photo then records that it lacks them, and the next scan tries again).
    private func writeDesktopThumbnails(
        _ rendered: Renderer.Rendered, of path: FilePath, identity: FileIdentity
    ) -> Bool {
        guard let desktop else { return true }
        do throws(PhotoError) {
            try desktop.write(rendered, of: .init(path: path, identity: identity))
            return true
        } catch {
            logger.warning("\(error)")
            return false
        }
    }

    /// Writes the renditions of `rendered` into the cache under `key`.
    ///
    /// A file already at a rendition's path has the same pixels (the key names the content
    /// and every setting that changes them) and is whole (files are renamed into place): it
    /// is kept, as a scan killed before committing it left it, unless `replacing` (`--full`,
    /// which repairs the cache). A rendition identical to one written before it (a photo
    /// smaller than several sizes comes out at its own size in each) is recorded at that one's
    /// path: one file, not one a size (rows share paths as copies do; a file is deleted only
    /// once no row refers to it).
    private func write(
        _ rendered: Renderer.Rendered, key: String, cache: RenditionCache, replacing: Bool
    ) throws(SystemError) -> [RenditionEntry] {
        var entries: [RenditionEntry] = []
        for rendition in rendered.renditions {
            if let same = entries.first(where: { $0.width == rendition.width && $0.height == rendition.height }),
                let earlier = rendered.renditions.first(where: { $0.spec == same.spec }),
                earlier.bytes == rendition.bytes
            {
                entries.append(
                    RenditionEntry(
                        spec: rendition.spec, width: rendition.width, height: rendition.height,
                        bytes: rendition.bytes.count,
                        path: same.path, source: rendition.source))
                continue
            }
            let path = cache.path(key: key, spec: rendition.spec, format: configuration.rendering.format)
            if replacing || !cache.contains(path) {
                try cache.write(rendition.bytes, to: path)
            }
            entries.append(
                RenditionEntry(
                    spec: rendition.spec, width: rendition.width, height: rendition.height,
                    bytes: rendition.bytes.count,
                    path: path.string, source: rendition.source))
        }
        return entries
    }

    /// What a rendition that could not be written becomes: tried again by the next scan.
    private func cacheFailure(_ job: Job, _ error: SystemError, tally: ScanTally) -> Outcome {
        // A full cache disk fails every file alike: stop, and say why, rather than record a
        // whole library of errors.
        if error.isNoSpace {
            tally.fail(ScanError(.diskFull, "cannot write renditions: \(error)"))
        }
        return .retryLater(job.path, reason: error.description)
    }

    /// What a failure to open or read the file as a whole becomes.
    private func outcome(_ job: Job, _ error: PhotoError) -> Outcome {
        switch error.code {
        case .vanished: .vanished(job.path, root: job.root)
        case .notAFile: update(job, job.identity, .unsupported(reason: error.reason))
        default: update(job, job.identity, .failed(format: .unsupported, error: error, facts: nil))
        }
    }

    func update(_ job: Job, _ identity: FileIdentity, _ content: FileUpdate.Content) -> Outcome {
        .update(
            FileUpdate(
                path: job.path, albumPath: job.albumPath, root: job.root, identity: identity, sidecar: job.sidecar,
                content: content),
            // A file rewritten between the walk and the read changed after all.
            job.change == .reread && identity != job.identity ? .changed : job.change)
    }

    /// Writes one batch of outcomes in one transaction.
    ///
    /// Thumbnails the batch leaves unreferenced are not deleted here: the index records
    /// them in the same transaction, and `removeCacheOrphans` deletes them once no worker
    /// can be writing a file of the same content.
    func commit(_ batch: [Outcome], scanID: Int64, roots: RootSet, tally: ScanTally) throws(IndexError) {
        var updates: [FileUpdate] = []
        var moves: [FileMove] = []
        var renditions: [RenditionUpdate] = []
        var delta = ScanCounts()
        var uncounted = 0
        for outcome in batch {
            switch outcome {
            case .update(let update, let change):
                updates.append(update)
                switch change {
                case .new: delta.new += 1
                case .changed: delta.changed += 1
                case .reread: delta.reread += 1
                }
                switch update.content {
                case .photo(let metadata, let warnings, _):
                    if !(metadata.warnings + warnings).isEmpty { delta.warnings += 1 }
                case .failed(_, let error, _):
                    delta.errors += 1
                    logger.info("\(update.path): \(error.reason)")
                case .unsupported:
                    delta.unsupported += 1
                }
            case .renditions(let update, let rerendered, let counted):
                renditions.append(update)
                if counted {
                    uncounted += 1
                } else {
                    delta.unchanged += 1
                    if rerendered { delta.rerendered += 1 }
                }
            case .move(let move):
                moves.append(move)
                delta.moved += 1
            case .retryLater(let path, let reason):
                delta.errors += 1
                logger.error("\(path): \(reason); will retry on the next scan")
            case .vanished(let path, let root):
                // Deleted since the walk, or gone with its root: either way there is nothing to record.
                if !roots.check(root) { logger.info("\(path): vanished with its photo folder") }
            }
        }
        try index.apply(updates, moves: moves, renditions: renditions, scanID: scanID)
        tally.counts.withLock { total in
            total.unchanged += delta.unchanged
            total.rerendered += delta.rerendered
            total.new += delta.new
            total.changed += delta.changed
            total.reread += delta.reread
            total.moved += delta.moved
            total.errors += delta.errors
            total.unsupported += delta.unsupported
            total.warnings += delta.warnings
        }
        progress.update { snapshot in
            snapshot.done += batch.count - uncounted
            snapshot.errors += delta.errors
        }
    }

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
        under roots: [FilePath], sightings: Sightings, scanID: Int64, tally: ScanTally, retireUnconfigured: Bool
    ) throws(IndexError) -> [FilePath] {
        var offline: [FilePath] = []
        var online: [FilePath] = []
        for root in roots {
            if sightings.files[root, default: 0] > 0 {
                online.append(root)
            } else if try index.hasFiles(under: root) {
                logger.warning(
                    "\(root): offline: the folder is empty but photos are indexed there (an unmounted disk?); they are kept until it is back"
                )
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
        let accounted = tally.counts.withLock { $0.unchanged } + tally.kept.withLock { $0 }
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
                    tally.counts.withLock { total in
                        total.missing += missing
                        total.moved += moved
                        total.new -= min(total.new, moved)
                    }
                }
            }
            for (count, place) in unmounted.values.sorted(by: { $0.place.lexicographicallyPrecedes($1.place) }) {
                let folder = FilePath(rawBytes: place)
                logger.warning(
                    "\(folder): offline: \(count) indexed files there lie on a disk that is not mounted now; they are kept until it is back"
                )
                offline.append(folder)
                tally.counts.withLock { $0.keptOffline += count }
            }
        }
        if retireUnconfigured && offline.isEmpty {
            let retired = try index.markMissing(outside: roots)
            if retired > 0 {
                logger.notice(
                    "\(retired) indexed files lie outside the configured folders; they are hidden now and removed after \(configuration.keepMissingDays) days (or by tessera prune)"
                )
            }
            tally.counts.withLock { $0.missing += retired }
        }
        let expired = try index.missingFiles(
            before: now().addingTimeInterval(-Double(configuration.keepMissingDays) * 86_400))
        try index.delete(ids: expired.map(\.id))
        for file in expired { desktop?.remove(file.path) }
        tally.counts.withLock { $0.removed += expired.count }
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
}
