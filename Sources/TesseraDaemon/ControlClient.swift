import Foundation
import Synchronization
public import SystemPackage
public import TesseraScan
import TesseraSystem

/// Talks to a running daemon over its control socket.
public enum ControlClient {
    /// Seconds without a line from the daemon before the client gives up; a daemon sends
    /// progress at least once a second to a waiting client.
    static let silenceLimit = 30

    /// Sends one request and hands each response line to `handle` until the daemon closes.
    public static func send(
        _ request: ControlRequest, to path: FilePath, _ handle: (ControlResponse) -> Void
    ) throws(ControlError) {
        let socket: UnixSocket
        do throws(SystemError) {
            socket = try UnixSocket.connect(to: path, timeout: silenceLimit)
        } catch  where error.isPermission {
            // Not "no daemon": one may well be running, for other users.
            let directory = path.removingLastComponent()
            let group =
                (try? FileSystem.status(of: directory)).map { " (it is for members of group '\($0.groupName)')" } ?? ""
            throw ControlError(.denied, "cannot use the daemon's control socket \(path): \(error.errno)\(group)")
        } catch {
            throw ControlError(.noDaemon, "no tessera daemon is running (\(path): \(error.errno))")
        }
        var data = (try? JSONEncoder().encode(request)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        do throws(SystemError) {
            try socket.sendAll([UInt8](data))
        } catch {
            throw ControlError(.silent, "\(path): the daemon stopped answering")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var buffer: [UInt8] = []
        var received = false
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                guard let response = try? decoder.decode(ControlResponse.self, from: line) else {
                    throw ControlError(.malformed, "\(path): the daemon sent something unreadable")
                }
                received = true
                handle(response)
                continue
            }
            let chunk: [UInt8]?
            do throws(SystemError) {
                chunk = try socket.receive(maximum: 64 * 1024)
            } catch {
                throw ControlError(.silent, "\(path): \(error.errno)")
            }
            // A blocking socket reports its receive timeout as "nothing yet".
            guard let chunk else {
                throw ControlError(.silent, "\(path): the daemon said nothing for \(silenceLimit) s")
            }
            guard !chunk.isEmpty else { break }
            buffer += chunk
        }
        if !received { throw ControlError(.silent, "\(path): the daemon closed the connection without answering") }
    }
}

extension ControlClient {
    /// The daemon's answers to one request, folded into one: what was accepted, how it ended.
    public struct Outcome: Sendable {
        /// The number of the scan that answers a rescan.
        public var accepted: Int?
        public var finished: ScanSummary?
        /// What a `people` request did.
        public var done: String?
        public var error: String?
    }

    /// Sends `request` and folds the answers; each progress snapshot goes to `progress` as it
    /// comes.
    ///
    /// Throws when the daemon cannot be reached, or refused the request outright.
    public static func request(
        _ request: ControlRequest, to path: FilePath, progress: (ScanProgress.Snapshot) -> Void = { _ in }
    ) throws(ControlError) -> Outcome {
        var outcome = Outcome()
        try send(request, to: path) { response in
            if let ticket = response.accepted { outcome.accepted = ticket }
            if let snapshot = response.progress { progress(snapshot) }
            if let summary = response.finished { outcome.finished = summary }
            if let done = response.done { outcome.done = done }
            if let error = response.error { outcome.error = error }
        }
        if let error = outcome.error, outcome.accepted == nil, outcome.finished == nil, outcome.done == nil {
            throw ControlError(.client, error)
        }
        return outcome
    }

    /// Sends `request` as `request(_:to:progress:)` does, showing the scan's progress on
    /// standard error as it comes when `showingProgress`.
    public static func request(
        _ request: ControlRequest, to path: FilePath, showingProgress: Bool
    ) throws(ControlError) -> Outcome {
        guard showingProgress else { return try self.request(request, to: path) }
        let latest = Mutex<ScanProgress.Snapshot?>(nil)
        let display = ProgressDisplay(source: { latest.withLock { $0 } })
        display.start()
        defer { display.finish() }
        return try self.request(request, to: path) { snapshot in latest.withLock { $0 = snapshot } }
    }
}
