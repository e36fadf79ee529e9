import Foundation
import Logging
import Synchronization
import SystemPackage
import TesseraImage
import TesseraIndex
import TesseraMetadata

extension Scanner {
    /// Reads one new or changed file: metadata, content hash, thumbnails (unless the cache
    /// already holds them for this exact content and these settings).
    func process(_ job: Job, thumbnailer: Thumbnailer, cache: ThumbnailCache, full: Bool, scanID: Int64) -> Outcome {
        let context = DateContext(timeZone: configuration.timeZone ?? .current)
        let content: FileUpdate.Content
        do {
            let (metadata, contents) = try MetadataReader.readForDecoding(
                at: job.path, pixelLimit: configuration.thumbnail.pixelLimit, context: context)
            let hash = XXH64.hex(XXH64.hash(contents))
            let key = thumbnailKey(contentHash: hash)
            let sizes = configuration.thumbnailSizes
            let paths = sizes.map { cache.path(key: key, size: $0, format: configuration.thumbnail.format) }
            var warnings: [String] = []
            let cached = !full && paths.allSatisfy { FileManager.default.fileExists(atPath: $0.string) }
            if !cached {
                do {
                    let rendered = try thumbnailer.render(contents: contents, metadata: metadata, sizes: sizes)
                    warnings = rendered.warnings
                    for (size, path) in zip(sizes, paths) {
                        guard let thumbnail = rendered.thumbnails[size] else { continue }
                        do {
                            try ThumbnailCache.writeAtomically(thumbnail.bytes, to: path)
                        } catch {
                            return .retryLater(job.path, reason: error.description)
                        }
                    }
                } catch {
                    return update(job, .failed(format: metadata.format, reason: error.reason, metadata: metadata))
                }
            }
            let photoSide = min(metadata.width, metadata.height)
            let entries = zip(sizes, paths).map { ThumbnailEntry(size: $0, side: min($0, photoSide), path: $1.string) }
            content = .photo(metadata, warnings: warnings, contentHash: hash, thumbnailKey: key, thumbnails: entries)
        } catch where error.code == .notAnImage {
            content = .unsupported
        } catch {
            let prefix = (try? FileReader.withFile(at: job.path) { $0.prefix }) ?? []
            let metadata = error.code == .tooLarge ? try? MetadataReader.read(at: job.path, context: context) : nil
            content = .failed(format: ImageFormat.identify(prefix), reason: error.reason, metadata: metadata)
        }
        return update(job, content)
    }

    private func update(_ job: Job, _ content: FileUpdate.Content) -> Outcome {
        .update(
            FileUpdate(path: job.path, albumPath: job.albumPath, root: job.root, identity: job.identity, content: content),
            isNew: job.isNew)
    }

    /// The cache key: the content hash combined with every setting that changes the pixels.
    func thumbnailKey(contentHash: String) -> String {
        let options = configuration.thumbnail
        let background = [options.background.red, options.background.green, options.background.blue]
        let settings = "\(contentHash):\(options.format.rawValue):q\(options.quality):bg\(background):v1"
        return XXH64.hex(XXH64.hash(Array(settings.utf8)))
    }

    /// Writes one batch of outcomes in one transaction and removes thumbnails left unreferenced.
    func commit(_ batch: [Outcome], scanID: Int64, cache: ThumbnailCache, tally: ScanTally) throws(IndexError) {
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
                case .failed(_, let reason, _):
                    delta.errors += 1
                    logger.info("\(update.path): \(reason)")
                case .unsupported:
                    delta.unsupported += 1
                }
            case .move(let move):
                moves.append(move)
                delta.moved += 1
            case .retryLater(let path, let reason):
                delta.errors += 1
                logger.error("\(path): \(reason); will retry on the next scan")
            }
        }
        let orphans = try index.apply(updates, moves: moves, scanID: scanID)
        cache.remove(keys: orphans)
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

    /// Removes files under `roots` that the walk did not see, with their unreferenced thumbnails.
    /// A removed file whose content lives on elsewhere (copied, then deleted) counts as moved.
    func removeVanished(
        under roots: [FilePath], seen: Bitset, scanID: Int64, cache: ThumbnailCache, tally: ScanTally
    ) throws(IndexError) {
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
                cache.remove(keys: orphans)
                let relocated = keys.filter { !orphans.contains($0) }.count
                tally.counts.withLock { total in
                    total.removed += gone.count - relocated
                    total.moved += relocated
                    total.new -= min(total.new, relocated)
                }
            }
        }
    }
}
