public import SystemPackage

/// A failed system call: what was attempted, on which path, and the `errno` it set.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    /// What was being done, such as "open" or "rename".
    public var operation: String
    public var path: FilePath?
    public var errno: Errno

    public init(_ operation: String, path: FilePath? = nil, _ errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// Whether the file or a directory above it is gone (ENOENT, ENOTDIR).
    public var isVanished: Bool { errno == .noSuchFileOrDirectory || errno == .notDirectory }
    /// Whether permissions forbid it (EACCES, EPERM).
    public var isPermission: Bool { errno == .permissionDenied || errno == .notPermitted }
    /// Whether the file system is full or over quota (ENOSPC, EDQUOT).
    public var isNoSpace: Bool { errno == .noSpace || errno == .diskQuotaExceeded }

    /// "cannot open: No such file or directory", without the path.
    public var reason: String { "cannot \(operation): \(errno)" }

    public var description: String { path.map { "\($0): \(reason)" } ?? reason }
}
