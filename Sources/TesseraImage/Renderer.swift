public import SystemPackage
public import TesseraFacts
import TesseraJXL
public import TesseraMetadata
public import TesseraSystem
import TesseraVideo

/// Makes every rendition of a photo from one decode: aspect-fill squares and aspect-true
/// fits, upright, in sRGB, plus a ThumbHash placeholder.
///
/// The pipeline, per photo: read the header and check the pixel limit and the memory
/// budget; decode once, at the smallest JPEG DCT scale (or PNG box factor) whose image
/// covers the largest rendition, reading the file as a stream; convert an embedded ICC
/// profile to sRGB (photos without one, or with sRGB, are left as they are); then make
/// the renditions largest first, each from the smallest image already made that still
/// has 1.5 times its resolution (the decoded one when none has), with Lanczos-3; orient
/// each result by the EXIF orientation, once; encode. Photos smaller than a rendition
/// are not enlarged: it comes out at the photo's own size. Every other rendition has
/// exactly its size (a fit never comes out a DCT step short).
///
/// A renderer keeps no decoder between files: each file gets fresh ones, so a damaged
/// file cannot affect the next. It does keep the colour transforms it has built. Give
/// each thread its own.
///
/// ```swift
/// let renderer = Renderer(options: RenderOptions())
/// let rendered = try renderer.render(file: "IMG_0042.jpg", specs: [.square(256), .fit(2048)])
/// ```
public final class Renderer {
    public let options: RenderOptions
    /// The memory its decodes take from, shared with the scan's other workers.
    public let pool: MemoryPool
    let transforms = ColorTransformCache()

    /// A renderer whose decodes take from `pool`; without one, from a pool of its own of
    /// `options.memoryLimit`.
    public init(options: RenderOptions, pool: MemoryPool? = nil) {
        self.options = options
        self.pool = pool ?? MemoryPool(share: options.memoryLimit, workers: 1)
    }

    /// What the decoders can read, named: it changes when a new version reads files an older one
    /// refused (libheif 1.19 and current iPhones' HEICs; JPEG XL), so files recorded as errors or
    /// as unsupported are tried again.
    public static let decoders = "4: JPEG XL"

    /// One rendition, encoded.
    public struct Rendition: Sendable {
        public var spec: RenditionSpec
        public var bytes: [UInt8]
        /// Pixel size as displayed (after orientation).
        public var width: Int
        public var height: Int
        public var source: RenditionSource
    }

    /// Everything rendered from one photo.
    public struct Rendered: Sendable {
        public var metadata: PhotoMetadata
        public var renditions: [Rendition]
        /// The ThumbHash placeholder of the whole, upright photo; nil when not asked for.
        public var thumbhash: [UInt8]?
        /// The whole photo, upright, at the placeholder's size (at most 100 pixels a side): what
        /// the analyses that need no more read (`PhotoAnalysis`); nil when only part of it was
        /// decoded.
        public var whole: PixelBuffer?
        /// Recoverable problems met while decoding (the metadata has its own).
        public var warnings: [String]
        /// For a video, the time in seconds of the frame its renditions show.
        public var posterTime: Double?
        /// The upright images of the renditions asked to be kept, not encoded (the desktop
        /// thumbnails, which their cache encodes with its own text).
        public var images: [RenditionSpec: PixelBuffer] = [:]

        public func rendition(_ spec: RenditionSpec) -> Rendition? { renditions.first { $0.spec == spec } }
    }

    /// Reads the file at `path` and renders it.
    ///
    /// - Throws: `PhotoError` naming the path: `.tooLarge` for images over the pixel limit or
    ///   the memory budget, `.unsupported` for variants the decoders cannot read, `.corrupt`
    ///   or `.truncated` for damaged files, `.notAFile` for FIFOs and devices.
    /// - Parameter placeholder: whether to make the ThumbHash; without it, a photo of which only
    ///   squares are asked is decoded only around its centred square.
    /// - Parameter keeping: renditions made from the same decode but returned as images, not
    ///   encoded (`Rendered.images`).
    public func render(
        file path: FilePath, specs: [RenditionSpec], keeping: [RenditionSpec] = [],
        context: DateContext = DateContext(),
        placeholder: Bool = true
    ) throws(PhotoError) -> Rendered {
        try FileReader.withPhoto(at: path) { (reader) throws(PhotoError) -> Rendered in
            let metadata = try MetadataReader.read(reader, context: context)
            return try render(reader, metadata: metadata, specs: specs, keeping: keeping, placeholder: placeholder)
        }
    }

