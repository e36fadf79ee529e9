public import TesseraIndex
import TesseraMetadata
public import TesseraSystem

/// What the walk decides of one directory's files together, for every walk that records them (a
/// scan's, a cluster's).
public enum DirectoryFiles {
    /// Which file each sidecar among a directory's files belongs to, and each sidecar's stamp.
    public static func sidecars(in events: [Walker.Event]) -> ([NameKey: NameKey], [NameKey: SidecarStamp]) {
        var names: [[UInt8]] = []
        var stamps: [NameKey: SidecarStamp] = [:]
        for case .file(let file) in events {
            names.append(file.name)
            if Sidecar.isSidecar(file.name) {
                stamps[NameKey(file.name)] = SidecarStamp(
                    size: file.identity.size, mtimeNanoseconds: file.identity.mtimeNanoseconds)
            }
        }
        guard !stamps.isEmpty else { return ([:], [:]) }
        return (Sidecar.pairs(in: names), stamps)
    }

    /// Whether the file named `name` is a sidecar: part of its photo, never an item of its own.
    public static func isSidecar(_ name: [UInt8]) -> Bool { Sidecar.isSidecar(name) }
}
