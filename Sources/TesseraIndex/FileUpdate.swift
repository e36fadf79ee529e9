public import SystemPackage
public import TesseraFacts
public import TesseraSystem

/// The renditions of a photo, and what they were made with.
public struct PhotoRenditions: Sendable {
    public var contentHash: String
    /// Names the rendition files (content hash and pixel-changing settings).
    public var key: String
    public var renditions: [RenditionEntry]
    /// The placeholder; nil when none was made (the next scan makes it).
    public var thumbhash: [UInt8]?
    /// The settings signature (`render_settings`).
    public var settings: String
    /// A video's: the time in seconds of the frame the renditions show (`poster_time_s`).
    public var posterTime: Double?
    /// The analyses of its pixels (`PhotoAnalysis`).
    ///
    /// Each is done with the renditions, or pending in the index's queue; an analysis not
    /// named keeps nothing.
    public var analyses: [AnalysisResult]

    public init(
        contentHash: String, key: String, renditions: [RenditionEntry], thumbhash: [UInt8]?, settings: String,
        posterTime: Double? = nil, analyses: [AnalysisResult] = []
    ) {
        self.contentHash = contentHash
        self.key = key
        self.renditions = renditions
        self.thumbhash = thumbhash
        self.settings = settings
        self.posterTime = posterTime
        self.analyses = analyses
    }
}

/// What a scan learned about one file, to be written to the index.
public struct FileUpdate: Sendable {
    public enum Content: Sendable {
        /// Read and rendered; warnings from every stage.
        case photo(PhotoFacts, warnings: [String], renditions: PhotoRenditions)
        /// Could not be read or decoded; its facts when the header was still readable.
        case failed(format: ImageFormat, error: PhotoError, facts: PhotoFacts?)
        /// Not a photo Tessera reads (another format, a FIFO); recorded so that rescans do not open it again.
        case unsupported(reason: String)
    }

    public var path: FilePath
    /// The directory holding the file (its album) and the configured root above it.
    public var albumPath: FilePath
    public var root: FilePath
    public var identity: FileIdentity
    /// The XMP sidecar read with the file, if it has one.
    public var sidecar: SidecarIdentity?
    public var content: Content

    public init(
        path: FilePath, albumPath: FilePath, root: FilePath, identity: FileIdentity, sidecar: SidecarIdentity? = nil,
        content: Content
    ) {
        self.path = path
        self.albumPath = albumPath
        self.root = root
        self.identity = identity
        self.sidecar = sidecar
        self.content = content
    }
}

/// A photo's sidecar: its name beside the photo, and its stamp.
public struct SidecarIdentity: Sendable, Equatable {
    public var name: [UInt8]
    public var stamp: SidecarStamp

    public init(name: [UInt8], stamp: SidecarStamp) {
        self.name = name
        self.stamp = stamp
    }
}

/// What a rescan compares of a sidecar: its size and mtime.
///
/// A sidecar edit leaves the photo's
/// own mtime alone, so the photo is read again when this changes (or the sidecar comes or goes).
public struct SidecarStamp: Sendable, Equatable {
    public var size: Int64
    public var mtimeNanoseconds: Int64

    public init(size: Int64, mtimeNanoseconds: Int64) {
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
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
