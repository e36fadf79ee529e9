import Glibc
public import SystemPackage

/// An open directory: its entries by name, each stat'ed relative to it (`fstatat`), so a
/// walk costs one `stat` per entry and builds no path for entries it skips.
public final class DirectoryListing {
    private let handle: OpaquePointer
    public let path: FilePath

    /// Opens `path` for listing.
    public init(opening path: FilePath) throws(SystemError) {
        guard let handle = path.withPlatformString({ opendir($0) }) else {
            throw SystemError("list", path: path, Errno(rawValue: errno))
        }
        self.handle = handle
        self.path = path
    }

    deinit { closedir(handle) }

    /// The directory's own device and inode.
    public var identity: (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard fstat(dirfd(handle), &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Whether the directory holds an entry called `name` (of any type, a link not followed).
    public func holds(_ name: String) -> Bool {
        var info = stat()
        return fstatat(dirfd(handle), name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// One entry while it is being visited; its name points into the directory stream.
    public struct Entry {
        /// The name's bytes, without the NUL; valid only during the visit.
        public let name: UnsafeBufferPointer<UInt8>
        fileprivate let directory: Int32

        /// `fstatat` of the entry; nil with the errno when it failed (ENOENT: deleted since listed).
        public func status(followSymlinks: Bool) -> Result<FileStatus, SystemError> {
            var info = stat()
            // invariant: d_name is a NUL-terminated array inside the dirent.
            let cName = UnsafeRawPointer(name.baseAddress.unsafelyUnwrapped).assumingMemoryBound(to: CChar.self)
            guard fstatat(directory, cName, &info, followSymlinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0 else {
                return .failure(SystemError("stat", Errno(rawValue: errno)))
            }
            return .success(FileStatus(info))
        }
    }

    /// Calls `visit` for each entry but `.` and `..`, until it returns false.
    public func forEach(_ visit: (Entry) -> Bool) {
        let descriptor = dirfd(handle)
        while let entry = readdir(handle) {
            let keepGoing = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> Bool in
                let length = strnlen(raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: CChar.self), raw.count)
                let name = UnsafeBufferPointer(
                    start: raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self), count: length)
                if length <= 2 && name.allSatisfy({ $0 == UInt8(ascii: ".") }) { return true }
                return visit(Entry(name: name, directory: descriptor))
            }
            if !keepGoing { return }
        }
    }
}

/// A shell wildcard pattern (`fnmatch`), matched against names as bytes.
public struct Glob: Sendable {
    private let pattern: [CChar]

    public init(_ pattern: String) {
        self.pattern = Array(pattern.utf8CString)
    }

    public func matches(_ bytes: [UInt8]) -> Bool {
        let text = bytes.map { CChar(bitPattern: $0) } + [0]
        return fnmatch(pattern, text, 0) == 0
    }
}
