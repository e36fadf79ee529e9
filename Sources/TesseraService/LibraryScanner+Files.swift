import Foundation
import Logging
import Synchronization
import SystemPackage
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSystem

extension LibraryScanner {
    /// Reads one new or changed file: metadata, content hash, thumbnails (unless the cache
    /// already holds them for this exact content and these settings).
    ///
    /// The file is opened once, without blocking and without following a link the walk did
    /// not follow, and must still be a regular file; the identity recorded is that of the
    /// file actually read.
    func process(_ job: Job, thumbnailer: Thumbnailer, cache: ThumbnailCache, full: Bool, tally: ScanTally) -> Outcome {
        let context = DateContext(timeZone: configuration.timeZone ?? .current)
        do throws(PhotoError) {
            return try FileReader.withFile(at: job.path, followSymlinks: configuration.followSymlinks) {
                (reader) throws(PhotoError) -> Outcome in
                let identity = reader.status.map { FileIdentity($0) } ?? job.identity
                let metadata: PhotoMetadata
                do throws(PhotoError) {
                    metadata = try MetadataReader.read(reader, context: context)
                } catch where error.code == .notAnImage {
                    return update(job, identity, .unsupported(reason: error.reason))
                } catch where error.code.isTransient {
                    throw error
                } catch {
                    return update(job, identity, .failed(format: ImageFormat.identify(reader.prefix), error: error, metadata: nil))
                }
                do throws(PhotoError) {
                    return try render(
                        reader, job: job, identity: identity, metadata: metadata, thumbnailer: thumbnailer, cache: cache,
                        full: full, tally: tally)
                } catch where error.code.isTransient {
                    throw error
                } catch {
                    return update(job, identity, .failed(format: metadata.format, error: error, metadata: metadata))
                }
            }
        } catch where error.code == .vanished {
            return .vanished(job.path, root: job.root)
        } catch where error.code == .notAFile {
            return update(job, job.identity, .unsupported(reason: error.reason))
        } catch {
            return update(job, job.identity, .failed(format: .unsupported, error: error, metadata: nil))
        }
    }

    private func render(
        _ reader: borrowing FileReader, job: Job, identity: FileIdentity, metadata: PhotoMetadata,
        thumbnailer: Thumbnailer, cache: ThumbnailCache, full: Bool, tally: ScanTally
    ) throws(PhotoError) -> Outcome {
        let hash = XXH64.hex(try reader.contentHash())
        let key = thumbnailKey(contentHash: hash)
        let sizes = configuration.thumbnailSizes
        let paths = sizes.map { cache.path(key: key, size: $0, format: configuration.thumbnail.format) }
        var warnings: [String] = []
        if full || !cache.contains(paths) {
            let rendered = try thumbnailer.render(reader, metadata: metadata, sizes: sizes)
            warnings = rendered.warnings
            for (size, path) in zip(sizes, paths) {
                guard let thumbnail = rendered.thumbnails[size] else { continue }
                do throws(SystemError) {
                    try cache.write(thumbnail.bytes, to: path)
                } catch {
                    // A full cache disk fails every file alike: stop, and say why, rather than
                    // record a whole library of errors.
                    if error.isNoSpace {
                        tally.fail(ScanError(.diskFull, "cannot write thumbnails: \(error)"))
                    }
                    return .retryLater(job.path, reason: error.description)
                }
            }
        }
        let photoSide = min(metadata.width, metadata.height)
        let entries = zip(sizes, paths).map { ThumbnailEntry(size: $0, side: min($0, photoSide), path: $1.string) }
        return update(job, identity, .photo(metadata, warnings: warnings, contentHash: hash, thumbnailKey: key, thumbnails: entries))
    }

    private func update(_ job: Job, _ identity: FileIdentity, _ content: FileUpdate.Content) -> Outcome {
        .update(
            FileUpdate(path: job.path, albumPath: job.albumPath, root: job.root, identity: identity, content: content),
            isNew: job.isNew)
    }

