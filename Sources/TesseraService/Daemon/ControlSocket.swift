import Foundation
import Glibc
public import SystemPackage

/// Unix stream-socket plumbing shared by the control server and its client.
enum ControlSocket {
    /// Longest request line accepted; anything longer is refused.
    static let maxRequest = 4096

    static func address(_ path: FilePath) throws(ControlError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = path.string.utf8.map { CChar(bitPattern: $0) }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ControlError("\(path): socket path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes.map { UInt8(bitPattern: $0) })
        }
        return address
    }

    static func withSockaddr<T>(_ address: inout sockaddr_un, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Sets send and receive timeouts so a slow peer cannot hold a thread forever.
    static func setTimeouts(_ descriptor: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// One line (without its newline), or nil at end of input, on a timeout or past `maxRequest` bytes.
    static func readLine(_ descriptor: Int32, buffer: inout [UInt8]) -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            guard buffer.count <= maxRequest else { return nil }
            var chunk = [UInt8](repeating: 0, count: 1024)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// Writes all of `data`; false when the peer went away or stalled past the timeout.
    static func write(_ descriptor: Int32, _ data: Data) -> Bool {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

/// A control-socket failure, as one line for the user.
public struct ControlError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What a client may ask (one JSON object per line).
struct ControlRequest: Codable {
    var command: String
    var full: Bool?
    var wait: Bool?
}

/// The daemon's answer to `status`.
public struct DaemonStatus: Codable, Sendable {
    public var state: String
    public var progress: ScanProgress.Snapshot?
    public var photos: Int
    public var albums: Int
    public var errors: Int
    public var lastScan: ScanSummary?
    public var lastError: String?
    public var scansStarted: Int
    public var scansFinished: Int
    public var version: String
    public var uptime: Double
    public var index: String
    public var cache: String
}

/// One line of the daemon's answer.
public struct ControlResponse: Codable, Sendable {
    public var status: DaemonStatus?
    /// The number of the scan that will answer a rescan request.
    public var accepted: Int?
    public var progress: ScanProgress.Snapshot?
    public var finished: ScanSummary?
    public var error: String?

    public init(status: DaemonStatus? = nil, accepted: Int? = nil, progress: ScanProgress.Snapshot? = nil,
                finished: ScanSummary? = nil, error: String? = nil) {
        self.status = status
        self.accepted = accepted
        self.progress = progress
        self.finished = finished
        self.error = error
    }
}
