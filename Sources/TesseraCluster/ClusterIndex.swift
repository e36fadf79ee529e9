import Foundation
public import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The index of a cluster in PostgreSQL: the files the walks found, what workers read of
/// them, their renditions' keys in the object store, and the work queue (docs/SCALE.md).
///
/// Every call goes through `perform`, which tries again while the server cannot be reached
/// (restarted, failed over, out of connections) and gives up only after `patience`.
public final class ClusterIndex: Sendable {
    let client: PostgresClient
    let logger: Logger
    let patience: Duration
    private let running: Task<Void, Never>
    let address: String

    /// Connects to `url` (`index_url`) and brings its schema up to date.
    ///
    /// `reusingPlans`: for a worker, whose statements differ only in their values.
    public static func open(
        url: String, environment: [String: String], logger: Logger,
        patience: Duration = .seconds(600), reusingPlans: Bool = false
    ) async throws(ClusterError) -> ClusterIndex {
        let address = try DatabaseAddress(url: url, environment: environment)
        var configuration: PostgresClient.Configuration
        switch address.place {
        case .tcp(let host, let port):
            configuration = .init(
                host: host, port: port, username: address.user, password: address.password,
                database: address.database, tls: .disable)
        case .socket(let path):
            configuration = .init(
                unixSocketPath: path, username: address.user, password: address.password,
                database: address.database)
        }
        configuration.options.connectTimeout = .seconds(5)
        // A worker's connections are busy or about to be: no keep-alive timer armed each time one
        // comes back to the pool (one a query, most of a worker's own processor time otherwise),
        // and two kept open (their idle timers not armed either). A dead connection is found by
        // the next query, which `perform` tries again.
        configuration.options.keepAliveBehavior = nil
        configuration.options.minimumConnections = 2
        // A worker stopped (SIGSTOP, a frozen VM) inside a transaction would hold its rows' locks
        // for good, and the jobs they guard would never be reclaimed: the server ends it instead.
        configuration.options.additionalStartupParameters = [("idle_in_transaction_session_timeout", "10000")]
        // The server plans a prepared statement again for each execution while a plan for the
        // values at hand looks cheaper than its one plan for all: always so for the claim, whose
        // `LIMIT` it cannot know, and planning cost it more than running (bench/cluster.py). The
        // worker's statements are written so that their one plan is the good one
        // (`ClaimStatement`).
        if reusingPlans {
            configuration.options.additionalStartupParameters.append(("plan_cache_mode", "force_generic_plan"))
        }
        configuration.options.maximumConnections = 8
        // The pool's own log says again what `perform` says of a server away, and warns of a first
        // lease racing its start.
        var poolLogger = logger
        poolLogger.logLevel = .error
        let index = ClusterIndex(
            client: PostgresClient(configuration: configuration, backgroundLogger: poolLogger), logger: logger,
            patience: patience, address: address.description)
        do throws(ClusterError) {
            try await ClusterSchema.migrate(index)
        } catch {
            await index.close()
            throw error
        }
        return index
    }

    private init(client: PostgresClient, logger: Logger, patience: Duration, address: String) {
        self.client = client
        self.logger = logger
        self.patience = patience
        self.address = address
        running = Task { await client.run() }
    }

    /// Runs this process's Swift tasks on SwiftNIO's event loop threads, where the database's and
    /// the store's answers arrive, instead of handing every answer over to another pool of threads.
    ///
    /// Call it first, before any task starts; a worker spends less than half the processor time
    /// a claim and a commit this way (bench/cluster.py). False when it is too late.
    public static func runTasksOnEventLoops() -> Bool {
        // One loop: a worker's network traffic is light (decoding has threads of its own), and
        // every further loop is another thread to wake for each answer.
        NIOSingletons.groupLoopCountSuggestion = 1
        return NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// Closes the connections.
    public func close() async {
        running.cancel()
        await running.value
    }

    /// Runs `body` on a connection, again from its start while the failure is the server's
    /// absence rather than an answer (`isTransient`), for up to `patience`.
    ///
    /// `answerWithin`: for a request that is short while the server is there, how long an
    /// attempt waits for its answer before it is given up and tried again (a server restarted at
    /// the wrong moment has left one waiting for good).
    @discardableResult
    func perform<T: Sendable>(
        _ what: String, answerWithin: Duration? = nil,
        _ body: @Sendable @escaping (PostgresConnection) async throws -> T
    ) async throws(ClusterError) -> T {
        let started = ContinuousClock.now
        var backoff = Duration.milliseconds(100)
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await DatabaseAttempt.run(on: client, answerWithin: answerWithin, body)
            } catch {
                guard Self.isTransient(error), ContinuousClock.now - started + backoff < patience else {
                    throw ClusterError(.database, "\(what): \(Self.describe(error))")
                }
                if attempt == 1 || attempt % 20 == 0 {
                    logger.warning("database: \(what): \(Self.describe(error)); trying again")
                }
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(2))
            }
        }
    }

    /// How long a worker's requests (a claim, a record, a lease renewed) and the schema's check
    /// wait for an answer, each short while the server is there.
    static let workAnswer = Duration.seconds(60)

    /// `perform` of a transaction.
    func transaction<T: Sendable>(
        _ what: String, answerWithin: Duration? = nil,
        _ body: @Sendable @escaping (PostgresConnection) async throws -> T
    ) async throws(ClusterError) -> T {
        let logger = self.logger
        return try await perform(what, answerWithin: answerWithin) { connection in
            try await connection.withTransaction(logger: logger) { connection in
                try await body(connection)
            }
        }
    }

    /// Whether `error` says the server was away (its connection lost or refused, it was shutting
    /// down or starting, a serialization conflict) rather than that the request was wrong.
    static func isTransient(_ error: any Error) -> Bool {
        if let failed = error as? PostgresTransactionError {
            let inner = failed.commitError ?? failed.closureError ?? failed.beginError ?? failed.rollbackError
            return inner.map(isTransient) ?? false
        }
        guard let error = error as? PSQLError else {
            // Channel and socket errors from below PostgresNIO.
            return !(error is CancellationError)
        }
        if error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            return ["08", "57", "53", "40"].contains(String(state.prefix(2)))
        }
        return [.connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection]
            .contains(error.code)
    }

    static func describe(_ error: any Error) -> String {
        if let failed = error as? PostgresTransactionError {
            let inner = failed.commitError ?? failed.closureError ?? failed.beginError ?? failed.rollbackError
            return inner.map(describe) ?? "transaction failed"
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return "\(error)"
    }
}
