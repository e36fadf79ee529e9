import ArgumentParser
import TesseraCommands
import TesseraScan
import TesseraSystem

/// `tessera scan`: one scan of the photo folders into the index and the thumbnail cache.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan photo folders into the index and render their thumbnails.",
        discussion: """
            Unchanged files (same device, inode, size and mtime) are not opened again. When the \
            configuration sets 'album_dir', the album site there is brought up to date after the scan. An index \
            has one writer at a time: when a daemon serves the index, the scan is handed to it (its progress is \
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

    func run() async throws {
        let stop = StopFlag()
        // Ctrl-C finishes the files in hand and records the scan as interrupted.
        let interrupt = InterruptSignal { stop.stop() }
        defer { withExtendedLifetime(interrupt) {} }
        var request = ScanRequest()
        request.roots = roots.map(CommandLinePath.path)
        (request.full, request.workers, request.wait) = (full, workers, !noWait)
        (request.json, request.verbose) = (json, verbose)
        try await request.run(in: store.context, stop: stop)
    }
}
