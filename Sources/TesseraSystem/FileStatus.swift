import Glibc

/// What kind of directory entry a path names.
public enum FileType: Sendable, Equatable, CustomStringConvertible {
    case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .unknown
        }
    }

    /// "a FIFO", "a directory", … for messages.
    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .unknown: "a special file"
        }
    }
}

/// The `stat` fields Tessera uses.
public struct FileStatus: Sendable, Equatable {
    public var type: FileType
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Modification time.
    public var mtimeSeconds: Int64
    public var mtimeNanoseconds: Int
    /// Status change time (ctime) in nanoseconds since the epoch: unlike the modification time,
    /// nothing but the kernel sets it, so no restore or `touch` can put it back.
    public var changeTotalNanoseconds: Int64
    /// The owning group's id.
    public var groupID: UInt32

    init(_ info: stat) {
        type = FileType(mode: info.st_mode)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        mtimeSeconds = Int64(info.st_mtim.tv_sec)
        mtimeNanoseconds = Int(info.st_mtim.tv_nsec)
        changeTotalNanoseconds = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
        groupID = info.st_gid
    }

    /// The owning group's name from the system's group database, or its number when it has none.
    public var groupName: String {
        var entry = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrgid_r(groupID, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name
        else {
            return String(groupID)
        }
        return String(cString: name)
    }

    /// The modification time in nanoseconds since the epoch.
    public var mtimeTotalNanoseconds: Int64 { mtimeSeconds &* 1_000_000_000 &+ Int64(mtimeNanoseconds) }
}

/// The last modification time of a file, from its stat.
public struct FileTime: Sendable, Hashable {
    public var seconds: Int64
    public var nanoseconds: Int

    public init(seconds: Int64, nanoseconds: Int) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }
}
