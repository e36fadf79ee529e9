import Foundation
import Logging
import Synchronization
import SystemPackage
import TesseraAnalysis
import TesseraConfiguration
import TesseraDesktop
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSystem

/// The scan's render stage: one per worker, reading the files the walk and the repairs hand it
/// (metadata, content hash, renditions, desktop thumbnails) and handing the writer each outcome.
///
/// It writes the rendition cache and the desktop cache; it reads the index but never writes it.
/// A worker of a cluster (`FileRendering`) runs it without an index: every file it is handed is
/// read and rendered as new.
struct RenderStage {
    typealias Job = LibraryScanner.Job
    typealias Outcome = LibraryScanner.Outcome

    let configuration: Configuration
    /// Where renditions already made for the same content are found; nil for a cluster's worker.
    let index: (any PhotoStore)?
    let desktop: DesktopThumbnailCache?
    let logger: Logger
    let renderer: Renderer
    let cache: RenditionCache
    /// `scan --full`: every rendition is written again.
    let full: Bool
    /// Told when the cache's disk is full (a scan then stops); nil when the caller stops on its own.
    let tally: ScanTally?
    /// Run on the pixels each file's renditions are made from (`AnalysisStages`).
    let analyses: [any PhotoAnalysis]

    init(
        scanner: LibraryScanner, renderer: Renderer, cache: RenditionCache, full: Bool, tally: ScanTally
    ) {
        self.init(
            configuration: scanner.configuration, index: scanner.index, desktop: scanner.desktop,
            logger: scanner.logger, renderer: renderer, cache: cache, full: full, tally: tally,
            analyses: scanner.analyses)
    }

    init(
        configuration: Configuration, index: (any PhotoStore)?, desktop: DesktopThumbnailCache?, logger: Logger,
        renderer: Renderer, cache: RenditionCache, full: Bool, tally: ScanTally?,
        analyses: [any PhotoAnalysis] = AnalysisStages.all
    ) {
        self.analyses = analyses
        self.configuration = configuration
        self.index = index
        self.desktop = desktop
        self.logger = logger
        self.renderer = renderer
        self.cache = cache
        self.full = full
        self.tally = tally
    }

    /// Starts the workers.
    ///
    /// Each takes jobs from the queue, reads and renders the file (its name in the journal
    /// meanwhile), and hands the outcome to the writer. Their decodes share `memory`.
    static func start(
        _ run: ScanRun, scanner: LibraryScanner, memory: MemoryPool, cache: RenditionCache
    )
        -> [DedicatedThread]
    {
        (0..<scanner.configuration.workerCount).map { number in
            DedicatedThread.start("render \(number)") {
                let stage = RenderStage(
                    scanner: scanner, renderer: Renderer(options: scanner.configuration.rendering, pool: memory),
                    cache: cache, full: run.full, tally: run.tally)
                while let job = run.jobs.pop() {
                    guard !run.stop.isSet else { continue }  // drain without starting new files
                    scanner.progress.beat()
                    run.outcomes.push(
                        scanner.read(job, journalSlot: number, alone: false, journal: run.journal) {
                            stage.process(job)
                        })
                    scanner.progress.beat()
                }
            }
        }
    }

