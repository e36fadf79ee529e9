import Logging
public import SystemPackage
import TesseraAlbum
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex
public import TesseraScan
import TesseraSystem

/// `tessera scan`: one scan of the photo folders into the index and the thumbnail cache, then
/// the album site when the configuration keeps one; with an `index_url`, a cluster's walk.
public struct ScanRequest: Sendable {
    /// Folders scanned instead of the configured ones, which stay as they are.
    public var roots: [FilePath] = []
    public var full = false
    /// Render workers (default: the configuration's).
    public var workers: Int?
    /// Wait for another scan writing the index (else exit 75).
    public var wait = true
    public var json = false
    /// Log every file that fails as the scan meets it.
    public var verbose = false

    /// EX_TEMPFAIL: the index is busy; try again later.
    public static let busyStatus: Int32 = 75

    public init() {}

    /// Runs the scan until it ends or `stop` is set (Ctrl-C: the files in hand are finished and
    /// the scan recorded as interrupted, status 130).
    public func run(in context: CommandContext, stop: StopFlag) async throws {
        var configuration = try context.store.configuration(cluster: true)
        if configuration.indexURL != nil {
            return try await ClusterDeployment.scan(configuration, roots: roots, json: json, in: context)
        }
        if let workers { configuration.workers = max(1, workers) }
        var logger = Logger(label: "tessera")
        logger.logLevel = verbose ? .info : .warning
        var scan = ForegroundScan(configuration: configuration)
        scan.roots = roots.isEmpty ? nil : roots
        (scan.full, scan.wait, scan.showingProgress) = (full, wait, !json)
        let summary: ScanSummary
        switch try await scan.run(logger: logger, stop: stop, say: { context.note("tessera: \($0)") }) {
        case .ran(let ran): summary = ran
        case .busy: throw CommandFailure.status(Self.busyStatus)
        case .stopped: throw CommandFailure.status(130)
        }
        if json {
            try context.json(summary)
        } else {
            context.say(
                summary.text(
                    index: configuration.index, cache: configuration.cache,
                    errorsCommand: context.hint(["list", "--errors"])))
        }
        if summary.state == .interrupted { throw CommandFailure.status(130) }
        if summary.state == .failed { throw CommandFailure.status(1) }
        // The configuration keeps an album site: bring it up to date, as the daemon does.
        if let directory = configuration.albumDirectory, !json {
            try AlbumBuildRequest.publish(
                AlbumBuilder.Options(configuration, output: directory), index: configuration.index, in: context)
        }
    }
}
