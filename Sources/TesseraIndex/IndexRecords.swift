public import Foundation
public import SystemPackage
public import TesseraMetadata
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

/// One rendered thumbnail file of a photo.
public struct ThumbnailEntry: Sendable, Equatable {
    public var size: Int
    public var side: Int
    public var path: String

    public init(size: Int, side: Int, path: String) {
        self.size = size
        self.side = side
        self.path = path
    }
}

/// What a scan learned about one file, to be written to the index.
public struct FileUpdate: Sendable {
    public enum Content: Sendable {
        /// Read (and rendered, unless the cache already had it); warnings from every stage.
        case photo(PhotoMetadata, warnings: [String], contentHash: String, thumbnailKey: String, thumbnails: [ThumbnailEntry])
        /// Could not be read or decoded; metadata when the header was still readable.
        case failed(format: ImageFormat, error: PhotoError, metadata: PhotoMetadata?)
        /// Not a photo Tessera reads (another format, a FIFO); recorded so that rescans do not open it again.
        case unsupported(reason: String)
    }

    public var path: FilePath
    /// The directory holding the file (its album) and the configured root above it.
    public var albumPath: FilePath
    public var root: FilePath
    public var identity: FileIdentity
    public var content: Content

    public init(path: FilePath, albumPath: FilePath, root: FilePath, identity: FileIdentity, content: Content) {
        self.path = path
        self.albumPath = albumPath
        self.root = root
        self.identity = identity
        self.content = content
    }
}

/// A file found at a new path with the identity (device, inode, size, mtime) of an indexed one.
public struct FileMove: Sendable {
    public var id: Int64
    public var path: FilePath
    public var albumPath: FilePath
    public var root: FilePath

    public init(id: Int64, path: FilePath, albumPath: FilePath, root: FilePath) {
        self.id = id
        self.path = path
        self.albumPath = albumPath
        self.root = root
    }
}

/// Counts of one scan, as stored in the `scans` table.
public struct ScanCounts: Sendable, Equatable, Codable {
    public var found = 0
    public var new = 0
    public var changed = 0
    public var unchanged = 0
    public var moved = 0
    public var removed = 0
    public var unsupported = 0
    public var errors = 0
    public var warnings = 0

    public init() {}
}

/// How a scan stands or ended, as the `scans` table records it.
public enum ScanState: String, Sendable, Codable {
    case running
    /// The walk completed and vanished files were removed.
    case finished
    /// Stopped (SIGTERM, Ctrl-C), killed, or a root disappeared: nothing was removed.
    case interrupted
    /// The scan could not go on (the index could not be written): see the reason.
    case failed
}

/// One row of the `scans` table.
public struct ScanRecord: Sendable, Codable {
    public var id: Int64
    public var startedAt: Date
    public var finishedAt: Date?
    public var state: ScanState
    /// Why the scan failed or was interrupted, when known.
    public var reason: String?
    public var full: Bool
    public var counts: ScanCounts
}

/// One album: a directory of photos.
public struct AlbumRecord: Sendable, Codable {
    public var id: Int64
    public var path: String
    /// The directory relative to its root; "" for photos directly in the root.
    public var name: String
    public var photoCount: Int
    public var newestCapturedAt: String?
    public var oldestCapturedAt: String?
    public var coverPhotoID: Int64?
}
