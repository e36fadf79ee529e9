import Foundation
import SystemPackage
public import TesseraConfiguration
import TesseraDesktop
import TesseraImage
public import TesseraIndex
import TesseraSystem

/// `tessera prune`: removes, when asked, what scans only hid: missing files, and files under
/// folders taken out of the configuration's `roots`.
///
/// Scans never delete what they do not see: a file gone from a present folder is missing for
/// `keep_missing_days` first. Pruning ends that wait for all of them at once.
public struct Pruner {
    public let configuration: Configuration
    public let index: any PhotoStore

    public init(configuration: Configuration, index: any PhotoStore) {
        self.configuration = configuration
        self.index = index
    }

    /// What a prune removes.
    public struct Plan: Sendable {
        /// Files found gone, with when.
        public var missing: [MissingFile]
        /// Indexed files under no configured root (only when `roots` comes from a file).
        public var unconfigured: Int

        public var isEmpty: Bool { missing.isEmpty && unconfigured == 0 }

        /// One line per missing file and one for the unconfigured ones, then the total.
        public var text: String {
            let dates = DateFormatter()
            dates.dateFormat = "yyyy-MM-dd HH:mm"
            var lines = missing.map {
                "missing since \(dates.string(from: $0.since))  \(TerminalText.escaped($0.path.string))"
            }
            if unconfigured > 0 {
                lines.append("\(Wording.count(unconfigured, "file")) under folders no longer in 'roots'")
            }
            lines.append(
                "\(Wording.count(missing.count + unconfigured, "file")) would be removed with their thumbnails")
            return lines.joined(separator: "\n")
        }
    }

    /// What `prune` would remove now.
    public func plan() throws(IndexError) -> Plan {
        Plan(missing: try index.missingFiles(), unconfigured: try unconfiguredCount())
    }

    /// Removes what `plan` lists: rows in one go, then their rendition files when no scan is
    /// writing (otherwise the next scan deletes them).
    ///
    /// - Returns: how many rows were removed.
    public func prune() throws(ScanError) -> Int {
        let lock = IndexLock(index: index.path)
        let holder = try lock.acquire(role: .scan, socket: nil)
        defer { if holder == nil { lock.release() } }
        do throws(IndexError) {
            if configuration.rootsFromFile { try index.markMissing(outside: configuredRoots) }
            let missing = try index.missingFiles()
            try index.delete(ids: missing.map(\.id))
            if let desktop = configuration.desktopThumbnailCache { for file in missing { desktop.remove(file.path) } }
            try index.refreshAlbums()
            if holder == nil {
                let cache = RenditionCache(root: configuration.cache)
                try index.forgetCacheDeletions(cache.remove(try index.pendingCacheDeletions()))
            }
            return missing.count
        } catch {
            throw ScanError(writingIndex: error)
        }
    }

    private func unconfiguredCount() throws(IndexError) -> Int {
        guard configuration.rootsFromFile else { return 0 }
        return try index.fileCount(outside: configuredRoots)
    }

    /// The configured roots as scans record them: canonical where they can be resolved now.
    private var configuredRoots: [FilePath] {
        configuration.roots.map { root in
            let absolute = FileSystem.absolute(root)
            return (try? FileSystem.canonicalPath(absolute)) ?? absolute
        }
    }
}
