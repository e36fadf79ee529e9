import Glibc
public import SystemPackage

/// A file written in parts into a temporary file beside its path and renamed over it by
/// `finish`, so a reader never sees half of it; given up (not finished), the temporary goes.
///
/// One owner of the descriptor: closed by `finish`, or when the writer goes away.
public final class FileWriter {
    public let path: FilePath
    private let temporary: FilePath
    private var descriptor: Int32

    /// Creates the temporary file (and the folders above it when missing).
    public init(_ path: FilePath, mode: UInt32 = 0o644, directoryMode: UInt32 = 0o755) throws(SystemError) {
        let temporary = FileSystem.temporary(beside: path)
        func create() throws(SystemError) -> Int32 {
            try Syscall.retrying("create", path: temporary) {
                temporary.withPlatformString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode)) }
            }
        }
        do {
            descriptor = try create()
        } catch  where error.errno == .noSuchFileOrDirectory {
            // The folder is made only when it is missing: not a mkdir per component per write.
            try FileSystem.createDirectories(path.removingLastComponent(), mode: directoryMode)
            descriptor = try create()
        }
        self.path = path
        self.temporary = temporary
    }

    deinit {
        guard descriptor >= 0 else { return }
        close(descriptor)
        _ = temporary.withPlatformString(unlink)
    }

    /// Appends `bytes`.
    public func append(_ bytes: some Collection<UInt8>) throws(SystemError) {
        let data = Array(bytes)
        var written = 0
        while written < data.count {
            written += try Syscall.retrying("write-file", path: temporary) {
                data.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + written }, $0.count - written) }
            }
        }
    }

    /// Closes the file and puts it in place of `path`.
    ///
    /// - Parameter replacing: false keeps a file another writer put at `path` meanwhile (where
    ///   the file system cannot tell, by a hard link, the last one written stays).
    /// - Returns: whether this file is the one in place.
    @discardableResult
    public func finish(replacing: Bool = true) throws(SystemError) -> Bool {
        close(descriptor)
        descriptor = -1
        guard !replacing else {
            try FileSystem.replace(path, with: temporary)
            return true
        }
        let linked = temporary.withPlatformString { from in path.withPlatformString { to in link(from, to) } }
        let failure = errno
        guard linked != 0 else {
            _ = temporary.withPlatformString(unlink)
            return true
        }
        if failure == EEXIST {
            _ = temporary.withPlatformString(unlink)
            return false
        }
        try FileSystem.replace(path, with: temporary)
        return true
    }
}
