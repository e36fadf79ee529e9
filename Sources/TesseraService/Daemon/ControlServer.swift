import Foundation
import Glibc
public import Logging
public import ServiceLifecycle
import Synchronization
public import SystemPackage
public import TesseraIndex

/// The control socket: `tessera rescan` and `tessera status` talk to the daemon through it.
///
/// The socket is created with mode 0660 in a directory only the service's
/// user (and group) can enter. Each client is served on its own thread, with
/// at most `maxClients` at once; a request is one line of at most 4 KiB that
/// must arrive within 5 s, so a malformed, slow or hostile client is dropped
/// without stalling the daemon or the other clients.
public final class ControlServer: Service, Sendable {
    let path: FilePath
    let coordinator: ScanCoordinator
    let index: PhotoIndex
    let cachePath: FilePath
    let version: String
    let logger: Logger
    static let maxClients = 32
    private let clients = Atomic(0)
    private let listener: Int32

    /// Creates the socket and starts listening, so that READY=1 can follow.
    ///
    /// - Throws: `ControlError` when the path is taken by a running daemon or cannot be created.
    public init(
        path: FilePath, coordinator: ScanCoordinator, index: PhotoIndex, cache: FilePath, version: String, logger: Logger
    ) throws(ControlError) {
        self.path = path
        self.coordinator = coordinator
        self.index = index
        self.cachePath = cache
        self.version = version
        self.logger = logger
        let directory = path.removingLastComponent()
        if !FileManager.default.fileExists(atPath: directory.string) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory.string, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ControlError("\(directory): cannot create the socket directory: \(error.localizedDescription)")
            }
        }
        if (try? ControlClient.connect(path)).map({ close($0) }) != nil {
            throw ControlError("\(path): another tessera daemon is listening here")
        }
        unlink(path.string)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ControlError("cannot create a socket: \(Errno(rawValue: errno))") }
        var address = try ControlSocket.address(path)
        let previous = umask(0o117)  // the socket file is created 0660
        let bound = ControlSocket.withSockaddr(&address) { bind(descriptor, $0, $1) }
        umask(previous)
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let failure = Errno(rawValue: errno)
            close(descriptor)
            throw ControlError("\(path): cannot listen: \(failure)")
        }
        listener = descriptor
    }

    public func run() async throws {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            acceptLoop()
            done.signal()
        }
        try? await gracefulShutdown()
        // Closing the listener ends accept(); clients in flight finish on their own threads.
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path.string)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // the listener was closed
            }
            guard clients.add(1, ordering: .relaxed).newValue <= Self.maxClients else {
                logger.warning("control socket: more than \(Self.maxClients) clients at once; one refused")
                _ = ControlSocket.write(client, Self.line(ControlResponse(error: "too many clients; try again")))
                close(client)
                clients.subtract(1, ordering: .relaxed)
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            Thread.detachNewThread { [self] in
                serve(client)
                close(client)
                clients.subtract(1, ordering: .relaxed)
            }
        }
    }

    private func serve(_ client: Int32) {
        ControlSocket.setTimeouts(client, seconds: 5)
        var buffer: [UInt8] = []
        guard let line = ControlSocket.readLine(client, buffer: &buffer) else {
            _ = ControlSocket.write(client, Self.line(ControlResponse(error: "request too long, too slow or empty")))
            return
        }
        guard let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(line)) else {
            _ = ControlSocket.write(client, Self.line(ControlResponse(error: "malformed request: expected one JSON object")))
            return
        }
        switch request.command {
        case "status":
            _ = ControlSocket.write(client, Self.line(ControlResponse(status: status())))
        case "rescan":
            let ticket = coordinator.trigger(full: request.full ?? false)
            guard ControlSocket.write(client, Self.line(ControlResponse(accepted: ticket))), request.wait == true else { return }
            // Stream progress until the scan that serves this request has finished.
            while true {
                let state = coordinator.snapshot
                if state.finished >= ticket {
                    _ = ControlSocket.write(
                        client, Self.line(ControlResponse(finished: state.lastSummary, error: state.lastError)))
                    return
                }
                let progress = state.scanning ? coordinator.progress.snapshot : nil
                guard ControlSocket.write(client, Self.line(ControlResponse(progress: progress))) else { return }
                Thread.sleep(forTimeInterval: 0.25)
            }
        default:
            _ = ControlSocket.write(client, Self.line(ControlResponse(error: "unknown command \"\(request.command)\"")))
        }
    }

    private func status() -> DaemonStatus {
        let state = coordinator.snapshot
        let totals = (try? index.totals()) ?? (photos: 0, albums: 0, errors: 0)
        return DaemonStatus(
            state: state.scanning ? "scanning" : "idle", progress: state.scanning ? coordinator.progress.snapshot : nil,
            photos: totals.photos, albums: totals.albums, errors: totals.errors, lastScan: state.lastSummary,
            lastError: state.lastError, scansStarted: state.started, scansFinished: state.finished, version: version,
            uptime: Date().timeIntervalSince(coordinator.startedAt), index: index.path.string, cache: cachePath.string)
    }

    static func line(_ response: ControlResponse) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        var data = (try? encoder.encode(response)) ?? Data(#"{"error":"cannot encode the response"}"#.utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// Talks to a running daemon.
public enum ControlClient {
    static func connect(_ path: FilePath) throws(ControlError) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ControlError("cannot create a socket: \(Errno(rawValue: errno))") }
        var address = try ControlSocket.address(path)
        guard ControlSocket.withSockaddr(&address, { Glibc.connect(descriptor, $0, $1) }) == 0 else {
            let failure = Errno(rawValue: errno)
            close(descriptor)
            throw ControlError("no tessera daemon is running (\(path): \(failure))")
        }
        return descriptor
    }

    /// Sends one request and hands each response line to `handle` until the daemon closes.
    public static func send(
        command: String, full: Bool = false, wait: Bool = false, to path: FilePath,
        _ handle: (ControlResponse) -> Void
    ) throws(ControlError) {
        let descriptor = try connect(path)
        defer { close(descriptor) }
        let request = ControlRequest(command: command, full: full, wait: wait)
        var data = (try? JSONEncoder().encode(request)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        guard ControlSocket.write(descriptor, data) else { throw ControlError("\(path): the daemon stopped answering") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var buffer: [UInt8] = []
        var received = false
        while let line = ControlSocket.readLine(descriptor, buffer: &buffer) {
            guard let response = try? decoder.decode(ControlResponse.self, from: Data(line)) else {
                throw ControlError("\(path): the daemon sent something unreadable")
            }
            received = true
            handle(response)
        }
        if !received { throw ControlError("\(path): the daemon closed the connection without answering") }
    }
}
