public import Foundation
import Synchronization
public import SystemPackage
import TesseraSystem

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
            guard let pid = fields["pid"].flatMap({ Int32($0) }), let role = fields["role"].flatMap({ Role(rawValue: String($0)) })
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

    /// Takes the lock if it is free. Returns nil once held, or who holds it.
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

    /// Lets go of the lock (a one-shot scan that is done with the index).
    public func release() {
        lock.withLock { $0 = nil }
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
