/// What identifies a file's content without opening it: the stat fields a rescan compares.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var mtimeNanoseconds: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, mtimeNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
    }
}

extension FileIdentity {
    /// The identity of a file from its status (`stat` of a listed entry, `fstat` of an open file).
    public init(_ status: FileStatus) {
        self.init(
            device: status.device, inode: status.inode, size: status.size,
            mtimeNanoseconds: status.mtimeTotalNanoseconds)
    }
}
