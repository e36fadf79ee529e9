import Glibc
public import SystemPackage
public import TesseraIndex
import TesseraMetadata
import TesseraSystem

/// Walks photo roots depth first with one `fstatat` per entry, never opening files.
///
/// Names are bytes: a name that is not valid UTF-8 is walked like any other.
/// Hidden entries (a leading dot) and entries matching an exclude glob are
/// skipped. Symbolic links are skipped unless followed; when followed, every
/// directory is entered once per (device, inode), which ends link loops.
public struct Walker: Sendable {
    public struct Options: Sendable {
        public var exclude: [String]
        public var followSymlinks: Bool
        /// Directories never entered (the index's and the cache's, when inside a root).
        public var skip: Set<FilePath>

        public init(exclude: [String], followSymlinks: Bool, skip: Set<FilePath>) {
            self.exclude = exclude
            self.followSymlinks = followSymlinks
            self.skip = skip
        }
    }

    /// What the walk reports, in order: each directory before its files.
    public enum Event {
        /// A directory about to be listed, with its path's exact bytes.
        case directory(FilePath, bytes: [UInt8])
        /// A regular file in the last directory reported, by name; `File.path` builds its path.
        case file(File)
        /// A directory that could not be listed; what was indexed below it must be kept.
        case unreadable(FilePath, reason: String)
        /// A directory that was gone when the walk came to it (deleted, or its root unmounted).
        case vanished(FilePath)
    }

    /// A regular file: its directory and name as bytes, and its identity from `fstatat`.
    public struct File {
        public let directory: [UInt8]
        public let name: [UInt8]
        public let identity: FileIdentity

        public var path: FilePath { FilePath(rawBytes: directory + [UInt8(ascii: "/")] + name) }
    }

    let options: Options
    /// The skipped paths by their directory's bytes, so each directory is looked up once.
    private let skipByDirectory: [NameKey: Set<NameKey>]

    public init(options: Options) {
        self.options = options
        var skip: [NameKey: Set<NameKey>] = [:]
        for path in options.skip {
            let bytes = path.rawBytes
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { continue }
            skip[NameKey(bytes[..<slash]), default: []].insert(NameKey(bytes[(slash + 1)...]))
        }
        skipByDirectory = skip
    }

    /// Walks `root`, calling `visit` for every event; `visit` returns false to stop the walk.
    public func walk(_ root: FilePath, _ visit: (Event) -> Bool) {
        var pending = [root]
        var visited: Set<[UInt64]> = []
        while let directory = pending.popLast() {
            guard let handle = directory.withPlatformString({ opendir($0) }) else {
                let code = Errno(rawValue: errno)
                if code == .noSuchFileOrDirectory || code == .notDirectory {
                    guard visit(.vanished(directory)) else { return }
                } else {
                    guard visit(.unreadable(directory, reason: "cannot list: \(code)")) else { return }
                }
                continue
            }
            defer { closedir(handle) }
            let descriptor = dirfd(handle)
            var info = stat()
            if fstat(descriptor, &info) == 0 {
                guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
            }
            let directoryBytes = directory.rawBytes
            let skipHere = skipByDirectory[NameKey(directoryBytes)]
            guard visit(.directory(directory, bytes: directoryBytes)) else { return }
            var subdirectories: [FilePath] = []
            while let entry = readdir(handle) {
                // d_name is NUL-terminated in place: fstatat takes it as is, with no copy per entry.
                let (name, status) = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                    let name = Array(raw.prefix { $0 != 0 })
                    guard name.first != UInt8(ascii: "."),  // hidden, and . and ..
                          skipHere?.contains(NameKey(name)) != true,
                          !isExcluded(name: name, directory: directoryBytes, root: root)
                    else { return (name, Int32(-2)) }
                    let flags = options.followSymlinks ? 0 : AT_SYMLINK_NOFOLLOW
                    // invariant: d_name is a fixed array inside the dirent, never empty.
                    guard let cName = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return (name, Int32(-1)) }
                    return (name, fstatat(descriptor, cName, &info, flags))
                }
                guard status != -2 else { continue }
                guard status == 0 else {
                    if errno != ENOENT {  // vanished since readdir: nothing to report
                        let path = FilePath(rawBytes: directoryBytes + [UInt8(ascii: "/")] + name)
                        _ = visit(.unreadable(path, reason: "cannot stat: \(Errno(rawValue: errno))"))
                    }
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    subdirectories.append(FilePath(rawBytes: directoryBytes + [UInt8(ascii: "/")] + name))
                case S_IFREG:
                    let identity = FileIdentity(
                        device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                        mtimeNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
                    guard visit(.file(File(directory: directoryBytes, name: name, identity: identity))) else { return }
                default:
                    continue  // symlinks not followed, devices, FIFOs, sockets
                }
            }
            // Sorted and reversed so the stack pops them in name order.
            pending += subdirectories.sorted { $0.rawBytes.lexicographicallyPrecedes($1.rawBytes) }.reversed()
        }
    }

    private func isExcluded(name: [UInt8], directory: [UInt8], root: FilePath) -> Bool {
        guard !options.exclude.isEmpty else { return false }
        var relative = FilePath(rawBytes: directory + [UInt8(ascii: "/")] + name)
        _ = relative.removePrefix(root)
        let nameText = name.map { CChar(bitPattern: $0) } + [0]
        let relativeText = relative.rawBytes.map { CChar(bitPattern: $0) } + [0]
        return options.exclude.contains { pattern in
            fnmatch(pattern, nameText, 0) == 0 || fnmatch(pattern, relativeText, 0) == 0
        }
    }
}