    /// Renders the open file `reader`, whose metadata is `metadata`.
    public func render(
        _ reader: borrowing FileReader, metadata: PhotoMetadata, specs: [RenditionSpec], keeping: [RenditionSpec] = [],
        placeholder: Bool = true
    ) throws(PhotoError) -> Rendered {
        // invariant: configuration validates sizes; none makes only the placeholder
        precondition(specs.allSatisfy { $0.size > 0 } && keeping.allSatisfy { $0.size > 0 })
        do {
            try metadata.checkPixelLimit(options.pixelLimit)
            // A RAW file's renditions come from its embedded preview: that is the photo here.
            let size =
                metadata.raw.flatMap { raw in raw.previewWidth.flatMap { w in raw.previewHeight.map { (w, $0) } } }
                ?? (metadata.width, metadata.height)
            let plan = RenditionPlan(width: size.0, height: size.1, specs: specs + keeping)
            let memory = MemoryReservation(pool: pool)
            defer { memory.release() }
            while true {
                do throws(PhotoError) {
                    let decoded = try decode(
                        reader, metadata: metadata, plan: plan, crop: !placeholder && plan.squaresOnly, memory: memory)
                    return try finish(
                        decoded, metadata: metadata, plan: plan, encoding: Set(specs), keeping: Set(keeping),
                        placeholder: placeholder)
                } catch  where memory.retry != nil {
                    memory.restart()
                }
            }
        } catch {
            throw error.path.isEmpty ? error.at(reader.path) : error
        }
    }

    /// A decoded image in sRGB and the scale it was decoded at, relative to the stored size.
    struct Decoded {
        var image: PixelBuffer
        /// Decoded pixels per stored pixel along each axis (≤ 1).
        var scale: Double
        var source: RenditionSource
        var warnings: [String]
        /// What it covers in full, and where its top-left pixel lies in the stored frame.
        var region = RenditionPlan.Region.frame
        var origin: (x: Double, y: Double) = (0, 0)
        var posterTime: Double?
    }

    /// Decodes what the plan needs.
    ///
    /// With `crop`, a single-scan JPEG decoded above 1/8 is decoded
    /// only over its centred square and a margin for the resampling filter's taps.
    private func decode(
        _ reader: borrowing FileReader, metadata: PhotoMetadata, plan: RenditionPlan, crop: Bool,
        memory: MemoryReservation
    ) throws(PhotoError) -> Decoded {
        guard let decoding = PhotoDecoders.decoding(of: metadata.format) else {
            throw PhotoError(.notAnImage, "not a photo format Tessera reads")
        }
        return try decoding.decode(
            reader, DecodeRequest(metadata: metadata, plan: plan, crop: crop, memory: memory), by: self)
    }

    /// Decoded pixels in sRGB, through `profile` when colour management is on.
    func converted(
        _ raw: RawPixels, profile: [UInt8]?, scale: Double, source: RenditionSource, warnings: [String]
    ) -> Decoded {
        let (image, colorWarning) =
            options.colorManagement
            ? raw.toSRGB(profile: profile, transforms: transforms) : (raw.naiveRGB, nil)
        return Decoded(
            image: image, scale: scale, source: source, warnings: warnings + (colorWarning.map { [$0] } ?? []))
    }

    /// The long side of the placeholder and of `Rendered.whole`.
    public static let placeholderSide = 100

    /// The largest embedded preview worth reading.
    static let maximumPreviewBytes = 16 << 20

