import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization
import SystemPackage
public import TesseraConfiguration
import TesseraScan
import TesseraSystem

/// Watches the photo roots with inotify and asks for a rescan when something changes.
///
/// Every directory below the roots gets a watch (new directories get theirs as
/// they appear). Tessera's own output (the cache, the index and its companion
/// files, the album pages) is never watched, and events about it are ignored,
/// even when it lies inside a root: otherwise each scan would trigger the next.
/// A root that disappears or is empty (an unmounted disk leaves its empty mount
/// point), and a folder below a root whose disk is unmounted, is looked for every
/// few seconds and watched again, with a rescan, once it is there and holds
/// something: an empty mount point is never taken for the disk coming back. Watching is impossible
/// on network file systems (NFS, SMB/CIFS, FUSE mounts: changes made by other
/// hosts raise no event) and past the kernel's watch limit
/// (`fs.inotify.max_user_watches`); then the service says so in the log and
/// falls back to periodic rescans (`rescan_interval`, or hourly when that is
/// off). Changes only trigger; the scan finds what changed.
public struct WatchService: Service {
    let roots: [FilePath]
    let ownFiles: Set<FilePath>
    let walker: Walker
    let coordinator: ScanCoordinator
    let fallbackInterval: Int
    let logger: Logger
    /// How often a missing root is looked for.
    static let rootPoll: Duration = .seconds(2)

    public init(configuration: Configuration, coordinator: ScanCoordinator, logger: Logger) {
        roots = configuration.roots.map(FileSystem.absolute)
        ownFiles = configuration.ownFiles
        walker = Walker(
            options: .init(
                exclude: configuration.exclude, followSymlinks: configuration.followSymlinks,
                skip: configuration.ownFiles))
        self.coordinator = coordinator
        fallbackInterval = configuration.rescanInterval > 0 ? configuration.rescanInterval : 3600
        self.logger = logger
    }

    /// File system types (as /proc/self/mounts names them) where inotify misses remote changes.
    static func isRemote(_ type: String) -> Bool {
        ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "lustre", "ceph", "glusterfs"].contains(type)
            || type.hasPrefix("fuse")
    }

    public func run() async throws {
        for root in roots {
            if let type = MountTable.fileSystemType(of: root), Self.isRemote(type) {
                return await fallBack("\(root) is on \(type), where changes made elsewhere raise no inotify event")
            }
        }
        let watcher: Inotify
        do throws(SystemError) {
            watcher = try Inotify()
        } catch {
            return await fallBack("inotify is not available (\(error.errno))")
        }
        var state = WatchState()
        for root in roots {
            if let problem = watchTree(root, watcher, &state) {
                return await fallBack(problem)
            }
        }
        logger.info("watching \(state.directories.count) directories for changes")
        let stop = Atomic(false)
        let handoff = Mutex(state)
        async let loop: Void = DedicatedThread.run("watch") { [self] in
            var state = handoff.withLock { $0 }
            readLoop(watcher, &state, stop: stop)
        }
        try? await gracefulShutdown()
        stop.store(true, ordering: .relaxed)
        await loop
    }

    /// Watches, by descriptor, and the roots (or unmounted folders below them) awaited back.
    struct WatchState: Sendable {
        var directories: [Int32: FilePath] = [:]
        var awaited: Set<FilePath> = []
    }

    /// Whether `folder` is there with something in it: an unmounted disk's mount point is empty.
    static func isBack(_ folder: FilePath) -> Bool {
        (try? FileSystem.status(of: folder))?.type == .directory && !(FileSystem.entries(of: folder)?.isEmpty ?? true)
    }

    /// Adds a watch to every directory under `root`; a problem description when the limit is reached.
    private func watchTree(_ root: FilePath, _ watcher: Inotify, _ state: inout WatchState) -> String? {
        var problem: String?
        var watchedRoot = false
        walker.walk(root) { event in
            guard case .directory(let path, _, _) = event else { return true }
            do throws(SystemError) {
                let descriptor = try watcher.watch(path)
                state.directories[descriptor] = path
                if path == root { watchedRoot = true }
            } catch  where error.errno == .noSpace {
                problem =
                    "the inotify watch limit was reached after \(state.directories.count) directories "
                    + "(raise fs.inotify.max_user_watches)"
                return false
            } catch {
                // A directory that vanished or cannot be read: the scan reports it.
            }
            return true
        }
        if watchedRoot && Self.isBack(root) { state.awaited.remove(root) } else { state.awaited.insert(root) }
        return problem
    }

    /// Reads events until `stop`; an event about a photo asks for a (debounced) rescan, a new
    /// directory gets watches, a root that went away is looked for until it is back.
    private func readLoop(_ watcher: Inotify, _ state: inout WatchState, stop: borrowing Atomic<Bool>) {
        var lastRootCheck = coordinator.clock.now
        while !stop.load(ordering: .relaxed) {
            var changed = false
            var rewalk = false
            for event in watcher.read(waitingMilliseconds: 500) {
                if event.overflow {
                    changed = true
                    continue
                }
                guard let directory = state.directories[event.watch] else { continue }
                if event.removed {
                    // The directory is gone (deleted, moved away, unmounted): a watch that followed a
                    // move now watches somewhere else, so drop it too.
                    watcher.unwatch(event.watch)
                    state.directories[event.watch] = nil
                    if roots.contains(directory) || event.unmounted {
                        state.awaited.insert(directory)
                        changed = true
                    }
                    continue
                }
                guard let name = event.name else { continue }
                guard name.first != UInt8(ascii: ".") else { continue }  // hidden: never indexed
                let path = FilePath(rawBytes: directory.rawBytes + [UInt8(ascii: "/")] + name)
                guard !isOwnFile(path) else { continue }
                changed = true
                if event.isDirectory && event.created { rewalk = true }
            }
            if rewalk {
                // The new directory's subtree may already hold files and folders; watching a watched
                // directory again returns the same descriptor, so this is idempotent.
                for root in roots where !state.awaited.contains(root) { _ = watchTree(root, watcher, &state) }
            }
            if !state.awaited.isEmpty && coordinator.clock.now - lastRootCheck >= Self.rootPoll {
                lastRootCheck = coordinator.clock.now
                // An unmount reports every watched folder on the disk: the top-most one stands for all.
                let awaited = state.awaited
                for folder in awaited where !awaited.contains(where: { $0 != folder && folder.starts(with: $0) }) {
                    guard Self.isBack(folder) else { continue }
                    _ = watchTree(folder, watcher, &state)
                    if !state.awaited.contains(folder) {
                        state.awaited = state.awaited.filter { !$0.starts(with: folder) }
                        logger.notice("\(folder) is back; watching it again")
                        changed = true
                    }
                }
            }
            if changed { coordinator.trigger(full: false) }
        }
    }

    /// Whether `path` is, or lies inside, something Tessera writes itself.
    private func isOwnFile(_ path: FilePath) -> Bool {
        ownFiles.contains(path) || ownFiles.contains { path.starts(with: $0) }
    }

    private func fallBack(_ reason: String) async {
        logger.warning("not watching for changes: \(reason); rescanning every \(fallbackInterval) s instead")
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await coordinator.clock.sleep(for: .seconds(fallbackInterval))
                coordinator.trigger(full: false)
            }
        }
    }
}
