import Glibc
public import SystemPackage

/// A regular file open for reading; the descriptor is closed when the value goes away.
///
/// Opening never blocks: the file is opened with `O_NONBLOCK` (a FIFO would otherwise
/// wait for a writer forever) and `O_NOCTTY`, optionally `O_NOFOLLOW`, and then must be
/// a regular file by `fstat` of the open descriptor, so a path swapped for a FIFO or a
/// device between a directory walk and the open is refused, not read.
public final class RegularFile: Sendable {
    public let path: FilePath
    public let status: FileStatus
    private let descriptor: Int32

    /// Opens `path` for reading.
    ///
    /// - Parameter followSymlinks: false refuses a symbolic link at `path` itself.
    /// - Throws: `FileReadError` of kind `notRegularFile` for anything but a regular file.
    public init(opening path: FilePath, followSymlinks: Bool = true) throws(FileReadError) {
        var flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        if !followSymlinks { flags |= O_NOFOLLOW }
        let descriptor: Int32
        do {
            descriptor = try Syscall.retrying("open", path: path) { path.withPlatformString { open($0, flags) } }
        } catch  where error.errno == .tooManySymbolicLinkLevels && !followSymlinks {
            throw FileReadError(path: path, .notRegularFile(.symbolicLink))
        } catch {
            throw FileReadError(path: path, .system(error))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = SystemError("stat", path: path, Errno(rawValue: errno))
            close(descriptor)
            throw FileReadError(path: path, .system(error))
        }
        let status = FileStatus(info)
        guard status.type == .regular else {
            close(descriptor)
            throw FileReadError(path: path, .notRegularFile(status.type))
        }
        self.path = path
        self.status = status
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Reads into `buffer` from `offset`: the bytes read, fewer only at the end of the file.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got = try Syscall.retrying("read", path: path) {
                pread(
                    descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled,
                    off_t(offset) + off_t(filled))
            }
            if got == 0 { break }
            filled += got
        }
        return filled
    }

    /// The whole of a small file (a configuration, a manifest, `/proc/self/mounts`): nil when it
    /// holds more than `limit` bytes.
    ///
    /// Read to its end, not to the size `fstat` gave: the kernel's
    /// own files say 0. Its reads are not the photo reads a test's `read:` fault stands in for.
    public func contents(limit: Int) throws(SystemError) -> [UInt8]? {
        guard status.size <= Int64(limit) else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let offset = off_t(bytes.count)
            let got = try Syscall.retrying("read the file", path: path) {
                chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            }
            if got == 0 { return bytes }
            bytes += chunk[..<got]
        }
        return nil
    }

    /// The path that reopens exactly this file through its descriptor (`/proc/self/fd/N`),
    /// for libraries that insist on opening files themselves; valid while this object lives.
    public var descriptorPath: FilePath { FilePath("/proc/self/fd/\(descriptor)") }
}
