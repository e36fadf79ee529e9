/// One rendition a photo gets: a kind and a size.
public struct RenditionSpec: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Aspect-fill: the centred square, `size` pixels a side.
        case square
        /// Aspect-true: the whole frame, `size` pixels on its long edge.
        case fit
    }

    public var kind: Kind
    public var size: Int

    public init(_ kind: Kind, _ size: Int) {
        self.kind = kind
        self.size = size
    }

    public static func square(_ size: Int) -> RenditionSpec { RenditionSpec(.square, size) }
    public static func fit(_ size: Int) -> RenditionSpec { RenditionSpec(.fit, size) }

    /// "square 256", "fit 2048".
    public var description: String { "\(kind.rawValue) \(size)" }

    public static func < (lhs: RenditionSpec, rhs: RenditionSpec) -> Bool {
        (lhs.kind.rawValue, lhs.size) < (rhs.kind.rawValue, rhs.size)
    }

    /// The output size for a photo stored `width`×`height`: never larger than the photo.
    public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        switch kind {
        case .square:
            let side = max(1, min(size, min(width, height)))
            return (side, side)
        case .fit:
            let scale = min(1, Double(size) / Double(max(width, height)))
            return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
        }
    }
}

/// Where a rendition's pixels came from.
public enum RenditionSource: String, Sendable, Codable {
    /// The image data, decoded at a reduced scale.
    case decoded
    /// Only the first (DC) scans of a progressive JPEG.
    case dcScans = "dc-scans"
    /// An MPF large thumbnail embedded in the JPEG.
    case mpfPreview = "mpf-preview"
    /// The EXIF thumbnail embedded in the JPEG.
    case exifThumbnail = "exif-thumbnail"
    /// A thumbnail image of a HEIF or AVIF file.
    case heifThumbnail = "heif-thumbnail"
    /// The DC of a JPEG XL frame: its image at 1/8 of the detail, the rest of the file unread.
    case jxlDC = "jxl-dc"
    /// The JPEG preview embedded in a camera RAW file.
    case rawPreview = "raw-preview"
    /// A video's poster frame (`PosterFrame`).
    case videoFrame = "video-frame"
}
