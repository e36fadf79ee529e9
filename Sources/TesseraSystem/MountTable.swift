public import SystemPackage

/// The mounted file systems, as `/proc/self/mounts` lists them.
public enum MountTable {
    /// The type of the file system holding `path` (`ext4`, `nfs4`, `fuse.sshfs`): that of the
    /// longest mount point containing it; nil when the table cannot be read.
    public static func fileSystemType(of path: FilePath) -> String? {
        guard let bytes = FileSystem.smallFileContents("/proc/self/mounts", limit: 16 << 20) else { return nil }
        var best: (point: String, type: String)?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            // Mount points escape spaces as \040.
            let point = fields[1].split(separator: "\\040", omittingEmptySubsequences: false).joined(separator: " ")
            let contains = point == "/" || path.string == point || path.string.hasPrefix(point + "/")
            if contains && point.count > (best?.point.count ?? -1) { best = (point, String(fields[2])) }
        }
        return best?.type
    }
}
