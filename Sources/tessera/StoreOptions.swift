import ArgumentParser
import SystemPackage
import TesseraConfiguration

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

    /// The configuration with command-line overrides applied (an `--index` file wins over an
    /// `index_url`).
    ///
    /// A PostgreSQL index (`index_url`) is for the commands that say they take one (`cluster`);
    /// the others are told to read an exported file.
    func configuration(cluster: Bool = false) throws -> Configuration {
        var configuration = try Configuration.load(explicit: config)
        if let index {
            configuration.index = FilePath(index)
            configuration.indexURL = nil
        }
        if let cache { configuration.cache = FilePath(cache) }
        if configuration.indexURL != nil && !cluster {
            throw CLIError(
                "this command reads an SQLite index, and the configuration names a PostgreSQL one (index_url): "
                    + "write one with `tessera export-index --out FILE` and give it with --index FILE (docs/SCALE.md)")
        }
        return configuration
    }
}

/// A one-line error for the user, printed as `tessera: message`, and the exit status it gives.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    /// 1 when something could not be done; 2 when the input given was wrong.
    let status: Int32

    /// Paths in `description` may hold control characters: they are escaped when printed.
    init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }
}
