import Glibc
public import SystemPackage

/// Whole-path file-system operations: stat, directories, atomic writes, removal.
public enum FileSystem {
    /// `stat` of `path`, following symbolic links.
    public static func status(of path: FilePath) throws(SystemError) -> FileStatus {
        var info = stat()
        _ = try Syscall.retrying("stat", path: path) { path.withPlatformString { stat($0, &info) } }
        return FileStatus(info)
    }

    /// `lstat` of `path`: a symbolic link is reported as one.
    public static func linkStatus(of path: FilePath) throws(SystemError) -> FileStatus {
        var info = stat()
        _ = try Syscall.retrying("stat", path: path) { path.withPlatformString { lstat($0, &info) } }
        return FileStatus(info)
    }

    /// Whether this process may list and enter the directory at `path`.
    public static func isReadableDirectory(_ path: FilePath) -> Bool {
        path.withPlatformString { access($0, R_OK | X_OK) } == 0
    }

    /// `mkdir -p`: creates `directory` and its missing parents with `mode` (0755 by default).
    public static func createDirectories(_ directory: FilePath, mode: UInt32 = 0o755) throws(SystemError) {
        var current = FilePath(root: directory.root)
        for component in directory.components {
            current.append(component)
            let made = current.withPlatformString { mkdir($0, mode_t(mode)) }
            if made != 0 && errno != EEXIST {
                throw SystemError("create the directory", path: current, Errno(rawValue: errno))
            }
        }
    }

    /// Prefix of temporary files; anything named so is an interrupted write.
    public static let temporaryPrefix = ".tmp-"

    /// Writes `bytes` to `path` atomically, creating missing directories: the bytes go to a
    /// temporary file beside it, which is then renamed over `path`.
    ///
    /// A reader sees the old
    /// file, the new one or none, never a partial one, even after `kill -9`; a failure
    /// (a full disk) leaves nothing behind. The file gets `mode`, missing directories
    /// `directoryMode` (both less the umask).
    public static func writeAtomically(
        _ bytes: some Collection<UInt8>, to path: FilePath, mode: UInt32 = 0o644, directoryMode: UInt32 = 0o755
    ) throws(SystemError) {
        let writer = try FileWriter(path, mode: mode, directoryMode: directoryMode)
        try writer.append(bytes)
        try writer.finish()
    }

