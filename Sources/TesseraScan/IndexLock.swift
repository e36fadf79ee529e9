public import Foundation
import Synchronization
public import SystemPackage
public import TesseraIndex
public import TesseraSystem

/// One writer per index: an exclusive `flock` on `<index>.lock`, and a note saying who holds it.
///
/// Every path that writes the index takes it first (`LibraryScanner.scan` refuses to run
/// without it), so two scans, or a scan and a daemon, can never delete each
/// other's rows. The kernel drops the lock when its process ends, even by
/// SIGKILL. The note (pid, role, control socket) lets a second `tessera scan`
/// hand its request to a serving daemon, or say whom it is waiting for.
public final class IndexLock: Sendable {
    /// What the holder is doing with the index.
    public enum Role: String, Sendable {
        /// A one-shot `tessera scan`.
        case scan
        /// The daemon, for its whole life.
        case serve
    }

    /// Who holds an index, from the lock file's note.
    public struct Holder: Sendable, CustomStringConvertible {
        public var pid: Int32
        public var role: Role
        /// The daemon's control socket, for a `serve` holder.
        public var socket: FilePath?
        public var since: Date

        /// "tessera serve (pid 1234, since 12:00:03)".
        public var description: String {
            let time = since.formatted(date: .omitted, time: .standard)
            return "tessera \(role.rawValue) (pid \(pid), since \(time))"
        }

        var note: String {
            var lines = ["pid=\(pid)", "role=\(role.rawValue)", "since=\(Int(since.timeIntervalSince1970))"]
            if let socket { lines.append("socket=\(socket)") }
            return lines.joined(separator: "\n") + "\n"
        }

        init(pid: Int32, role: Role, socket: FilePath?, since: Date) {
            self.pid = pid
            self.role = role
            self.socket = socket
            self.since = since
        }

        init?(note: String) {
            var fields: [Substring: Substring] = [:]
            for line in note.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                fields[line[..<equals]] = line[line.index(after: equals)...]
            }
            guard let pid = fields["pid"].flatMap({ Int32($0) }),
                let role = fields["role"].flatMap({ Role(rawValue: String($0)) })
            else { return nil }
            self.pid = pid
            self.role = role
            socket = fields["socket"].map { FilePath(String($0)) }
            since = Date(timeIntervalSince1970: fields["since"].flatMap { TimeInterval(String($0)) } ?? 0)
        }
    }

    /// The lock file beside `index`.
    public let path: FilePath
    private let lock = Mutex<FileLock?>(nil)

    public init(index: FilePath) {
        path = FilePath(index.string + ".lock")
    }

    /// Whether this process holds the lock.
    public var isHeld: Bool { lock.withLock { $0 != nil } }

    /// Takes the lock if it is free.
    ///
    /// Returns nil once held, or who holds it.
    public func acquire(role: Role, socket: FilePath?) throws(ScanError) -> Holder? {
        if isHeld { return nil }
        do throws(SystemError) {
            try FileSystem.createDirectories(path.removingLastComponent())
            let file = try FileLock(path: path)
            guard try file.tryLock() else {
                // The holder may not have written its note yet: then say what can be said.
                return Self.holder(at: path) ?? Holder(pid: 0, role: .scan, socket: nil, since: Date())
            }
            try file.writeNote(Holder(pid: CurrentProcess.id, role: role, socket: socket, since: Date()).note)
            lock.withLock { $0 = file }
            return nil
        } catch {
            throw ScanError(.index, "cannot lock the index: \(error)")
        }
    }

    /// How often a writer waiting for the lock tries again.
    public static let retryInterval: Duration = .milliseconds(250)

    /// How waiting for the lock ended.
    public enum Turn: Sendable {
        /// This process holds the lock.
        case held
        /// `handOver` chose to stop waiting for this holder (a daemon to hand the work to).
        case handedOver(Holder)
        /// Stopped before the lock was free (Ctrl-C, shutdown, or a caller that would not wait).
        case stopped
    }

    /// Takes the lock, trying again every `retryInterval` while another process holds it: the
    /// one waiting policy of `tessera scan` and the daemon.
    ///
    /// - Parameters:
    ///   - handOver: asked about each holder met; true stops waiting and returns `.handedOver`.
    ///   - waiting: told once about each new holder waited for; false stops at once (`--no-wait`).
    ///   - shouldStop: checked before each attempt.
    public func waitForTurn(
        role: Role, socket: FilePath?, clock: ElapsedClock = .continuous,
        handOver: (Holder) -> Bool = { _ in false }, waiting: (Holder) -> Bool, shouldStop: () -> Bool
    ) async throws(ScanError) -> Turn {
        var announced: Int32?
        while !shouldStop() {
            guard let holder = try acquire(role: role, socket: socket) else { return .held }
            if handOver(holder) { return .handedOver(holder) }
            if announced != holder.pid {
                announced = holder.pid
                guard waiting(holder) else { return .stopped }
            }
            do { try await clock.sleep(for: Self.retryInterval) } catch { return .stopped }
        }
        return .stopped
    }

    /// Lets go of the lock (a one-shot scan that is done with the index).
    public func release() {
        lock.withLock { $0 = nil }
    }

    /// The last scan of `index` as it stands: one recorded as running while no process holds
    /// the writer lock was killed, and the next scan finishes its work.
    public static func lastScan(of index: any PhotoStore) throws(IndexError) -> ScanRecord? {
        guard var last = try index.lastScan() else { return nil }
        if last.state == .running && holder(of: index.path) == nil {
            last.state = .interrupted
            last.reason = "no process is scanning any more (killed?); the next scan finishes its work"
        }
        return last
    }

    /// Who last held the index at `index`, if that process is still alive: for display only
    /// (testing the lock itself would briefly take it from a writer about to start).
    public static func holder(of index: FilePath) -> Holder? {
        guard let holder = holder(at: FilePath(index.string + ".lock")) else { return nil }
        return CurrentProcess.isAlive(holder.pid) ? holder : nil
    }

    private static func holder(at path: FilePath) -> Holder? {
        FileLock.readNote(at: path).flatMap(Holder.init(note:))
    }
}
