public import SystemPackage
public import TesseraMetadata

/// Renders upright, aspect-fill, square thumbnails of JPEG and PNG photos.
///
/// The pipeline, per photo: read the header and check the pixel limit and the
/// memory budget; decode once, at the smallest JPEG DCT scale (or PNG box
/// factor) that still covers the largest size asked for, reading the file as a
/// stream; cut the centred square (with sub-pixel edges); resample it with
/// Lanczos-3 to each size; apply the EXIF orientation to the small result;
/// encode. Photos smaller than a size are not enlarged: their thumbnail is
/// the square at the photo's own resolution.
///
/// A thumbnailer keeps no decoder between files: each file gets fresh ones,
/// so a damaged file cannot affect the next. Give each thread its own anyway.
///
/// ```swift
/// let thumbnailer = Thumbnailer(options: ThumbnailOptions())
/// let rendered = try thumbnailer.render(file: "IMG_0042.jpg", sizes: [256])
/// ```
public final class Thumbnailer {
    public let options: ThumbnailOptions

    public init(options: ThumbnailOptions) {
        self.options = options
    }

    /// The result of rendering one photo.
    public struct Rendered: Sendable {
        public var metadata: PhotoMetadata
        /// Thumbnails keyed by requested size.
        public var thumbnails: [Int: Thumbnail]
        /// Recoverable problems met while decoding (the metadata has its own).
        public var warnings: [String]
    }

    /// Reads the file at `path` and renders it at each of `sizes`.
    ///
    /// - Throws: `PhotoError` naming the path: `.tooLarge` for images over the
    ///   pixel limit or the memory budget, `.unsupported` for JPEG variants
    ///   libjpeg cannot decode, `.corrupt` or `.truncated` for damaged files,
    ///   `.notAFile` for FIFOs and devices.
    public func render(
        file path: FilePath, sizes: [Int], context: DateContext = DateContext()
    ) throws(PhotoError) -> Rendered {
        try FileReader.withFile(at: path) { (reader) throws(PhotoError) -> Rendered in
            let metadata = try MetadataReader.read(reader, context: context)
            return try render(reader, metadata: metadata, sizes: sizes)
        }
    }

    /// Renders the open file `reader`, whose metadata is `metadata`, at each of `sizes`.
    public func render(_ reader: borrowing FileReader, metadata: PhotoMetadata, sizes: [Int]) throws(PhotoError) -> Rendered {
        precondition(!sizes.isEmpty && sizes.allSatisfy { $0 > 0 })  // invariant: configuration validates sizes
        do {
            try metadata.checkPixelLimit(options.pixelLimit)
            let largest = sizes.max() ?? 1
            let decoded = try decode(reader, metadata: metadata, minimumSide: largest)
            return try finish(decoded, metadata: metadata, sizes: sizes)
        } catch {
            throw error.path.isEmpty ? error.at(reader.path) : error
        }
    }

    /// A decoded image and the scale it was decoded at, relative to the stored size.
    private struct Decoded {
        var image: PixelBuffer
        /// Decoded pixels per stored pixel along each axis (≤ 1).
        var scale: Double
        var warnings: [String]
    }

    private func decode(_ reader: borrowing FileReader, metadata: PhotoMetadata, minimumSide: Int) throws(PhotoError) -> Decoded {
        let limit = options.memoryLimit
        switch metadata.format {
        case .jpeg:
            if let jpeg = metadata.jpeg {
                try Self.checkDecodable(jpeg)
            }
            let decoder = try JPEGDecoder(stream: reader.stream(), memoryLimit: limit)
            let numerator = JPEGDecoder.scaleNumerator(
                width: decoder.width, height: decoder.height, minimumSide: minimumSide)
            try Self.checkMemory(decoder.memoryNeeded(numerator: numerator), limit: limit, metadata: metadata)
            let (image, warning) = try decoder.decode(
                numerator: numerator, dcOnly: true, adobeInverted: decoder.hasAdobeMarker)
            return Decoded(image: image, scale: Double(numerator) / 8, warnings: warning.map { [$0] } ?? [])
        case .png:
            let decoder = try PNGDecoder(stream: reader.stream())
            let factor = decoder.shrinkFactor(minimumSide: minimumSide)
            try Self.checkMemory(decoder.memoryNeeded(factor: factor), limit: limit, metadata: metadata)
            let (image, warning) = try decoder.decode(factor: factor)
            return Decoded(image: image, scale: 1 / Double(factor), warnings: warning.map { [$0] } ?? [])
        case .unsupported:
            throw PhotoError(.notAnImage, "not a JPEG or PNG file")
        }
    }

    /// Cuts, resamples, orients and encodes every size from one decoded image.
    private func finish(_ decoded: Decoded, metadata: PhotoMetadata, sizes: [Int]) throws(PhotoError) -> Rendered {
        // The centred square, in decoded pixels, from the photo's exact scaled extent.
        var thumbnails: [Int: Thumbnail] = [:]
        let photoSide = min(metadata.width, metadata.height)
        let image = decoded.image
        let extentX = min(Double(metadata.width) * decoded.scale, Double(image.width))
        let extentY = min(Double(metadata.height) * decoded.scale, Double(image.height))
        let cropSide = min(extentX, extentY)
        let rect = Resampler.Rect(
            x: (extentX - cropSide) / 2, y: (extentY - cropSide) / 2, width: cropSide, height: cropSide)
        let background: Resampler.Background? = options.format == .jpeg
            ? (options.background.red, options.background.green, options.background.blue) : nil
        for size in Set(sizes) {
            let side = max(1, min(size, photoSide))
            let square = Resampler.resample(image, rect: rect, width: side, height: side, background: background)
                .oriented(metadata.orientation)
            let bytes = switch options.format {
            case .jpeg: try JPEGEncoder.encode(square, quality: options.quality)
            case .png: try PNGEncoder.encode(square)
            }
            thumbnails[size] = Thumbnail(bytes: bytes, side: side)
        }
        return Rendered(metadata: metadata, thumbnails: thumbnails, warnings: decoded.warnings)
    }

    /// Refuses a decode that would need more memory than the budget, before it allocates.
    private static func checkMemory(_ needed: Int, limit: Int, metadata: PhotoMetadata) throws(PhotoError) {
        guard needed > limit else { return }
        throw PhotoError(
            .tooLarge,
            "decoding this \(metadata.width)×\(metadata.height) \(metadata.coding) image needs about "
                + "\(needed >> 20) MiB, over the memory limit of \(limit >> 20) MiB per worker")
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
