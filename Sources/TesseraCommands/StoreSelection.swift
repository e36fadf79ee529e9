import SystemPackage
public import TesseraConfiguration

/// Which configuration, index and cache a command works on: the options every index-using
/// command shares (`--config`, `--index`, `--cache`).
public struct StoreSelection: Sendable {
    public var config: String?
    public var index: String?
    public var cache: String?

    public init(config: String? = nil, index: String? = nil, cache: String? = nil) {
        self.config = config
        self.index = index
        self.cache = cache
    }

    /// The configuration with the overrides applied (an `--index` file wins over an `index_url`).
    ///
    /// A PostgreSQL index (`index_url`) is for the commands that say they take one (`cluster`);
    /// the others run on one machine's index, and say so.
    public func configuration(cluster: Bool = false) throws -> Configuration {
        var configuration = try Configuration.load(explicit: config)
        if let index {
            configuration.index = FilePath(index)
            configuration.indexURL = nil
        }
        if let cache { configuration.cache = FilePath(cache) }
        if configuration.indexURL != nil && !cluster {
            throw CommandFailure(
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
    func consultingConfiguration(_ context: CommandContext) async throws -> Configuration {
        var configuration = try configuration(cluster: true)
        guard configuration.indexURL != nil else { return configuration }
        do {
            return try await ClusterDeployment.mirror(configuration, fetch: false)
        } catch {
            context.note(
                "tessera: the cluster's index was not read (\(error)); showing \(configuration.index) as it was")
            configuration.indexURL = nil
            return configuration
        }
    }
}
