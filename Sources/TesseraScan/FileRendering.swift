public import Logging
import Synchronization
public import SystemPackage
public import TesseraAnalysis
public import TesseraConfiguration
public import TesseraImage
public import TesseraIndex
public import TesseraSystem

/// Reads and renders one file handed over by someone else's walk (a cluster's worker), with the
/// scan's own render stage: the same metadata, the same renditions, byte for byte, written to
/// `cache` as a scan writes them.
///
/// One file at a time: the renderer keeps per-thread state (its colour transforms), so reads
/// take turns, on whichever thread calls.
public final class FileRendering: Sendable {
    /// What became of the file.
    public enum Result: Sendable {
        /// Read (or failed, or not a photo): what the index records of it. Its renditions' paths
        /// are in `cache`.
        case read(FileUpdate)
        /// Not recorded, to be tried again later (an I/O error, a full cache disk).
        case retryLater(reason: String)
        /// The file is gone.
        case vanished
    }

    private let stage: Mutex<RenderStage>

    /// - Parameter analyses: run on each photo's decode, as a scan's render stage runs them.
    public init(
        configuration: Configuration, cache: RenditionCache, memory: MemoryPool, logger: Logger,
        analyses: [any PhotoAnalysis] = AnalysisStages.all
    ) {
        stage = Mutex(
            RenderStage(
                configuration: configuration, index: nil, desktop: nil, logger: logger,
                renderer: Renderer(options: configuration.rendering, pool: memory), cache: cache, full: false,
                tally: nil, analyses: analyses))
    }

    /// Reads the file at `path` (in the folder `albumPath`, under `root`), which a walk found with
    /// `identity` and `sidecar`.
    public func read(
        path: FilePath, albumPath: FilePath, root: FilePath, identity: FileIdentity, sidecar: SidecarIdentity?
    ) -> Result {
        let job = LibraryScanner.Job(
            path: path, albumPath: albumPath, root: root, identity: identity, change: .new, sidecar: sidecar)
        switch stage.withLock({ $0.process(job) }) {
        case .update(let update, _): return .read(update)
        case .retryLater(_, let reason): return .retryLater(reason: reason)
        case .vanished: return .vanished
        case let other: return .retryLater(reason: "unexpected outcome \(other)")
        }
    }
}
