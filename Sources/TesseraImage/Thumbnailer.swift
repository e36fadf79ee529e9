public import SystemPackage
public import TesseraMetadata

/// Renders upright, aspect-fill, square thumbnails of JPEG and PNG photos.
///
/// The pipeline, per photo: read the header and check the pixel limit; decode
/// once, at the smallest JPEG DCT scale that still covers the largest size
/// asked for; cut the centred square (with sub-pixel edges); resample it with
/// Lanczos-3 to each size; apply the EXIF orientation to the small result;
/// encode. Photos smaller than a size are not enlarged: their thumbnail is
/// the square at the photo's own resolution.
///
/// A thumbnailer holds TurboJPEG handles and is not thread-safe: give each
/// worker its own.
///
/// ```swift
/// let thumbnailer = try Thumbnailer(options: ThumbnailOptions())
/// let rendered = try thumbnailer.render(file: "IMG_0042.jpg", sizes: [256])
/// ```
public final class Thumbnailer {
    public let options: ThumbnailOptions
    private let decoder: JPEGDecoder
    private let encoder: JPEGEncoder

    public init(options: ThumbnailOptions) throws(PhotoError) {
        self.options = options
        self.decoder = try JPEGDecoder()
        self.encoder = try JPEGEncoder()
    }

    /// The result of rendering one photo.
    public struct Rendered: Sendable {
        public var metadata: PhotoMetadata
        /// Thumbnails keyed by requested size.
        public var thumbnails: [Int: Thumbnail]
        /// Recoverable problems met while decoding (the metadata has its own).
        public var warnings: [String]
    }

    /// Reads the file at `path` once and renders it at each of `sizes`.
    ///
    /// - Throws: `PhotoError` naming the path: `.tooLarge` for images over the
    ///   pixel limit, `.unsupported` for JPEG variants libjpeg-turbo cannot
    ///   decode, `.corrupt` or `.truncated` for damaged files.
    public func render(
        file path: FilePath, sizes: [Int], context: DateContext = DateContext()
    ) throws(PhotoError) -> Rendered {
        let (metadata, contents) = try MetadataReader.readForDecoding(
            at: path, pixelLimit: options.pixelLimit, context: context)
        do {
            return try render(contents: contents, metadata: metadata, sizes: sizes)
        } catch {
            throw error.at(path)
        }
    }

    /// Renders `contents` (a whole file whose metadata is `metadata`) at each of `sizes`.
    public func render(contents: [UInt8], metadata: PhotoMetadata, sizes: [Int]) throws(PhotoError) -> Rendered {
        precondition(!sizes.isEmpty && sizes.allSatisfy { $0 > 0 })  // invariant: configuration validates sizes
        try metadata.checkPixelLimit(options.pixelLimit)
        let largest = sizes.max() ?? 1
        let decoded: PixelBuffer
        var scale = 1.0
        var warnings: [String] = []
        switch metadata.format {
        case .jpeg:
            if let jpeg = metadata.jpeg {
                try Self.checkDecodable(jpeg)
            }
            let (image, jpegScale, warning) = try decoder.decode(
                contents, minimumSide: largest, adobeInverted: metadata.jpeg?.adobeTransform != nil)
            decoded = image
            scale = jpegScale
            warning.map { warnings.append($0) }
        case .png:
            let (image, warning) = try PNGCodec.decode(contents)
            decoded = image
            warning.map { warnings.append($0) }
        case .unsupported:
            throw PhotoError(.notAnImage, "not a JPEG or PNG file")
        }

        // The centred square, in decoded pixels, from the photo's exact scaled extent.
        var thumbnails: [Int: Thumbnail] = [:]
        let photoSide = min(metadata.width, metadata.height)
        let extentX = min(Double(metadata.width) * scale, Double(decoded.width))
        let extentY = min(Double(metadata.height) * scale, Double(decoded.height))
        let cropSide = min(extentX, extentY)
        let rect = Resampler.Rect(
            x: (extentX - cropSide) / 2, y: (extentY - cropSide) / 2, width: cropSide, height: cropSide)
        let background: Resampler.Background? = options.format == .jpeg
            ? (options.background.red, options.background.green, options.background.blue) : nil
        for size in Set(sizes) {
            let side = max(1, min(size, photoSide))
            let square = Resampler.resample(decoded, rect: rect, width: side, height: side, background: background)
                .oriented(metadata.orientation)
            let bytes = switch options.format {
            case .jpeg: try encoder.encode(square, quality: options.quality)
            case .png: try PNGCodec.encode(square)
            }
            thumbnails[size] = Thumbnail(bytes: bytes, side: side)
        }
        return Rendered(metadata: metadata, thumbnails: thumbnails, warnings: warnings)
    }

    /// Refuses JPEG codings that libjpeg-turbo 2.x cannot decode, with a clear reason.
    private static func checkDecodable(_ jpeg: JPEGHeader) throws(PhotoError) {
        guard jpeg.bitsPerSample == 8 else {
            throw PhotoError(.unsupported, "\(jpeg.bitsPerSample)-bit JPEG is not supported (8-bit only)")
        }
        switch jpeg.process {
        case .lossless, .arithmeticLossless, .hierarchical, .arithmeticHierarchical:
            throw PhotoError(.unsupported, "\(jpeg.process.rawValue) JPEG is not supported")
        default:
            break
        }
        guard [1, 3, 4].contains(jpeg.components) else {
            throw PhotoError(.unsupported, "JPEG with \(jpeg.components) colour components is not supported")
        }
    }
}
