public import Foundation
public import SystemPackage
import TesseraSystem

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

/// A file the index already knows, as a rescan needs it.
public struct IndexedFile: Sendable {
    public var id: Int64
    /// The path's exact bytes; `path` builds the `FilePath` only when asked.
    public var pathBytes: Data
    public var identity: FileIdentity
    /// Recorded with a transient error (I/O, permission, vanished): read again even if unchanged.
    public var needsRetry: Bool
    /// For a displayable photo: what its renditions were made from and with (nil when settled:
    /// see `PhotoIndex.files(inDirectory:settled:)`).
    public var rendering: Rendering?

    /// What a photo's renditions were made from and with.
    public struct Rendering: Sendable {
        public var contentHash: String
        public var key: String
        /// The `render_settings` they answer to; nil for renditions from before it was recorded.
        public var settings: String?
        public var hasThumbhash: Bool
    }

    public var path: FilePath { FilePath(rawBytes: pathBytes) }
}

/// A file name's exact bytes as a dictionary key, hashed in one pass.
public struct NameKey: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
