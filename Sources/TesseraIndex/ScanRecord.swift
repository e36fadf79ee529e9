public import Foundation
import TesseraSystem

/// Counts of one scan, as stored in the `scans` table.
public struct ScanCounts: Sendable, Equatable, Codable {
    public var found = 0
    public var new = 0
    /// Indexed files read again because they changed on disk: content, metadata or sidecar.
    public var changed = 0
    /// Indexed files read again as they were: every file of `scan --full`, and retries after
    /// an I/O error.
    public var reread = 0
    /// Files not opened: as indexed (plus those whose renditions alone were brought up to date).
    public var unchanged = 0
    /// Unchanged photos whose renditions were brought up to date with the configuration.
    public var rerendered = 0
    public var moved = 0
    /// Rows deleted: files gone for longer than the grace period, or pruned.
    public var removed = 0
    /// Files found gone from a present root, kept as missing (hidden) until the grace period ends.
    public var missing = 0
    /// Indexed files kept unseen because their disk or folder is offline (unmounted, empty).
    public var keptOffline = 0
    public var unsupported = 0
    /// Files read that could not be used (each recorded with its reason).
    public var errors = 0
    /// What the walk could not list or stat: a folder without permission, a name that vanished
    /// as it was met.
    ///
    /// Recorded in `walk_errors`, and met again by every scan until it is fixed.
    public var unlisted = 0
    public var warnings = 0

    public init() {}
}

extension ScanCounts: CustomStringConvertible {
    /// What a scan did, zero counts left out: "162 files: 2 new, 1 changed, 159 unchanged".
    ///
    /// `errors` and `unsupported` are the files this scan read and could not use; files that
    /// failed before and were not read again are not among them (the index's totals are).
    public var description: String {
        let parts = [
            (new, "new"), (changed, "changed"), (reread, "read again as they were"),
            (unchanged, rerendered > 0 ? "unchanged (\(rerendered) given new renditions)" : "unchanged"),
            (moved, "moved"), (missing, "missing"), (removed, "removed"), (keptOffline, "kept while offline"),
            (unsupported, "unsupported"), (errors, "could not be read"), (unlisted, "could not be listed"),
            (warnings, "read with warnings"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return Wording.count(found, "file") + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }
}

/// How a scan stands or ended, as the `scans` table records it.
public enum ScanState: String, Sendable, Codable {
    case running
    /// The walk completed; files found gone became missing.
    case finished
    /// Stopped (SIGTERM, Ctrl-C), killed, or a root disappeared: nothing became missing.
    case interrupted
    /// The scan could not go on (the index could not be written): see the reason.
    case failed
}

/// One row of the `scans` table.
public struct ScanRecord: Sendable, Codable {
    public var id: Int64
    public var startedAt: Date
    public var finishedAt: Date?
    public var state: ScanState
    /// Why the scan failed or was interrupted, when known.
    public var reason: String?
    public var full: Bool
    public var counts: ScanCounts
    /// The folders the scan found offline (an unmounted disk, an empty root).
    public var offline: [String] = []
}
