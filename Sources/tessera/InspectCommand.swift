import ArgumentParser
import TesseraCommands

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

    /// The arguments without the files after the first, which are added after parsing
    /// (`InspectRequest.takingFiles`).
    static func takingFiles(from arguments: [String]) -> (arguments: [String], files: [String]) {
        InspectRequest.takingFiles(
            from: arguments, command: configuration.commandName ?? "inspect",
            valueOptions: ["--files-from", "--config", "--index", "--cache"])
    }

    func validate() throws {
        if files.isEmpty && filesFrom == nil {
            throw ValidationError("Name the files to inspect, or a list of them with --files-from.")
        }
    }

    func run() async throws {
        var request = InspectRequest()
        request.files = files.map(CommandLinePath.path) + (try filesFrom.map(CommandLinePath.paths(listedIn:)) ?? [])
        request.json = json
        try await request.run(in: store.context)
    }
}
