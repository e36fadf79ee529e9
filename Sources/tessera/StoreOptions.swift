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
    /// the others run on one machine's index, and say so.
    func configuration(cluster: Bool = false) throws -> Configuration {
        var configuration = try Configuration.load(explicit: config)
        if let index {
            configuration.index = FilePath(index)
            configuration.indexURL = nil
        }
        if let cache { configuration.cache = FilePath(cache) }
        if configuration.indexURL != nil && !cluster {
            throw CLIError(
                "this command runs on one machine's SQLite index, and the configuration names a cluster's "
                    + "PostgreSQL one (index_url): a cluster's machines run `tessera scan` and `tessera worker` "
                    + "(docs/SCALE.md)")
        }
        return configuration
    }

    /// The configuration of a command that reads an index: with an `index_url`, the
    /// configuration's `index` file is brought up to date from the cluster first, and read
    /// (docs/SCALE.md, "Reading"); with `renditions`, its renditions are fetched into the cache.
    func readingConfiguration(renditions: Bool = false) async throws -> Configuration {
        let configuration = try configuration(cluster: true)
        guard configuration.indexURL != nil else { return configuration }
        return try await ClusterDeployment.mirror(configuration, fetch: renditions)
    }

    /// `readingConfiguration` for a command that needs no index but shows what one holds: a
    /// cluster out of reach is said, and the file as it was last brought up to date is read.
    func consultingConfiguration() async throws -> Configuration {
        var configuration = try configuration(cluster: true)
        guard configuration.indexURL != nil else { return configuration }
        do {
            return try await ClusterDeployment.mirror(configuration, fetch: false)
        } catch {
            printError("tessera: the cluster's index was not read (\(error)); showing \(configuration.index) as it was")
            configuration.indexURL = nil
            return configuration
        }
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
