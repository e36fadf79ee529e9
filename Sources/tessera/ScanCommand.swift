import ArgumentParser
import Logging
import TesseraAlbum
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex
import TesseraScan
import TesseraSystem

/// `tessera scan`: one scan of the photo folders into the index and the thumbnail cache.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan photo folders into the index and render their thumbnails.",
        discussion: """
            Unchanged files (same device, inode, size and mtime) are not opened again. When the \
            configuration sets 'album_dir', the album site there is brought up to date after the scan. An index has one \
            writer at a time: when a daemon serves the index, the scan is handed to it (its progress is \
            shown here); when another `tessera scan` is writing it, this one waits for it, or with \
            --no-wait exits 75. Exits 0 when the scan finished, even if some files were bad (see \
            `tessera list --errors`); 130 when interrupted; 1 when it could not run.
            """)

    @Argument(help: "Photo folders (default: the configuration's 'roots', else ~/Pictures).", completion: .directory)
    var roots: [String] = []

    @OptionGroup var store: StoreOptions

    @Flag(help: "Read and render every file again, changed or not.")
    var full = false

    @Option(help: "Render workers (default: the configuration's 'workers', else all cores).")
    var workers: Int?

    @Flag(help: "Exit at once (status 75) instead of waiting when another scan is writing the index.")
    var noWait = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Flag(name: .shortAndLong, help: "Log every file that fails as the scan meets it.")
    var verbose = false

    /// EX_TEMPFAIL: the index is busy; try again later.
    static let busyStatus: Int32 = 75

    func run() async throws {
        var configuration = try store.configuration(cluster: true)
        if configuration.indexURL != nil {
            return try await ClusterDeployment.scan(
                configuration, roots: roots.map(CommandLinePath.path), json: json)
        }
        if let workers { configuration.workers = max(1, workers) }
        LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
        var logger = Logger(label: "tessera")
        logger.logLevel = verbose ? .info : .warning
        let stop = StopFlag()
        // Ctrl-C finishes the files in hand and records the scan as interrupted.
        let interrupt = InterruptSignal { stop.stop() }
        defer { withExtendedLifetime(interrupt) {} }

        var scan = ForegroundScan(configuration: configuration)
        // Folders named here are scanned instead of the configured ones, which stay as they are.
        scan.roots = roots.isEmpty ? nil : roots.map(CommandLinePath.path)
        (scan.full, scan.wait, scan.showingProgress) = (full, !noWait, !json)
        let summary: ScanSummary
        switch try await scan.run(logger: logger, stop: stop, say: { printError("tessera: \($0)") }) {
        case .ran(let ran): summary = ran
        case .busy: throw ExitCode(Self.busyStatus)
        case .stopped: throw ExitCode(130)
        }
        if json {
            try printJSON(summary)
        } else {
            print(
                summary.text(
                    index: configuration.index, cache: configuration.cache,
                    errorsCommand: CommandHint.line(["list", "--errors"], store: store)))
        }
        if summary.state == .interrupted { throw ExitCode(130) }
        if summary.state == .failed { throw ExitCode(1) }
        // The configuration keeps an album site: bring it up to date, as the daemon does.
        if let directory = configuration.albumDirectory, !json {
            try AlbumCommand.Build.publish(
                AlbumBuilder.Options(
                    output: directory, style: configuration.albumStyle, originals: configuration.albumOriginals,
                    order: configuration.albumOrder, showCopies: configuration.albumShowCopies),
                index: configuration.index)
        }
    }
}
