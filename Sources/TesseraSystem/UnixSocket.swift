import Glibc
public import SystemPackage

/// A Unix stream socket, owned: closed when the object goes away.
public final class UnixSocket: Sendable {
    public let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// A listening socket at `path`, created with `mode` (the umask is set around bind).
    public static func listen(at path: FilePath, mode: UInt32, backlog: Int32) throws(SystemError) -> UnixSocket {
        let socket = try make(path)
        var address = try Self.address(path)
        let previous = umask(mode_t(~mode & 0o777))
        let bound = withSockaddr(&address) { bind(socket.descriptor, $0, $1) }
        umask(previous)
        guard bound == 0 else { throw SystemError("bind", path: path, Errno(rawValue: errno)) }
        guard Glibc.listen(socket.descriptor, backlog) == 0 else {
            throw SystemError("listen", path: path, Errno(rawValue: errno))
        }
        try socket.setNonBlocking()
        return socket
    }

    /// A socket connected to `path` (blocking, with `timeout` seconds on every send and receive).
    public static func connect(to path: FilePath, timeout: Int) throws(SystemError) -> UnixSocket {
        let socket = try make(path)
        var address = try Self.address(path)
        _ = try Syscall.retrying("connect", path: path) {
            withSockaddr(&address) { Glibc.connect(socket.descriptor, $0, $1) }
        }
        var interval = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket.descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    /// The next pending connection, non-blocking; nil when none is waiting.
    public func accept() throws(SystemError) -> UnixSocket? {
        while true {
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 {
                let socket = UnixSocket(descriptor: client)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                try socket.setNonBlocking()
                return socket
            }
            let code = Errno(rawValue: errno)
            switch code {
            case .interrupted, .connectionAbort: continue
            case .wouldBlock: return nil
            default: throw SystemError("accept", code)
            }
        }
    }

    /// Sends what it can of `bytes`: the count sent, 0 when the peer's buffer is full.
    public func send(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        while true {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent >= 0 { return sent }
            let code = Errno(rawValue: errno)
            if code == .interrupted { continue }
            if code == .wouldBlock { return 0 }
            throw SystemError("send", code)
        }
    }

    /// Sends all of `bytes`, blocking (up to the socket's timeout).
    public func sendAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let sent = try send(bytes[offset...])
            guard sent > 0 else { throw SystemError("send", .timedOut) }
            offset += sent
        }
    }

    /// Receives into `buffer`: the count, 0 at end of stream, nil when nothing is there yet.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            let code = Errno(rawValue: errno)
            if code == .interrupted { continue }
            if code == .wouldBlock { return nil }
            throw SystemError("receive", code)
        }
    }

    /// Receives up to `maximum` bytes: [] at end of stream, nil when nothing is there yet
    /// (or, on a blocking socket, when its receive timeout passed).
    public func receive(maximum: Int) throws(SystemError) -> [UInt8]? {
        var received: Int? = 0
        let bytes = try [UInt8](unsafeUninitializedCapacity: maximum) { (buffer, initialized) throws(SystemError) in
            received = try receive(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = received ?? 0
        }
        return received == nil ? nil : bytes
    }

    /// Ends both directions, waking anything blocked on the socket.
    public func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func setNonBlocking() throws(SystemError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemError("configure the socket", Errno(rawValue: errno))
        }
    }

    private static func make(_ path: FilePath) throws(SystemError) -> UnixSocket {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError("create a socket", path: path, Errno(rawValue: errno)) }
        return UnixSocket(descriptor: descriptor)
    }

    private static func address(_ path: FilePath) throws(SystemError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = path.rawBytes
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemError("use the socket path (too long)", path: path, .fileNameTooLong)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }

    private static func withSockaddr<T>(
        _ address: inout sockaddr_un, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
    ) -> T {
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}

/// Waits for any of several descriptors to become ready (`poll`).
public enum Poll {
    public struct Events: OptionSet, Sendable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: Int16(POLLIN))
        public static let writable = Events(rawValue: Int16(POLLOUT))
        /// Hang-up or error: the descriptor is done.
        public static let closed = Events(rawValue: Int16(POLLHUP | POLLERR | POLLNVAL))
    }

    /// What each of `descriptors` is ready for, after at most `milliseconds`.
    public static func wait(_ descriptors: [(Int32, Events)], milliseconds: Int32) -> [Events] {
        var entries = descriptors.map { pollfd(fd: $0.0, events: $0.1.rawValue, revents: 0) }
        let count = entries.withUnsafeMutableBufferPointer {
            Glibc.poll($0.baseAddress, nfds_t($0.count), milliseconds)
        }
        guard count > 0 else { return Array(repeating: [], count: descriptors.count) }
        return entries.map { Events(rawValue: $0.revents) }
    }
}

/// A descriptor that a thread can be woken through (a non-blocking pipe): `signal` from
/// anywhere, `drain` on the thread that polls `descriptor`.
public final class WakeEvent: Sendable {
    /// The end to poll for readability.
    public let descriptor: Int32
    private let writer: Int32

    public init() throws(SystemError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SystemError("create a pipe", Errno(rawValue: errno)) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        writer = ends[1]
    }

    deinit {
        close(descriptor)
        close(writer)
    }

    /// Makes `descriptor` readable; a full pipe already is, so a failed write loses nothing.
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }

    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}

/// One-shot datagrams to a Unix socket, as sd_notify(3) sends them.
public enum UnixDatagram {
    /// Sends `message` to the socket at `path` (`@` first means the abstract namespace).
    ///
    /// Never blocks: a datagram that does not fit in the peer's queue is dropped. Failures
    /// are ignored, as sd_notify's are.
    public static func send(_ message: [UInt8], to path: [UInt8]) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = path
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                sendto(descriptor, message, message.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), target, length)
            }
        }
    }
}
