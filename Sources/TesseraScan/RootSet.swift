import Synchronization
import SystemPackage
import TesseraSystem

/// The roots of one scan and whether each is still the directory the scan started in.
///
/// A root renamed away or unmounted mid-scan makes reads below it fail with ENOENT; the
/// scan asks this set whether that is what happened, and a root once found gone stays
/// lost for the rest of the scan, even if it comes back.
final class RootSet: Sendable {
    let paths: [FilePath]
    private let identities: [FilePath: (UInt64, UInt64)]
    private let lostRoots = Mutex<Set<FilePath>>([])

    init(_ paths: [FilePath]) throws(ScanError) {
        self.paths = paths
        var identities: [FilePath: (UInt64, UInt64)] = [:]
        for root in paths {
            guard let status = try? FileSystem.status(of: root) else {
                throw ScanError(.missingRoot, "\(root): the photo folder disappeared")
            }
            identities[root] = (status.device, status.inode)
        }
        self.identities = identities
    }

    /// Whether `root` is still there and still the same directory; records it as lost if not.
    @discardableResult
    func check(_ root: FilePath) -> Bool {
        if lostRoots.withLock({ $0.contains(root) }) { return false }
        let now = try? FileSystem.status(of: root)
        let same = now.map { ($0.device, $0.inode) == identities[root] ?? (0, 0) && $0.type == .directory } ?? false
        if !same { lostRoots.withLock { _ = $0.insert(root) } }
        return same
    }

    /// The roots found gone at any time during the scan, including now.
    func lost() -> [FilePath] {
        for root in paths { check(root) }
        return lostRoots.withLock { $0 }.sorted { $0.string < $1.string }
    }
}
