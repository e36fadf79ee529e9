public import SystemPackage
public import TesseraFacts
import TesseraSystem

/// The video half of a Live Photo: a row of its own, shown as the still's motion.
public struct LivePhotoVideo: Sendable, Equatable {
    public var id: Int64
    public var pathBytes: [UInt8]
    public var format: ImageFormat
    public var duration: Double?
    public var codec: String?
    /// Its web rendition in the cache, when browsers cannot play it (`web_videos`).
    public var webVideo: String?

    public init(
        id: Int64, pathBytes: [UInt8], format: ImageFormat, duration: Double?, codec: String?, webVideo: String? = nil
    ) {
        self.id = id
        self.pathBytes = pathBytes
        self.format = format
        self.duration = duration
        self.codec = codec
        self.webVideo = webVideo
    }

    public var path: FilePath { FilePath(rawBytes: pathBytes) }
}
