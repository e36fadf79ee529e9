import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization
public import SystemPackage
public import TesseraIndex
import TesseraScan
import TesseraSystem

/// The control socket: `tessera rescan`, `tessera status` and handed-over `tessera scan`s
/// talk to the daemon through it.
///
/// The socket is created with mode 0660 in a directory only the service's user
/// (and group) can enter. One thread polls every connection: a request is one
/// line of at most 4 KiB that must be complete within 5 s of connecting (a
/// client dribbling one byte every few seconds is dropped at 5 s), so no client
/// can hold the loop. At most `maximumClients` connect at once; when full, the
/// client that has waited longest without a complete request is dropped to
/// make room, so `status` always gets an answer. Waiting `rescan` clients get
/// progress pushed about once a second and the outcome when their scan ends.
public final class ControlServer: Service, Sendable {
    static let maximumClients = 128

    let path: FilePath
    let coordinator: ScanCoordinator
    /// The index the daemon writes: a `people` request's decision is carried out in it.
    let index: PhotoIndex
    let reporter: StatusReporter
    /// The daemon's roots: a handed-over scan may only ask for these or folders inside them.
    let roots: [FilePath]
    let logger: Logger
    private let listener: UnixSocket
    private let wake: WakeEvent
    private let stopping = Atomic(false)

    /// Creates the socket and starts listening, so that READY=1 can follow.
    ///
    /// - Throws: `ControlError` when the path is taken by a running daemon or cannot be created.
    public init(
        path: FilePath, coordinator: ScanCoordinator, reporter: StatusReporter, index: PhotoIndex, roots: [FilePath],
        logger: Logger
    ) throws(ControlError) {
        self.path = path
        self.index = index
        self.coordinator = coordinator
        self.reporter = reporter
        self.roots = roots.map(FileSystem.absolute)
            .map { $0.lexicallyNormalized() }
        self.logger = logger
        let directory = path.removingLastComponent()
        if (try? FileSystem.status(of: directory)) == nil {
            do throws(SystemError) {
                try FileSystem.createDirectories(directory, mode: 0o700)
            } catch {
                throw ControlError(.socket, "\(directory): cannot create the socket directory: \(error.errno)")
            }
        }
        if (try? UnixSocket.connect(to: path, timeout: 1)) != nil {
            throw ControlError(.socket, "\(path): another tessera daemon is listening here")
        }
        try? FileSystem.removeFile(path)
        do {
            listener = try UnixSocket.listen(at: path, mode: 0o660, backlog: 64)
            wake = try WakeEvent()
        } catch {
            throw ControlError(.socket, "\(path): cannot listen: \(error.errno)")
        }
        coordinator.observe(wake)
    }

    public func run() async throws {
        async let loop: Void = DedicatedThread.run("control socket") { [self] in serve() }
        try? await gracefulShutdown()
        stopping.store(true, ordering: .relaxed)
        wake.signal()
        await loop
        try? FileSystem.removeFile(path)
    }

    /// The poll loop: accepts, reads, answers and pushes progress until shutdown.
    private func serve() {
        var connections: [ControlConnection] = []
        while !stopping.load(ordering: .relaxed) {
            var watched: [(Int32, Poll.Events)] = [(listener.descriptor, .readable), (wake.descriptor, .readable)]
            for connection in connections {
                watched.append(
                    (connection.socket.descriptor, connection.hasOutput ? [.readable, .writable] : .readable))
            }
            let ready = Poll.wait(watched, milliseconds: 250)
            let now = ContinuousClock.now
            if ready[1].contains(.readable) { wake.drain() }
            for (index, connection) in connections.enumerated() {
                let events = ready[index + 2]
                do throws(ControlError) {
                    if events.contains(.readable) || events.contains(.closed) {
                        switch try connection.receive() {
                        case .nothing: break
                        case .request(let line): handle(line, from: connection)
                        case .tooLong:
                            let limit = ControlRequest.maximumLength
                            connection.send(
                                ControlResponse(error: "request too long (over \(limit) bytes)"), last: true)
                        }
                    }
                    if connection.hasOutput { try connection.flush(now: now) }
                } catch {
                    drop(connection, because: error.description)
                }
                if connection.requestExpired(now: now) {
                    connection.send(
                        ControlResponse(
                            error: "request incomplete after \(ControlConnection.requestTimeout.components.seconds) s"),
                        last: true)
                    try? connection.flush(now: now)
                    drop(connection, because: "too slow")
                }
            }
            pushProgress(to: connections, now: now)
            connections.removeAll { $0.isFinished || $0.dropped }
            if ready[0].contains(.readable) { accept(into: &connections) }
        }
        for connection in connections { connection.socket.shutdown() }
        listener.shutdown()
    }