    /// Reads one new or changed file: metadata, content hash, renditions (unless the cache
    /// already holds them for this exact content and these settings); or, for an unchanged
    /// photo whose renditions no longer match the configuration, brings them up to date.
    ///
    /// The file is opened once, without blocking and without following a link the walk did
    /// not follow, and must still be a regular file; the identity recorded is that of the
    /// file actually read.
    func process(_ job: Job) -> Outcome {
        let outcome = read(job)
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

    private func read(_ job: Job) -> Outcome {
        if let known = job.known {
            return refresh(job, known)
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
                    return job.update(identity, .unsupported(reason: error.reason))
                } catch  where error.code.isTransient {
                    throw error
                } catch {
                    return job.update(
                        identity, .failed(format: ImageFormat.identify(reader.prefix), error: error, facts: nil)
                    )
                }
                do throws(PhotoError) {
                    return try render(
                        reader, job: job, identity: identity, metadata: metadata)
                } catch  where error.code.isTransient {
                    throw error
                } catch {
                    return job.update(identity, .failed(format: metadata.format, error: error, facts: metadata.facts))
                }
            }
        } catch {
            return outcome(job, error)
        }
    }

    private func render(
        _ reader: borrowing FileReader, job: Job, identity: FileIdentity, metadata: PhotoMetadata,
    ) throws(PhotoError) -> Outcome {
        let hash = XXH64.hex(try reader.photoContentHash())
        let key = configuration.renderSettings.cacheKey(contentHash: hash, metadata: metadata)
        let specs = configuration.renditions
        // A copy of indexed content (or the same file touched) takes the renditions it already has,
        // and the outputs of the analyses of their pixels; its desktop thumbnails are the other
        // photo's, their text rewritten (when that one has them all; else it is decoded).
        if !full, let index,
            let (entries, thumbhash, outputs, source) = try? index.renditions(key: key, covering: specs),
            entries.allSatisfy({ cache.contains(FilePath($0.path)) }),
            desktop?.copy(from: source, to: .init(path: job.path, identity: identity)) ?? true
        {
            let renditions = PhotoRenditions(
                contentHash: hash, key: key, renditions: entries, thumbhash: thumbhash,
                settings: configuration.renderSettings.recorded,
                analyses: AnalysisStages.copied(analyses, outputs: outputs))
            return job.update(identity, .photo(metadata.facts, warnings: [], renditions: renditions))
        }
        let rendered = try renderer.render(reader, metadata: metadata, specs: specs, keeping: keeping)
        let entries: [RenditionEntry]
        do throws(SystemError) {
            entries = try write(rendered, key: key, replacing: full)
        } catch {
            return cacheFailure(job, error)
        }
        let desktopWritten = writeDesktopThumbnails(rendered, of: job.path, identity: identity)
        let renditions = PhotoRenditions(
            contentHash: hash, key: key, renditions: entries, thumbhash: rendered.thumbhash,
            settings: desktopWritten
                ? configuration.renderSettings.recorded : configuration.renderSettings.recordedWithoutDesktop,
            posterTime: rendered.posterTime,
            analyses: AnalysisStages.run(analyses, on: rendered, facts: metadata.facts.analysisFacts))
        return job.update(identity, .photo(metadata.facts, warnings: rendered.warnings, renditions: renditions))
    }

    /// What a decode keeps besides the renditions: the desktop thumbnails' images and the
    /// analyses' (`AnalysisStages.keeping`).
    private var keeping: [RenditionSpec] {
        Array(Set((desktop?.specs ?? []) + AnalysisStages.keeping(for: analyses)))
    }

    /// Brings the renditions of an unchanged photo up to date with the configuration: renders
    /// only the kinds and sizes it lacks (all of them when a setting that changes pixels
    /// changed, since their key changes), and drops those no longer configured.
    ///
    /// The photo's metadata is neither read into the index nor written again; its analyses, when
    /// it is decoded, are done again from what was.
    private func refresh(
        _ job: Job, _ known: Job.Known
    ) -> Outcome {
        let specs = configuration.renditions
        let settings = configuration.renderSettings.recorded
        let existing: [RenditionEntry]
        do throws(IndexError) {
            existing = try index?.renditions(of: [known.id])[known.id] ?? []
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
                rerendered: false)
        }
        // The desktop cache was turned on or given other sizes since the photo was rendered, or
        // its thumbnails are gone from it.
        let needsDesktop =
            desktop != nil
            && (job.desktopMissing
                || !configuration.renderSettings.hasDesktopThumbnails(asRecorded: known.rendering.settings))
        // Same pixel settings, same key: the file need not even be opened when nothing is missing.
        let samePixels = configuration.renderSettings.samePixels(asRecorded: known.rendering.settings)
        let unchanged = { (key: String) in
            key == known.rendering.key && known.rendering.hasThumbhash && missing(key: key).isEmpty && !needsDesktop
        }
        if samePixels && unchanged(known.rendering.key) { return recordOnly() }
        let context = DateContext(timeZone: configuration.timeZone ?? .current)
        do throws(PhotoError) {
            return try FileReader.withPhoto(at: job.path, followSymlinks: configuration.followSymlinks) {
                (reader) throws(PhotoError) -> Outcome in
                let metadata = try MetadataReader.read(reader, context: context)
                let key = configuration.renderSettings.cacheKey(
                    contentHash: known.rendering.contentHash, metadata: metadata)
                // Other pixel settings that do not concern this photo (a profile it lacks, previews
                // it has none of) leave its key, and so its renditions, as they are.
                if unchanged(key) { return recordOnly() }
                let rendered: Renderer.Rendered
                do throws(PhotoError) {
                    rendered = try renderer.render(
                        reader, metadata: metadata, specs: missing(key: key), keeping: keeping)
                } catch  where error.code.isTransient {
                    throw error
                } catch {
                    // The same bytes no longer render under these settings (a lower memory
                    // limit): a failure like any other, recorded over the photo's row.
                    return job.update(
                        job.identity, .failed(format: metadata.format, error: error, facts: metadata.facts))
                }
                let entries: [RenditionEntry]
                do throws(SystemError) {
                    entries = try write(rendered, key: key, replacing: false)
                } catch {
                    return cacheFailure(job, error)
                }
                let desktopWritten = writeDesktopThumbnails(rendered, of: job.path, identity: job.identity)
                return .renditions(
                    RenditionUpdate(
                        photoID: known.id, key: key, renditions: entries, configured: Set(specs),
                        thumbhash: rendered.thumbhash,
                        settings: desktopWritten ? settings : configuration.renderSettings.recordedWithoutDesktop,
                        analyses: AnalysisStages.run(analyses, on: rendered, facts: metadata.facts.analysisFacts)),
                    rerendered: true)
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
        _ rendered: Renderer.Rendered, key: String, replacing: Bool
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
    private func cacheFailure(_ job: Job, _ error: SystemError) -> Outcome {
        // A full cache disk fails every file alike: stop, and say why, rather than record a
        // whole library of errors.
        if error.isNoSpace {
            tally?.fail(ScanError(.diskFull, "cannot write renditions: \(error)"))
        }
        return .retryLater(job.path, reason: error.description)
    }

    /// What a failure to open or read the file as a whole becomes.
    private func outcome(_ job: Job, _ error: PhotoError) -> Outcome {
        switch error.code {
        case .vanished: .vanished(job.path, root: job.root)
        case .notAFile: job.update(job.identity, .unsupported(reason: error.reason))
        default: job.update(job.identity, .failed(format: .unsupported, error: error, facts: nil))
        }
    }
}
