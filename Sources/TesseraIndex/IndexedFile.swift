public import Foundation
public import SystemPackage
public import TesseraSystem

/// A file the index already knows, as a rescan needs it.
public struct IndexedFile: Sendable {
    public var id: Int64
    /// The path's exact bytes; `path` builds the `FilePath` only when asked.
    public var pathBytes: Data
    public var identity: FileIdentity
    /// Recorded with a transient error (I/O, permission, vanished): read again even if unchanged.
    public var needsRetry: Bool
    /// The stamp of the sidecar it was read with, if any.
    public var sidecar: SidecarStamp?
    /// For a displayable photo: what its renditions were made from and with (nil when settled:
    /// see `PhotoIndex.files(inDirectory:settled:)`).
    public var rendering: Rendering?

    /// What a photo's renditions were made from and with.
    public struct Rendering: Sendable {
        public var contentHash: String
        public var key: String
        /// The `render_settings` they answer to; nil for renditions from before it was recorded.
        public var settings: String?
        /// Whether its placeholder is recorded (else it is decoded again for it).
        public var hasThumbhash: Bool
    }

    public var path: FilePath { FilePath(rawBytes: pathBytes) }
}
