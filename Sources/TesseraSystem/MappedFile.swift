import Glibc
public import SystemPackage

/// A regular file mapped read-only into memory, whole: its pages are read as they are touched and
/// shared by every process that maps it, so a table of many megabytes costs what is looked up.
///
/// The one owner of the mapping, unmapped in `deinit`. The file is read as it is: a reader of
/// its bytes checks every offset it takes from them.
public final class MappedFile: @unchecked Sendable {
    // (@unchecked: the mapping is read-only and never changes while this object lives)
    private let base: UnsafeRawPointer?
    public let count: Int

    /// Maps the file at `path`; throws when it cannot be opened or mapped, or is not a regular file.
    public init(path: FilePath) throws(SystemError) {
        let descriptor = try Syscall.retrying("open", path: path) {
            path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        }
        defer { close(descriptor) }
        var status = stat()
        _ = try Syscall.retrying("fstat", path: path) { fstat(descriptor, &status) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw SystemError("mmap", path: path, .invalidArgument) }
        count = Int(status.st_size)
        guard count > 0 else {
            base = nil
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw SystemError("mmap", path: path, Errno(rawValue: Glibc.errno))
        }
        base = UnsafeRawPointer(mapped)
    }

    deinit {
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// Calls `body` with the file's bytes, valid only within it.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
    }
}
