public import Foundation
import TesseraScan
import TesseraSystem

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

    /// Sends `message` (such as "READY=1" or "STATUS=Scanning…"); failures are ignored, as sd_notify's are.
    ///
    /// Never blocks: a supervisor that stops reading its socket must not stall the daemon,
    /// so a datagram that does not fit is dropped.
    public func send(_ message: String) {
        guard let socketPath else { return }
        UnixDatagram.send(Array(message.utf8), to: Array(socketPath.utf8))
    }
}
