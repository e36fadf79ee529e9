/// What laying out a collection needs of a photo before any page shows it: its size,
/// orientation and capture time, its album and whether it is a video.
///
/// A tenth of a record or less: a collection of any size is laid out from these, and its
/// records are read a page at a time (`PhotoReading.photos(ids:)`). Its sizes are kept in the
/// fewest bytes that hold them (48 bytes an outline, not 88): a month of a large library holds
/// tens of thousands.
public struct PhotoOutline: Sendable, Equatable {
    public var id: Int64
    public var albumID: Int64
    /// The capture wall clock followed by its UTC offset when one is known
    /// (`2023-05-01T10:00:00+02:00`): one text, as the layout engine reads it.
    public var capturedAt: String?
    /// Width and height in pixels, -1 when unknown (sizes past Int32 are unknown too: no
    /// photo has them).
    private var pixelWidth, pixelHeight: Int32
    /// The EXIF orientation, 0 when unknown.
    private var exifOrientation: UInt8
    public var isVideo: Bool
    /// It has a GPS position (an album page with any shows its own map).
    public var hasPosition: Bool

    public var width: Int? {
        get { pixelWidth < 0 ? nil : Int(pixelWidth) }
        set { pixelWidth = Self.stored(newValue) }
    }

    public var height: Int? {
        get { pixelHeight < 0 ? nil : Int(pixelHeight) }
        set { pixelHeight = Self.stored(newValue) }
    }

    /// 1–8; nil when the photo has none (or one outside them, which the layout treats alike).
    public var orientation: Int? {
        get { exifOrientation == 0 ? nil : Int(exifOrientation) }
        set { exifOrientation = newValue.flatMap { (1...8).contains($0) ? UInt8($0) : nil } ?? 0 }
    }

    public init(
        id: Int64, albumID: Int64, width: Int?, height: Int?, orientation: Int?, capturedAt: String?, isVideo: Bool,
        hasPosition: Bool = false
    ) {
        self.id = id
        self.albumID = albumID
        self.capturedAt = capturedAt
        (pixelWidth, pixelHeight, exifOrientation) = (Self.stored(width), Self.stored(height), 0)
        self.isVideo = isVideo
        self.hasPosition = hasPosition
        self.orientation = orientation
    }

    private static func stored(_ size: Int?) -> Int32 {
        size.flatMap { $0 >= 0 ? Int32(exactly: $0) : nil } ?? -1
    }
}
