import ArgumentParser
import Dispatch
import Foundation
import Logging
import SystemPackage
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
        var configuration = try store.configuration()
        if let workers { configuration.workers = max(1, workers) }
        if !roots.isEmpty { configuration.roots = roots.map(CommandLinePath.path) }
        LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
        var logger = Logger(label: "tessera")
        logger.logLevel = verbose ? .info : .warning
        let stop = StopFlag()
        // Ctrl-C finishes the files in hand and records the scan as interrupted.
        let interrupt = InterruptSignal { stop.stop() }
        defer { withExtendedLifetime(interrupt) {} }

        let lock = IndexLock(index: configuration.index)
        let turn = try await lock.waitForTurn(
            role: .scan, socket: nil, handOver: { $0.role == .serve && $0.socket != nil },
            waiting: { [noWait] holder in
                printError(
                    noWait
                        ? "tessera: \(configuration.index) is being written by \(holder); try again when it has finished"
                        : "tessera: waiting for \(holder) to finish writing \(configuration.index)…")
                return !noWait
            },
            shouldStop: { stop.isSet })
        switch turn {
        case .held: break
        case .handedOver(let daemon): return try handOver(to: daemon, configuration: configuration)
        case .stopped: throw ExitCode(stop.isSet ? 130 : Self.busyStatus)
        }
        let index = try PhotoIndex(path: configuration.index, readOnly: false)
        defer { index.checkpoint() }
        let scanner = LibraryScanner(configuration: configuration, index: index, logger: logger, lock: lock)
        let display = ProgressDisplay(progress: scanner.progress)
        display.start()
        let result = await DedicatedThread.run("scan") { [full] in
            Result { () throws(ScanError) in try scanner.scan(full: full, stop: stop) }
        }
        display.finish()
        let summary = try result.get()
        report(summary, configuration: configuration)
        if summary.state == .interrupted { throw ExitCode(130) }
        // The configuration keeps an album site: bring it up to date, as the daemon does.
        if let directory = configuration.albumDirectory, !json {
            try AlbumCommand.Build.publish(
                AlbumBuilder.Options(
                    output: directory, style: configuration.albumStyle, originals: configuration.albumOriginals),
                index: configuration.index)
        }
    }

    /// Asks the daemon that serves the index to scan, and shows its progress and outcome.
    private func handOver(to daemon: IndexLock.Holder, configuration: Configuration) throws {
        guard let socket = daemon.socket else { return }
        printError("tessera: \(configuration.index) is served by \(daemon); the scan runs there")
        let request = ControlRequest(
            command: .rescan, full: full, wait: true, roots: roots.isEmpty ? nil : roots.map(CommandLinePath.path))
        let outcome = try ControlClient.request(request, to: socket, showingProgress: !json)
        guard let summary = outcome.finished else {
            throw CLIError("the daemon's scan failed: \(outcome.error ?? "no outcome")")
        }
        report(summary, configuration: configuration)
        if summary.state == .interrupted { throw ExitCode(130) }
        if summary.state == .failed { throw ExitCode(1) }
    }

    /// The summary: what the scan did, where everything is, and what still cannot be read (the
    /// library's totals are `status`'s: counting a million rows is not a rescan's cost).
    private func report(_ summary: ScanSummary, configuration: Configuration) {
        if json {
            try? printJSON(summary)
            return
        }
        print(
            summary.text(
                index: configuration.index, cache: configuration.cache,
                errorsCommand: CommandHint.line(["list", "--errors"], store: store)))
    }
}
