public import Foundation
import Glibc

/// Speaks the sd_notify protocol directly: datagrams to `$NOTIFY_SOCKET`.
///
/// See sd_notify(3): the variable names a socket path, or an abstract socket
/// when it starts with `@`. Without the variable (not under systemd, or a
/// unit that is not Type=notify), every call does nothing.
public struct SystemdNotifier: Sendable {
    let socketPath: String?
    /// How often systemd wants WATCHDOG=1, from `$WATCHDOG_USEC`; nil when no watchdog is set.
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let pid = environment["WATCHDOG_PID"].flatMap(Int32.init)
        if let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0, pid == nil || pid == getpid() {
            watchdogInterval = .microseconds(usec)
        } else {
            watchdogInterval = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    /// Sends `message` (e.g. "READY=1" or "STATUS=Scanning…"); failures are ignored, as sd_notify's are.
    ///
    /// Never blocks: a supervisor that stops reading its socket must not stall the daemon,
    /// so a datagram that does not fit is dropped (MSG_DONTWAIT).
    public func send(_ message: String) {
        guard let socketPath else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), sockaddrPointer, length)
            }
        }
    }
}
