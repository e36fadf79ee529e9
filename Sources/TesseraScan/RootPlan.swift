import Foundation
import SystemPackage
import TesseraIndex
import TesseraSystem

/// The roots a scan walks, decided before it starts: each made canonical (symbolic links
/// resolved, so a folder reached through a link is indexed once, under its real path), no two
/// overlapping, and those that are not there set apart as offline.
///
/// A root that is missing, not a directory or unreadable is *offline* when the index holds
/// files under it (an unmounted disk, a NAS not yet mounted at boot): the scan keeps them and
/// walks the other roots. With nothing indexed under it, it is a mistake and stops the scan.
struct RootPlan {
    /// Canonical roots to walk.
    var present: [FilePath] = []
    /// Roots not there, with why; what the index holds under them is kept as it is.
    var offline: [(root: FilePath, reason: String)] = []

    init(_ roots: [FilePath], index: any PhotoStore) throws(ScanError) {
        guard !roots.isEmpty else {
            throw ScanError(.configuration, "no photo folder to scan: give one or set 'roots'")
        }
        var chosen: [(given: FilePath, canonical: FilePath)] = []
        for root in roots {
            let absolute = FileSystem.absolute(root)
            let canonical: FilePath
            do throws(SystemError) {
                canonical = try FileSystem.canonicalPath(absolute)
                let status = try FileSystem.status(of: canonical)
                guard status.type == .directory else { throw SystemError("open", path: canonical, .notDirectory) }
                guard FileSystem.isReadableDirectory(canonical) else {
                    throw SystemError("read", path: canonical, .permissionDenied)
                }
            } catch {
                // A link to a folder that is not there (a disk not mounted) is offline, like the
                // empty mount point it would lead to: its photos are indexed where it leads.
                if let target = Self.danglingLinkTarget(absolute) {
                    offline.append((target, "\(absolute) is a link to \(target), which is not there"))
                    chosen.append((root, target))
                    continue
                }
                let reason = "cannot open the photo folder: \(error.errno)"
                let indexed: Bool
                do throws(IndexError) {
                    indexed = try index.hasFiles(under: absolute)
                } catch {
                    throw ScanError(readingIndex: error)
                }
                guard indexed else { throw ScanError(.missingRoot, "\(root): \(reason)") }
                offline.append((absolute, reason))
                chosen.append((root, absolute))
                continue
            }
            chosen.append((root, canonical))
            present.append(canonical)
        }
        try Self.refuseOverlaps(chosen)
    }

    /// Where the symbolic link at `path` leads, followed as far as links go (at most 40, as the
    /// kernel does) when its end is not there; nil when `path` is no link or its end is there.
    static func danglingLinkTarget(_ path: FilePath) -> FilePath? {
        var current = path
        for _ in 0..<40 {
            guard let target = FileSystem.linkTarget(of: current) else { return current == path ? nil : current }
            current =
                target.isAbsolute
                ? target.lexicallyNormalized() : current.removingLastComponent().pushing(target).lexicallyNormalized()
            if (try? FileSystem.status(of: current)) != nil { return nil }
        }
        return current
    }

    /// Refuses two roots that are the same folder, or one inside the other: their files would
    /// be walked twice, and a scan of one would take the other's files for vanished.
    static func refuseOverlaps(_ roots: [(given: FilePath, canonical: FilePath)]) throws(ScanError) {
        for (i, a) in roots.enumerated() {
            for b in roots[(i + 1)...] {
                let relation: String
                if a.canonical == b.canonical {
                    relation = "is the same folder as"
                } else if b.canonical.starts(with: a.canonical) {
                    relation = "lies inside"
                } else if a.canonical.starts(with: b.canonical) {
                    throw ScanError(
                        .configuration,
                        "photo folders overlap: \(a.given) lies inside \(b.given) (\(a.canonical)); keep only one")
                } else {
                    continue
                }
                throw ScanError(
                    .configuration,
                    "photo folders overlap: \(b.given) \(relation) \(a.given) (\(b.canonical)); keep only one")
            }
        }
    }
}
