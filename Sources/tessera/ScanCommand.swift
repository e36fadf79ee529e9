import ArgumentParser
import Dispatch
import Foundation
import Logging
import SystemPackage
import TesseraIndex
import TesseraService

/// `tessera scan`: one scan of the photo folders into the index and the thumbnail cache.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan photo folders into the index and render their thumbnails.",
        discussion: """
            Unchanged files (same device, inode, size and mtime) are not opened again. Exits 0 when the scan \
            finished, even if some files were bad (see `tessera list --errors`); 1 when it could not run.
            """)

    @Argument(help: "Photo folders (default: the configuration's 'roots', else ~/Pictures).")
    var roots: [String] = []

    @OptionGroup var store: StoreOptions

    @Flag(help: "Read and render every file again, changed or not.")
    var full = false

    @Option(help: "Render workers (default: the configuration's 'workers', else all cores).")
    var workers: Int?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Flag(name: .shortAndLong, help: "Log every file that fails as the scan meets it.")
    var verbose = false

    func run() throws {
        var configuration = try store.configuration()
        if let workers { configuration.workers = max(1, workers) }
        if !roots.isEmpty { configuration.roots = roots.map { FilePath($0) } }
        var logger = Logger(label: "tessera")
        logger.logLevel = verbose ? .info : .warning
        let index = try store.openIndex(configuration, readOnly: false)
        let scanner = Scanner(configuration: configuration, index: index, logger: logger)
        let stop = StopFlag()
        // Ctrl-C finishes the files in hand and records the scan as interrupted.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
        interrupt.setEventHandler { stop.stop() }
        interrupt.resume()

        let display = ProgressDisplay(progress: scanner.progress)
        display.start()
        let result = Result { () throws(ScanError) in try scanner.scan(full: full, stop: stop) }
        display.finish()
        let summary: ScanSummary
        switch result {
        case .success(let value): summary = value
        case .failure(let error): throw CLIError(error.description)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            print(Self.describe(summary, configuration: configuration))
        }
        if summary.state == .interrupted { throw ExitCode(130) }
    }

    static func describe(_ summary: ScanSummary, configuration: Configuration) -> String {
        var lines = [
            "Scan \(summary)",
            "Index:      \(configuration.index)",
            "Thumbnails: \(configuration.cache)",
        ]
        if summary.counts.errors > 0 { lines.append("Files that could not be read: tessera list --errors") }
        return lines.joined(separator: "\n")
    }
}