    /// The cache key: the content hash combined with every setting that changes the pixels.
    func thumbnailKey(contentHash: String) -> String {
        let options = configuration.thumbnail
        let background = [options.background.red, options.background.green, options.background.blue]
        let settings = "\(contentHash):\(options.format.rawValue):q\(options.quality):bg\(background):v1"
        return XXH64.hex(XXH64.hash(Array(settings.utf8)))
    }

    /// Writes one batch of outcomes in one transaction.
    ///
    /// Thumbnails the batch leaves unreferenced are not deleted here: the index records
    /// them in the same transaction, and `removeCacheOrphans` deletes them once no worker
    /// can be writing a file of the same content.
    func commit(_ batch: [Outcome], scanID: Int64, roots: RootSet, tally: ScanTally) throws(IndexError) {
        var updates: [FileUpdate] = []
        var moves: [FileMove] = []
        var delta = ScanCounts()
        for outcome in batch {
            switch outcome {
            case .update(let update, let isNew):
                updates.append(update)
                if isNew { delta.new += 1 } else { delta.changed += 1 }
                switch update.content {
                case .photo(let metadata, let warnings, _, _, _):
                    if !(metadata.warnings + warnings).isEmpty { delta.warnings += 1 }
                case .failed(_, let error, _):
                    delta.errors += 1
                    logger.info("\(update.path): \(error.reason)")
                case .unsupported:
                    delta.unsupported += 1
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
        _ = try index.apply(updates, moves: moves, scanID: scanID)
        tally.counts.withLock { total in
            total.new += delta.new
            total.changed += delta.changed
            total.moved += delta.moved
            total.errors += delta.errors
            total.unsupported += delta.unsupported
            total.warnings += delta.warnings
        }
        progress.update { snapshot in
            snapshot.done += batch.count
            snapshot.errors += delta.errors
        }
    }

    /// Removes files under `roots` that the walk did not see.
    /// A removed file whose content lives on elsewhere (copied, then deleted) counts as moved.
    func removeVanished(under roots: [FilePath], seen: Bitset, scanID: Int64, tally: ScanTally) throws(IndexError) {
        // Rows this scan did not write are the unchanged files, the kept ones, files whose
        // write is retried later, and vanished files. When the first two account for all of
        // them, nothing vanished and the pass over every id can be skipped.
        var notWritten = 0
        for root in roots { notWritten += try index.fileCount(under: root, excludingScan: scanID) }
        let accounted = tally.counts.withLock { $0.unchanged } + tally.kept.withLock { $0 }
        guard notWritten != accounted else { return }
        for root in roots {
            try index.forEachFile(under: root, excludingScan: scanID) { page in
                let gone = page.filter { !seen.contains($0) }
                guard !gone.isEmpty else { return }
                let (keys, orphans) = try index.delete(ids: gone)
                let relocated = keys.filter { !orphans.contains($0) }.count
                tally.counts.withLock { total in
                    total.removed += gone.count - relocated
                    total.moved += relocated
                    total.new -= min(total.new, relocated)
                }
            }
        }
    }

    /// Deletes the thumbnails the index has scheduled for deletion, and with `sweep`, every
    /// cache file no row refers to (what a crash between rendering and committing leaves).
    ///
    /// Runs when no worker is writing, so a key cannot be deleted while a copy of the same
    /// content is being rendered under it. A failure only leaves files for the next scan.
    func removeCacheOrphans(_ cache: ThumbnailCache, sweep: Bool) {
        do {
            let keys = try index.pendingCacheDeletions()
            cache.remove(keys: keys)
            try index.forgetCacheDeletions(keys)
        } catch {
            logger.warning("cannot delete unused thumbnails now (\(error)); the next scan will")
        }
        guard sweep else { return }
        let removed = cache.sweep { [index] keys in try? index.referencedKeys(among: keys) }
        if removed > 0 { logger.notice("removed \(removed) thumbnail files no photo refers to") }
    }
}

extension FileIdentity {
    /// The identity of an open file, from its `fstat`.
    init(_ status: FileStatus) {
        self.init(device: status.device, inode: status.inode, size: status.size, mtimeNanoseconds: status.mtimeTotalNanoseconds)
    }
}
