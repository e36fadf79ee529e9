/// What laying out a collection needs of a photo before any page shows it: its size,
/// orientation and capture time, its album and whether it is a video.
///
/// A tenth of a record or less: a collection of any size is laid out from these, and its
/// records are read a page at a time (`PhotoReading.photos(ids:)`).
public struct PhotoOutline: Sendable, Equatable {
    public var id: Int64
    public var albumID: Int64
    public var width: Int?
    public var height: Int?
    public var orientation: Int?
    /// The capture wall clock followed by its UTC offset when one is known
    /// (`2023-05-01T10:00:00+02:00`): one text, as the layout engine reads it.
    public var capturedAt: String?
    public var isVideo: Bool

    public init(
        id: Int64, albumID: Int64, width: Int?, height: Int?, orientation: Int?, capturedAt: String?, isVideo: Bool
    ) {
        self.id = id
        self.albumID = albumID
        self.width = width
        self.height = height
        self.orientation = orientation
        self.capturedAt = capturedAt
        self.isVideo = isVideo
    }
}