    /// Adds `bytes` at the end of the file at `path`, made when missing (a list that grows as
    /// work is done, and that a crash leaves with what was added before it).
    public static func append(_ bytes: some Collection<UInt8>, to path: FilePath) throws(SystemError) {
        let descriptor = try Syscall.retrying("open", path: path) {
            path.withPlatformString { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) }
        }
        defer { close(descriptor) }
        let data = Array(bytes)
        var written = 0
        while written < data.count {
            written += try Syscall.retrying("write-file", path: path) {
                data.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + written }, $0.count - written) }
            }
        }
    }

    /// A name for a temporary file beside `path`, to be renamed over it.
    public static func temporary(beside path: FilePath) -> FilePath {
        path.removingLastComponent().appending(
            "\(temporaryPrefix)\(path.lastComponent?.string ?? "file")-\(UInt64.random(in: 0...UInt64.max))")
    }

    /// Renames the finished `temporary` over `path`; on failure the temporary file goes.
    public static func replace(_ path: FilePath, with temporary: FilePath) throws(SystemError) {
        do {
            _ = try Syscall.retrying("rename", path: path) {
                temporary.withPlatformString { from in path.withPlatformString { to in rename(from, to) } }
            }
        } catch {
            _ = temporary.withPlatformString(unlink)
            throw error
        }
    }

    /// Renames `source` to `path` (a directory over an empty one, or onto a name that is free).
    public static func move(_ source: FilePath, to path: FilePath) throws(SystemError) {
        _ = try Syscall.retrying("rename", path: path) {
            source.withPlatformString { from in path.withPlatformString { to in Glibc.rename(from, to) } }
        }
    }

    /// Removes the file at `path`; a file already gone is not an error.
    public static func removeFile(_ path: FilePath) throws(SystemError) {
        guard path.withPlatformString(unlink) != 0 else { return }
        let code = Errno(rawValue: errno)
        guard code == .noSuchFileOrDirectory else { throw SystemError("remove", path: path, code) }
    }

    /// Removes whatever is at `path`: a file, a link (never what it points to) or a folder with
    /// all it holds (links inside are removed, not followed).
    ///
    /// Nothing there is not an error.
    public static func removeTree(_ path: FilePath) throws(SystemError) {
        guard let status = try? linkStatus(of: path) else { return }
        guard status.type == .directory else { return try removeFile(path) }
        for name in entries(of: path) ?? [] {
            try removeTree(FilePath(rawBytes: path.rawBytes + [UInt8(ascii: "/")] + name))
        }
        guard path.withPlatformString(rmdir) != 0 else { return }
        let code = Errno(rawValue: errno)
        guard code == .noSuchFileOrDirectory else { throw SystemError("remove", path: path, code) }
    }

    /// The whole of the small file at `path` (a manifest, a configuration): nil when it is not
    /// there, is not a regular file or holds more than `limit` bytes.
    public static func smallFileContents(_ path: FilePath, limit: Int) -> [UInt8]? {
        guard let file = try? RegularFile(opening: path) else { return nil }
        return (try? file.contents(limit: limit)) ?? nil
    }

    /// The paths listed in the file at `path` (nil: standard input), as `find -print0` or
    /// `find -print` writes them: separated by NUL bytes when there are any, else by newlines.
    ///
    /// Empty entries are skipped; names keep their exact bytes.
    public static func listedPaths(in path: FilePath?) throws(SystemError) -> [FilePath] {
        let bytes = try readToEnd(path)
        let separator: UInt8 = bytes.contains(0) ? 0 : UInt8(ascii: "\n")
        return bytes.split(separator: separator).map { FilePath(rawBytes: Array($0)) }
    }

    /// Everything readable from `path` until its end, whatever it is: a file, a pipe
    /// (`<(find …)`), a device; `nil` reads standard input.
    public static func readToEnd(_ path: FilePath?) throws(SystemError) -> [UInt8] {
        let descriptor =
            try path.map { path throws(SystemError) in
                try Syscall.retrying("open", path: path) { path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) } }
            } ?? STDIN_FILENO
        defer { if path != nil { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try Syscall.retrying("read", path: path) {
                chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// How many names `directory` holds (without `.`, `..` and names starting with `skipping`),
    /// counted without keeping them; nil when it cannot be listed.
    public static func entryCount(of directory: FilePath, skipping prefix: String) -> Int? {
        guard let handle = directory.withPlatformString({ opendir($0) }) else { return nil }
        defer { closedir(handle) }
        let skipped = Array(prefix.utf8)
        var count = 0
        while let entry = readdir(handle) {
            let counted = withUnsafeBytes(of: &entry.pointee.d_name) { name in
                guard name[0] != 0x2E || (name[1] != 0 && (name[1] != 0x2E || name[2] != 0)) else { return false }
                return skipped.isEmpty || !name.starts(with: skipped)
            }
            if counted { count += 1 }
        }
        return count
    }

    /// Whether `directory` holds anything (false when it cannot be read), without listing it all.
    public static func hasEntries(_ directory: FilePath) -> Bool {
        guard let handle = directory.withPlatformString({ opendir($0) }) else { return false }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix(3).prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { return true }
        }
        return false
    }

    /// The names in `directory` (without `.` and `..`), as bytes; nil when it cannot be listed.
    public static func entries(of directory: FilePath) -> [[UInt8]]? {
        guard let handle = directory.withPlatformString({ opendir($0) }) else { return nil }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }
}

extension FileSystem {
    /// The name of the file Tessera writes into every folder it fills with output of its own
    /// (an album site): a walk never enters a folder that holds it, wherever the folder lies.
    public static let ownOutputMarker = ".tessera-output"

    /// `path` made absolute against the working directory, with `.` and `..` folded lexically
    /// (no link resolved, nothing touched on disk).
    public static func absolute(_ path: FilePath) -> FilePath {
        guard !path.isAbsolute else { return path.lexicallyNormalized() }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path.lexicallyNormalized() }
        return FilePath(platformString: buffer).pushing(path).lexicallyNormalized()
    }

    /// `realpath(3)`: `path` made absolute, with every symbolic link, `.` and `..` resolved.
    public static func canonicalPath(_ path: FilePath) throws(SystemError) -> FilePath {
        guard let resolved = path.withPlatformString({ realpath($0, nil) }) else {
            throw SystemError("resolve", path: path, Errno(rawValue: errno))
        }
        defer { free(resolved) }
        return FilePath(platformString: resolved)
    }
}
