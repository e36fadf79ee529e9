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