    private func accept(into connections: inout [ControlConnection]) {
        while let socket = try? listener.accept() {
            let connection = ControlConnection(socket: socket)
            if connections.count >= Self.maximumClients {
                // Make room: drop whoever has waited longest without sending a request.
                if let oldest = connections.filter(\.isReading).min(by: { $0.connected < $1.connected }) {
                    logger.warning(
                        "control socket: \(Self.maximumClients) clients connected; dropped the oldest idle one")
                    drop(oldest, because: "evicted")
                    connections.removeAll { $0 === oldest }
                } else {
                    connection.send(ControlResponse(error: "too many clients; try again"), last: true)
                    try? connection.flush(now: .now)
                    continue
                }
            }
            connections.append(connection)
        }
    }

    private func drop(_ connection: ControlConnection, because reason: String) {
        connection.dropped = true
        connection.socket.shutdown()
        logger.debug("control socket: client dropped: \(reason)")
    }

    private func handle(_ line: [UInt8], from connection: ControlConnection) {
        let request: ControlRequest
        do throws(ControlError) {
            request = try ControlRequest.parse(line)
        } catch {
            connection.send(ControlResponse(error: error.description), last: true)
            return
        }
        switch request.command {
        case .status:
            connection.send(ControlResponse(status: reporter.status()), last: true)
        case .people:
            guard let decision = request.decision else {
                return connection.send(ControlResponse(error: "a people request names no decision"), last: true)
            }
            // (a few rows, in a transaction of its own between the scan's batches)
            do throws(IndexError) {
                connection.send(ControlResponse(done: try index.apply(decision)), last: true)
            } catch {
                connection.send(ControlResponse(error: error.description), last: true)
            }
        case .rescan:
            let problem: String?
            do throws(ControlError) {
                problem = outsideRoots(try request.requestedRoots())
            } catch {
                problem = error.description
            }
            if let problem {
                connection.send(ControlResponse(error: problem), last: true)
                return
            }
            let ticket = coordinator.trigger(full: request.full ?? false)
            let wait = request.wait == true
            connection.send(ControlResponse(accepted: ticket), last: !wait)
            if wait { connection.phase = .waiting(ticket: ticket) }
        }
    }

    /// Why `requested` cannot be scanned by this daemon, or nil when every one is one of its
    /// roots or inside one, and a folder that is there (as a scan without a daemon would say).
    private func outsideRoots(_ requested: [FilePath]) -> String? {
        for root in requested {
            if !roots.contains(where: { root == $0 || root.starts(with: $0) }) {
                let served = roots.map(\.string).joined(separator: ", ")
                return "this daemon scans \(served); \(root) is outside them (add it to 'roots' in its configuration)"
            }
            do throws(SystemError) {
                let status = try FileSystem.status(of: root)
                guard status.type == .directory else { throw SystemError("open", path: root, .notDirectory) }
            } catch {
                return "\(root): cannot open the photo folder: \(error.errno)"
            }
        }
        return nil
    }

    /// Tells waiting clients how their scan is going, about once a second and at its end.
    private func pushProgress(to connections: [ControlConnection], now: ContinuousClock.Instant) {
        let state = coordinator.snapshot
        for connection in connections {
            guard case .waiting(let ticket) = connection.phase else { continue }
            if state.finished >= ticket {
                connection.send(ControlResponse(finished: state.lastSummary, error: state.lastError), last: true)
            } else if connection.lastProgress.map({ $0.duration(to: now) >= .seconds(1) }) ?? true {
                connection.lastProgress = now
                connection.send(
                    ControlResponse(progress: state.scanning ? coordinator.progress.snapshot : nil), last: false)
            }
            try? connection.flush(now: now)
        }
    }
}
