public import SystemPackage
import TesseraSystem

/// The video half of a Live Photo: a row of its own, shown as the still's motion.
public struct LivePhotoVideo: Sendable, Equatable {
    public var id: Int64
    public var pathBytes: [UInt8]
    public var duration: Double?

    public init(id: Int64, pathBytes: [UInt8], duration: Double?) {
        self.id = id
        self.pathBytes = pathBytes
        self.duration = duration
    }

    public var path: FilePath { FilePath(rawBytes: pathBytes) }
}
