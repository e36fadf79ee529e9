import ArgumentParser
import TesseraConfiguration
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraReport

/// `tessera inspect`: what Tessera reads from files, without decoding pixels.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what Tessera reads from each file: format, size, orientation, capture date, camera.",
        discussion: """
            When the file is in the index (the configuration's, or --index), its album, status and \
            renditions are shown too. Exits 0 when every file was read, 1 when any gave an error (its \
            entry is still printed).
            """)

    @Argument(parsing: .remaining, help: "Files to inspect.", completion: .file())
    var files: [String] = []

    @Option(
        help: ArgumentHelp(
            "Also inspect the files listed in this file ('-': standard input), one per line or NUL-separated.",
            discussion: "For more files than a command line holds, e.g. find … -print0 | tessera inspect --files-from -"
        ),
        completion: .file())
    var filesFrom: String?

    @Flag(help: "One JSON object per file (an array when several).")
    var json = false

    @OptionGroup var store: StoreOptions

    /// Options whose value is the next argument.
    private static let valueOptions: Set = ["--files-from", "--config", "--index", "--cache"]

    /// ArgumentParser copies an array argument's values for each one it adds, so 20,000 files
    /// took 4 s to parse: `inspect`'s files after its first are taken out of the arguments
    /// here, in order, and added after parsing.
    ///
    /// Options and their values stay.
    static func takingFiles(from arguments: [String]) -> (arguments: [String], files: [String]) {
        guard arguments.first == configuration.commandName else { return (arguments, []) }
        var kept: [String] = [], files: [String] = []
        var afterTerminator = false, keptOne = false, isValue = false
        for argument in arguments {
            if isValue || kept.isEmpty {
                kept.append(argument)
                isValue = false
            } else if !afterTerminator && argument == "--" {
                kept.append(argument)
                afterTerminator = true
            } else if !afterTerminator && argument.hasPrefix("-") && argument != "-" {
                kept.append(argument)
                isValue = valueOptions.contains(argument)
            } else if !keptOne {
                kept.append(argument)
                keptOne = true
            } else {
                files.append(argument)
            }
        }
        return (kept, files)
    }

    func validate() throws {
        if files.isEmpty && filesFrom == nil {
            throw ValidationError("Name the files to inspect, or a list of them with --files-from.")
        }
    }

    func run() async throws {
        var sidecars = SidecarFinder()
        let paths = try files.map(CommandLinePath.path) + (filesFrom.map(CommandLinePath.paths(listedIn:)) ?? [])
        var indexed = try await indexToConsult().map(IndexedFiles.init)
        var array = JSONArrayPrinter()
        var failed = false
        for (number, path) in paths.enumerated() {
            var report = PhotoReport.read(at: path, sidecars: &sidecars)
            if let record = indexed?.record(of: path) {
                report.addIndexFields(of: record)
                if let groups = indexed?.groups(of: record.id) { (report.stack, report.copies) = groups }
            }
            failed = failed || report.error != nil
            switch (json, paths.count) {
            case (true, 1): try printJSON(report)
            case (true, _): try array.print(report)
            case (false, _): print((number > 0 ? "\n" : "") + report.text)
            }
        }
        if json && paths.count != 1 { array.finish() }
        if failed { throw ExitCode(1) }
    }

    /// The index named by --index or the configuration, when there is one: inspecting files
    /// needs none, so only an index asked for by name must open (the configuration's may be
    /// missing, or of an older schema until the next scan migrates it).
    private func indexToConsult() async throws -> (any PhotoStore)? {
        let configuration = try await store.consultingConfiguration()
        guard store.index != nil else { return try? PhotoIndex(path: configuration.index, readOnly: true) }
        return try PhotoIndex(path: configuration.index, readOnly: true)
    }
}
