public import Logging
public import ServiceLifecycle
import SystemPackage
import TesseraScan
import TesseraSystem

/// Rescans when a folder the last scan found offline comes back: a disk mounted again on its
/// mount point, below a root or as one.
///
/// A mount raises no inotify event in the folder it covers, and a disk may come back while
/// nothing else changes (with `watch` off, or `rescan_interval` 0), so the offline folders are
/// looked at every two seconds: what each is (its device, or nothing) when first looked at,
/// against what it is now, and whether a disk is mounted on it already then. A change (a disk
/// mounted there, a link's target appearing) asks for a rescan once; a folder that is still
/// offline after it is not asked about again until it changes once more, so a bare mount point
/// with stray files in it causes no loop.
public struct ReturnService: Service {
    let coordinator: ScanCoordinator
    let logger: Logger
    /// How often the offline folders are looked at.
    static let poll: Duration = .seconds(2)

    public init(coordinator: ScanCoordinator, logger: Logger) {
        self.coordinator = coordinator
        self.logger = logger
    }

    public func run() async throws {
        // Cancellation at graceful shutdown is how this service ends: not an error.
        try? await cancelWhenGracefulShutdown {
            // Each offline folder's device when it was reported (nil: not there).
            var seen: [FilePath: UInt64?] = [:]
            while !Task.isCancelled {
                try await coordinator.clock.sleep(for: Self.poll)
                let offline = Set((coordinator.snapshot.lastSummary?.offline ?? []).map { FilePath($0) })
                seen = seen.filter { offline.contains($0.key) }
                var back: [FilePath] = []
                for folder in offline.sorted(by: { $0.string < $1.string }) {
                    let now = Self.device(of: folder)
                    guard let before = seen[folder] else {
                        // First seen: back already if a disk is mounted on it (since the scan ended).
                        seen[folder] = now
                        if let now, now != Self.device(of: folder.removingLastComponent()) { back.append(folder) }
                        continue
                    }
                    if before != now {
                        seen[folder] = now
                        back.append(folder)
                    }
                }
                guard !back.isEmpty else { continue }
                let folders = back.map(\.string).joined(separator: ", ")
                logger.notice("\(folders): offline until now, and changed (a disk mounted?); rescanning")
                coordinator.trigger(full: false)
            }
        }
    }

    /// The device `folder` is on, nil when it is not there as a directory.
    static func device(of folder: FilePath) -> UInt64? {
        guard let status = try? FileSystem.status(of: folder), status.type == .directory else { return nil }
        return status.device
    }
}