    /// Makes, orients and encodes every rendition, and the placeholder, from one decoded image.
    private func finish(
        _ decoded: Decoded, metadata: PhotoMetadata, plan: RenditionPlan, encoding: Set<RenditionSpec>,
        keeping: Set<RenditionSpec>,
        placeholder: Bool
    ) throws(PhotoError) -> Rendered {
        var sources = [
            RenditionPlan.Source(
                image: decoded.image, scale: decoded.scale, region: decoded.region, origin: decoded.origin, plan: plan)
        ]
        var renditions: [Rendition] = []
        var images: [RenditionSpec: PixelBuffer] = [:]
        // What was encoded, by its pixels: a photo smaller than the renditions (never enlarged)
        // is the same picture in several, encoded once. (Small ones only are kept to compare.)
        var encoded: [(image: PixelBuffer, bytes: [UInt8])] = []
        for step in plan.steps() {
            let made = step.make(from: &sources)
            let upright = made.oriented(metadata.orientation)
            if keeping.contains(step.spec) { images[step.spec] = upright }
            guard encoding.contains(step.spec) else { continue }
            let bytes: [UInt8]
            if let same = encoded.first(where: { $0.image == upright }) {
                bytes = same.bytes
            } else {
                bytes = try encode(upright)
                if upright.width * upright.height <= 512 * 512 { encoded.append((upright, bytes)) }
            }
            renditions.append(
                Rendition(
                    spec: step.spec, bytes: bytes, width: upright.width, height: upright.height, source: decoded.source)
            )
        }
        let whole = plan.placeholder(from: sources).map { $0.oriented(metadata.orientation) }
        return Rendered(
            metadata: metadata, renditions: renditions, thumbhash: placeholder ? whole.map(ThumbHash.encode) : nil,
            whole: whole, warnings: decoded.warnings, posterTime: decoded.posterTime, images: images)
    }

    private func encode(_ image: PixelBuffer) throws(PhotoError) -> [UInt8] {
        guard let encoder = PhotoEncoders.encoder(of: options.format) else {
            throw PhotoError(.encode, "Tessera does not write \(options.format.rawValue) files")
        }
        return try encoder.encode(image, options: options)
    }

    /// Holds the memory a decode needs, with the renditions made from it, before it allocates:
    /// refused only past the whole pool (see `MemoryPool`).
    static func cover(
        _ decoding: Int, plan: RenditionPlan, memory: MemoryReservation, metadata: PhotoMetadata
    ) throws(PhotoError) {
        let (needed, overflow) = decoding.addingReportingOverflow(plan.memoryNeeded)
        try memory.cover(
            overflow ? Int.max : needed,
            refusal: "decoding this \(metadata.width)×\(metadata.height) \(metadata.coding) image needs about "
                + "\(needed >> 20) MiB, more than the \(memory.pool.capacity >> 20) MiB "
                + "that all workers together may use (memory_limit for each)")
    }

}

extension RenditionSource {
    init(_ preview: EmbeddedPreview.Kind) {
        switch preview {
        case .mpf: self = .mpfPreview
        case .exifThumbnail: self = .exifThumbnail
        }
    }
}

/// What the renderer asks a format's decoder for: the photo's metadata, the plan, whether a
/// crop to the centred square may be decoded alone, and the memory reserved.
struct DecodeRequest {
    let metadata: PhotoMetadata
    let plan: RenditionPlan
    let crop: Bool
    let memory: MemoryReservation
}

/// A format family's decoder, as the renderer sees it: one unit per family beside its header
/// (`PhotoHeader`), registered in `PhotoDecoders.all`.
protocol PhotoDecoding: Sendable {
    /// The header of the formats whose pixels it decodes.
    static var header: any PhotoHeader.Type { get }
    /// Decodes what `request.plan` needs, within `request.memory`, as `renderer`'s options say.
    static func decode(
        _ reader: borrowing FileReader, _ request: DecodeRequest, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded
}

/// The table of format decoders: adding a format is a `PhotoDecoding` in `Formats/` and a line
/// here, beside its `PhotoHeader`.
enum PhotoDecoders {
    static let all: [any PhotoDecoding.Type] = [
        JPEGDecoding.self, PNGDecoding.self, WebPDecoding.self, HEIFDecoding.self, JXLDecoding.self, RAWDecoding.self,
        VideoDecoding.self,
    ]

    static func decoding(of format: ImageFormat) -> (any PhotoDecoding.Type)? {
        all.first { $0.header.formats.contains(format) }
    }
}
