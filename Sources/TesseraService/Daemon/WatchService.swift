import Foundation
import Glibc
public import Logging
public import ServiceLifecycle
import Synchronization
public import SystemPackage
import TesseraMetadata

/// Watches the photo roots with inotify and asks for a rescan when something changes.
///
/// Every directory below the roots gets a watch (new directories get theirs as
/// they appear). Watching is impossible on network file systems (NFS, SMB/CIFS,
/// FUSE mounts: changes made by other hosts raise no event) and past the
/// kernel's watch limit (`fs.inotify.max_user_watches`); then the service says
/// so in the log and falls back to periodic rescans (`rescan_interval`, or
/// hourly when that is off). Changes only trigger; the scan finds what changed.
public struct WatchService: Service {
    let roots: [FilePath]
    let walker: Walker
    let coordinator: ScanCoordinator
    let fallbackInterval: Int
    let logger: Logger

    public init(configuration: Configuration, coordinator: ScanCoordinator, logger: Logger) {
        roots = configuration.roots
        walker = Walker(options: .init(
            exclude: configuration.exclude, followSymlinks: configuration.followSymlinks, skip: [configuration.cache]))
        self.coordinator = coordinator
        fallbackInterval = configuration.rescanInterval > 0 ? configuration.rescanInterval : 3600
        self.logger = logger
    }

    /// File system types (as /proc/self/mounts names them) where inotify misses remote changes.
    static func isRemote(_ type: String) -> Bool {
        ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "lustre", "ceph", "glusterfs"].contains(type)
            || type.hasPrefix("fuse")
    }

    /// The type of the file system holding `path`: the longest mount point that contains it.
    static func fileSystemType(of path: FilePath) -> String? {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        var best: (point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            // Mount points escape spaces as \040.
            let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let contains = point == "/" || path.string == point || path.string.hasPrefix(point + "/")
            if contains && point.count > (best?.point.count ?? -1) { best = (point, String(fields[2])) }
        }
        return best?.type
    }

    public func run() async throws {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            return await fallBack("inotify is not available (\(Errno(rawValue: errno)))")
        }
        defer { close(descriptor) }
        for root in roots {
            if let type = Self.fileSystemType(of: root), Self.isRemote(type) {
                return await fallBack("\(root) is on \(type), where changes made elsewhere raise no inotify event")
            }
        }
        var watches = 0
        for root in roots {
            if let problem = addWatches(descriptor, under: root, count: &watches) {
                return await fallBack(problem)
            }
        }
        logger.info("watching \(watches) directories for changes")
        let stop = Atomic(false)
        let done = DispatchSemaphore(value: 0)
        let readerDescriptor = descriptor
        Thread.detachNewThread { [self] in
            readLoop(readerDescriptor, stop: stop)
            done.signal()
        }
        try? await gracefulShutdown()
        stop.store(true, ordering: .relaxed)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
    }

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
        | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Adds a watch to every directory under `root`; a problem description when the limit is reached.
    private func addWatches(_ descriptor: Int32, under root: FilePath, count: inout Int) -> String? {
        var problem: String?
        walker.walk(root) { event in
            guard case .directory(let path, _) = event else { return true }
            if path.withPlatformString({ inotify_add_watch(descriptor, $0, Self.mask) }) < 0 {
                if errno == ENOSPC {
                    problem = "the inotify watch limit was reached after \(count) directories (raise fs.inotify.max_user_watches)"
                    return false
                }
                return true  // a directory that vanished or cannot be read: the scan reports it
            }
            count += 1
            return true
        }
        return problem
    }

    /// Reads events until `stop`; any event asks for a (debounced) rescan, a new directory gets watches.
    private func readLoop(_ descriptor: Int32, stop: borrowing Atomic<Bool>) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var watches = 0
        while !stop.load(ordering: .relaxed) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 500) > 0 else { continue }
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { continue }
            var offset = 0
            var changed = false
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[nameStart..<min(count, nameStart + Int(event.len))].prefix { $0 != 0 }
                offset = nameStart + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed = true
                    continue
                }
                guard nameBytes.first != UInt8(ascii: ".") else { continue }  // hidden: never indexed
                changed = true
                if event.mask & UInt32(IN_ISDIR) != 0 && event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    // The directory's own path is not in the event; rewalk the roots to watch what is new.
                    // inotify_add_watch on a watched directory returns the same watch, so this is idempotent.
                    for root in roots { _ = addWatches(descriptor, under: root, count: &watches) }
                }
            }
            if changed { coordinator.trigger(full: false) }
        }
    }

    private func fallBack(_ reason: String) async {
        logger.warning("not watching for changes: \(reason); rescanning every \(fallbackInterval) s instead")
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(fallbackInterval))
                coordinator.trigger(full: false)
            }
        }
    }
}
