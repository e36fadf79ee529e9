import ArgumentParser
import TesseraCommands

/// Options every index-using command shares: which configuration, index and cache.
struct StoreOptions: ParsableArguments {
    @Option(
        help: "Configuration file (default: $TESSERA_CONFIG, /etc/tessera/config.yaml, ~/.config/tessera/config.yaml).",
        completion: .file(extensions: ["yaml", "yml"]))
    var config: String?

    @Option(help: "Index file (overrides the configuration's 'index').", completion: .file(extensions: ["sqlite"]))
    var index: String?

    @Option(help: "Thumbnail cache directory (overrides the configuration's 'cache').", completion: .directory)
    var cache: String?

    /// What the command runs with: these options, the terminal, the program as started.
    var context: CommandContext {
        CommandContext(
            store: StoreSelection(config: config, index: index, cache: cache),
            program: CommandLine.arguments.first ?? "tessera")
    }
}

extension CommandContext {
    /// The context of a command that takes no store options (`thumb`).
    static var standalone: CommandContext {
        CommandContext(store: StoreSelection(), program: CommandLine.arguments.first ?? "tessera")
    }
}
