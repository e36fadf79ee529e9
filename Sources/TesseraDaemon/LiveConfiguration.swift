public import Logging
import Synchronization
public import TesseraConfiguration
import TesseraScan

/// The daemon's configuration, which `systemctl reload` (SIGHUP) reads again.
///
/// What shapes a scan (renditions and their settings, exclusions, workers, time zone,
/// album pages) takes effect from the next scan on; a scan already running keeps the
/// configuration it started with. Where the daemon's files and sockets are, and which
/// roots it watches, are set up once: a change there is logged as needing a restart.
public final class LiveConfiguration: Sendable {
    private let state: Mutex<Configuration>
    private let load: @Sendable () throws -> Configuration
    private let logger: Logger

    /// - Parameter load: reads the configuration as at start (file, then command line).
    public init(_ initial: Configuration, logger: Logger, load: @escaping @Sendable () throws -> Configuration) {
        state = Mutex(initial)
        self.load = load
        self.logger = logger
    }

    public var current: Configuration { state.withLock { $0 } }

    /// Reads the configuration again.
    ///
    /// A configuration that does not load is logged with its
    /// reason (file, line and key) and the one in use is kept.
    public func reload() {
        let loaded: Configuration
        do {
            loaded = try load()
        } catch {
            logger.error("reload: configuration not changed: \(error)")
            return
        }
        let restartOnly = state.withLock { configuration in
            let (merged, restartOnly) = configuration.reloaded(from: loaded)
            configuration = merged
            return restartOnly
        }
        if !restartOnly.isEmpty {
            logger.notice("reload: \(restartOnly.joined(separator: ", ")) changed; takes effect after a restart")
        }
        logger.info("reload: configuration read again; the next scan uses it")
    }
}

extension Configuration {
    /// This configuration with everything from `new` that can change while the daemon runs,
    /// and the keys of what cannot (and differs).
    func reloaded(from new: Configuration) -> (Configuration, restartOnly: [String]) {
        var merged = new
        var restartOnly: [String] = []
        func keep<Value: Equatable>(_ key: String, _ path: WritableKeyPath<Configuration, Value>) {
            if new[keyPath: path] != self[keyPath: path] { restartOnly.append(key) }
            merged[keyPath: path] = self[keyPath: path]
        }
        keep("roots", \.roots)
        keep("index", \.index)
        keep("cache", \.cache)
        keep("control_socket", \.controlSocket)
        keep("watch", \.watch)
        keep("rescan_interval", \.rescanInterval)
        merged.scanOnStart = scanOnStart
        return (merged, restartOnly)
    }
}
