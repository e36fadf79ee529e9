import Glibc
public import SystemPackage

/// An inotify instance (see inotify(7)): watches on directories, and their events.
public final class Inotify: Sendable {
    private let descriptor: Int32

    /// What a watch reports: entries created, deleted, written, moved or changed, and the
    /// directory itself going away.
    private static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF)

    public init() throws(SystemError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw SystemError("start inotify", Errno(rawValue: errno)) }
    }

    deinit { close(descriptor) }

    /// One event.
    public struct Event: Sendable {
        /// The watch (directory) it concerns.
        public var watch: Int32
        public var mask: UInt32
        /// The entry's name inside the directory; nil for events about the directory itself.
        public var name: [UInt8]?

        /// The kernel's queue overflowed: events were lost.
        public var overflow: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
        /// The watched directory is gone (deleted, moved away, unmounted): the watch is dead.
        public var removed: Bool { mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 }
        /// The file system holding the watched directory was unmounted.
        public var unmounted: Bool { mask & UInt32(IN_UNMOUNT) != 0 }
        public var isDirectory: Bool { mask & UInt32(IN_ISDIR) != 0 }
        /// The entry appeared (created or moved in).
        public var created: Bool { mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 }
    }

    /// Watches the directory at `path`; returns the watch's descriptor (the same one again for
    /// a directory already watched).
    ///
    /// Throws ENOSPC at the kernel's watch limit.
    public func watch(_ path: FilePath) throws(SystemError) -> Int32 {
        try Syscall.retrying("watch", path: path) {
            path.withPlatformString { inotify_add_watch(descriptor, $0, Self.mask) }
        }
    }

    /// Stops watching `watch` (quietly, when the kernel already dropped it).
    public func unwatch(_ watch: Int32) {
        _ = inotify_rm_watch(descriptor, watch)
    }

    /// The events that arrive within `waitingMilliseconds`; empty when none do.
    public func read(waitingMilliseconds: Int32) -> [Event] {
        let ready = Poll.wait([(descriptor, .readable)], milliseconds: waitingMilliseconds)
        guard ready[0].contains(.readable) else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return [] }
        var events: [Event] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let raw = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
            let nameStart = offset + header
            let nameBytes = Array(buffer[nameStart..<min(count, nameStart + Int(raw.len))].prefix { $0 != 0 })
            events.append(Event(watch: raw.wd, mask: raw.mask, name: nameBytes.isEmpty ? nil : nameBytes))
            offset = nameStart + Int(raw.len)
        }
        return events
    }
}
