import Glibc
public import SystemPackage

/// Hard links, symbolic links and copies: how an album folder carries files without
/// duplicating them where the file system allows.
extension FileSystem {
    /// Gives the file at `existing` a second name, `path` (`link(2)`); fails across file systems.
    public static func hardLink(_ existing: FilePath, at path: FilePath) throws(SystemError) {
        _ = try Syscall.retrying("link", path: path) {
            existing.withPlatformString { from in path.withPlatformString { to in link(from, to) } }
        }
    }

    /// Makes `path` a symbolic link to `target`.
    public static func symbolicLink(to target: FilePath, at path: FilePath) throws(SystemError) {
        _ = try Syscall.retrying("symlink", path: path) {
            target.withPlatformString { to in path.withPlatformString { at in symlink(to, at) } }
        }
    }

    /// Where the symbolic link at `path` points; nil when `path` is not a symbolic link.
    public static func linkTarget(of path: FilePath) -> FilePath? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = path.withPlatformString { readlink($0, &buffer, buffer.count - 1) }
        guard count > 0 else { return nil }
        return FilePath(rawBytes: buffer.prefix(count).map { UInt8(bitPattern: $0) })
    }

    /// Copies the regular file at `source` to `path` through a temporary file, so a reader
    /// never sees half a copy; memory stays at one 1 MiB buffer whatever the size.
    ///
    /// - Parameter replacing: false keeps a file another writer put at `path` meanwhile.
    /// - Returns: whether this copy is the one in place.
    @discardableResult
    public static func copyFile(
        _ source: FilePath, to path: FilePath, replacing: Bool = true
    ) throws(SystemError)
        -> Bool
    {
        let input = try Syscall.retrying("open", path: source) {
            source.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        }
        defer { close(input) }
        let output = try FileWriter(path)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try Syscall.retrying("read", path: source) {
                buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            }
            guard count > 0 else { break }
            try output.append(buffer[..<count])
        }
        return try output.finish(replacing: replacing)
    }
}
