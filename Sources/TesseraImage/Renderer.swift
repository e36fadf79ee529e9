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
    private let transforms = ColorTransformCache()

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

    /// The largest preview of a RAW file that decodes: those its structure lists, largest
    /// first, then LibRaw's; an error that names the real cause when none does.
    private func decodeRAWPreview(
        _ reader: borrowing FileReader, header: RAWHeader, metadata: PhotoMetadata, plan: RenditionPlan,
        memory: MemoryReservation
    ) throws(PhotoError) -> (JPEGDecoder.Output, header: JPEGHeader) {
        func decode(_ preview: [UInt8]) throws(PhotoError) -> (JPEGDecoder.Output, header: JPEGHeader) {
            try FileReader.withBytes(preview, path: reader.path, mtime: reader.mtime) {
                (jpeg) throws(PhotoError) -> (JPEGDecoder.Output, header: JPEGHeader) in
                let header = try JPEGHeader.read(jpeg)
                try Self.checkDecodable(header)
                let decoder = try JPEGDecoder(stream: jpeg.stream(), memoryLimit: memory.pool.capacity)
                let numerator = plan.jpegNumerator(width: decoder.width, height: decoder.height)
                try Self.cover(
                    preview.count + decoder.memoryNeeded(numerator: numerator), plan: plan, memory: memory,
                    metadata: metadata)
                return (try decoder.decode(numerator: numerator, dcOnly: true), header)
            }
        }
        // A preview the file ends inside means the file was cut short: when no whole one decodes,
        // that is what went wrong (a smaller whole one is used, with the cut said as a warning).
        var failure: PhotoError? = header.cutPreview.map { RAWHeader.cutError($0.offset, $0.length) }
        for preview in header.previews {
            do throws(PhotoError) {
                let bytes = Array(try reader.photoBytes(at: preview.offset, count: preview.length))
                return try decode(bytes)
            } catch  where error.code.isTransient || error.code == .tooLarge {
                throw error
            } catch {
                failure = failure ?? error
            }
        }
        if header.readByLibRaw, header.cutPreview == nil, header.previews.isEmpty || failure != nil {
            if let bytes = try? RAWHeader.previewJPEG(reader) {
                do throws(PhotoError) {
                    return try decode(bytes)
                } catch  where memory.retry != nil {
                    throw error
                } catch {}
            }
        }
        if let failure { throw failure }
        throw PhotoError(
            .unsupported, "no preview found (Tessera renders RAW files from their previews; it does not demosaic)")
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
        let limit = memory.pool.capacity
        let raw: RawPixels, scale: Double, source: RenditionSource, profile: [UInt8]?
        var warnings: [String] = []
        var region = RenditionPlan.Region.frame, origin: (x: Double, y: Double) = (0, 0)
        switch metadata.format {
        case .jpeg:
            if let jpeg = metadata.jpeg {
                try Self.checkDecodable(jpeg)
                if options.embeddedPreviews,
                    let preview = try preview(reader, metadata: metadata, jpeg: jpeg, plan: plan, memory: memory)
                {
                    return preview
                }
            }
            let decoder = try JPEGDecoder(stream: reader.stream(), memoryLimit: limit)
            let numerator = plan.jpegNumerator(width: decoder.width, height: decoder.height)
            try Self.cover(decoder.memoryNeeded(numerator: numerator), plan: plan, memory: memory, metadata: metadata)
            scale = Double(numerator) / 8
            var window: JPEGDecoder.Window?
            if crop && numerator > 1 && decoder.isSingleScan {
                let square = plan.corner(of: .square), side = Double(min(plan.width, plan.height))
                let margin = Self.cropMargin
                let x = Int((square.x * scale).rounded(.down)) - margin,
                    y = Int((square.y * scale).rounded(.down)) - margin
                let extent = Int((side * scale).rounded(.up)) + 2 * margin + 1
                window = JPEGDecoder.Window(x: x, y: y, width: extent, height: extent)
            }
            let output = try decoder.decode(numerator: numerator, dcOnly: true, window: window)
            (raw, source, profile) = (
                output.pixels, output.dcScansOnly ? .dcScans : .decoded, metadata.jpeg?.iccProfile
            )
            if window != nil {
                region = .square
                origin = (Double(output.origin.x) / scale, Double(output.origin.y) / scale)
            }
            output.warning.map { warnings.append($0) }
        case .png:
            let decoder = try PNGDecoder(stream: reader.stream())
            let factor = plan.shrinkFactor(width: decoder.width, height: decoder.height)
            try Self.cover(decoder.memoryNeeded(factor: factor), plan: plan, memory: memory, metadata: metadata)
            let (image, warning) = try decoder.decode(factor: factor)
            (raw, scale, source, profile) = (.rgb(image), 1 / Double(factor), .decoded, decoder.iccProfile)
            warning.map { warnings.append($0) }
        case .webp:
            guard let header = metadata.webp else { throw PhotoError(.corrupt, "WebP header missing") }
            let factor = header.frames > 0 ? 1 : plan.shrinkFactor(width: header.width, height: header.height)
            // libwebp decodes from memory: the file counts against the budget too.
            try Self.cover(
                Int(reader.size) + WebPCodec.memoryNeeded(header, factor: factor), plan: plan, memory: memory,
                metadata: metadata)
            let image = try WebPCodec.decode(
                try reader.photoBytes(at: 0, count: Int(reader.size)), header: header, factor: factor)
            (raw, scale, source, profile) = (
                .rgb(image), Double(image.width) / Double(header.width), .decoded, header.iccProfile
            )
        case .heif, .avif:
            guard let header = metadata.heif else { throw PhotoError(.corrupt, "HEIF header missing") }
            // libheif reads from memory: the file counts against the budget from the start.
            try Self.cover(Int(reader.size), plan: plan, memory: memory, metadata: metadata)
            let decoder = try HEIFDecoder(data: try reader.photoBytes(at: 0, count: Int(reader.size)))
            // A thumbnail image that covers every rendition, in the photo's aspect ratio and
            // stored frame, is decoded instead of the photo.
            let aspect = Double(header.width) / Double(header.height)
            // What a thumbnail shows of a cropped (`clap`) photo is not said: only the photo is used.
            let thumbnail =
                options.embeddedPreviews && header.cleanAperture == nil
                ? header.thumbnails.filter { thumbnail in
                    min(thumbnail.width, thumbnail.height) >= plan.shortNeeded
                        && max(thumbnail.width, thumbnail.height) >= plan.longNeeded
                        && abs(Double(thumbnail.width) / Double(thumbnail.height) / aspect - 1) <= 0.01
                        && thumbnail.width < header.width
                }.min { $0.width < $1.width } : nil
            func decode(_ image: HEIFDecoder.Image) throws(PhotoError) -> Decoded {
                let factor = plan.shrinkFactor(width: image.width, height: image.height)
                let hdr = image.hdrTransfer
                let reducer = image.memoryNeeded(
                    factor: factor, keepsSamples: hdr != nil, codedFrame: header.largestCodedFrame)
                // And the 8-bit image made from what the reducer holds: sRGB, or tone-mapped.
                let copy =
                    (image.width + factor - 1) / factor * ((image.height + factor - 1) / factor)
                    * (image.hasAlpha ? 4 : 3)
                try Self.cover(Int(reader.size) + reducer + copy, plan: plan, memory: memory, metadata: metadata)
                let reduced = try image.decode(factor: factor, keepsSamples: hdr != nil)
                let scale = Double(image.width) / Double(header.width) / Double(factor)
                let source: RenditionSource = image.isThumbnail ? .heifThumbnail : .decoded
                if let hdr, reduced.keepsSamples {
                    // Tone-mapped straight to sRGB: no profile applies.
                    let mapped = ToneMapping(transfer: hdr, primaries: image.nclx?.primaries ?? 9).map(
                        reduced.wide, width: reduced.outWidth, height: reduced.outHeight, channels: reduced.channels,
                        maximum: reduced.maximum)
                    return Decoded(
                        image: cleanAperture(of: mapped, scale: scale), scale: scale, source: source, warnings: [])
                }
                // An ICC profile first; else the nclx description, as a profile built here.
                let nclx = header.nclx.flatMap {
                    ColorTransform.iccProfile(nclxPrimaries: $0.primaries, transfer: $0.transfer)
                }
                return converted(
                    .rgb(cleanAperture(of: reduced.image, scale: scale)), profile: header.iccProfile ?? nclx,
                    scale: scale,
                    source: source, warnings: [])
            }
            // The crop comes first, before the rotation and mirroring the orientation applies
            // (ISO/IEC 23008-12); on a reduced decode it is rounded to the decoded pixels.
            func cleanAperture(of image: PixelBuffer, scale: Double) -> PixelBuffer {
                guard let crop = header.cleanAperture else { return image }
                let left = (Double(crop.x) * scale).rounded(), top = (Double(crop.y) * scale).rounded()
                return image.cropped(
                    x: Int(left), y: Int(top), width: Int((Double(crop.x + crop.width) * scale).rounded() - left),
                    height: Int((Double(crop.y + crop.height) * scale).rounded() - top))
            }
            // A thumbnail that cannot be decoded just means the photo is.
            if let thumbnail, let small = try? decoder.thumbnail(width: thumbnail.width, height: thumbnail.height),
                let decoded = try? decode(small)
            {
                return decoded
            }
            return try decode(decoder.primary())
        case .jxl:
            let decoder: JXLDecoder, info: JXLImageInfo, needed: Int
            do throws(JXLError) {
                decoder = try JXLDecoder(stream: reader.stream(), codestream: metadata.jxl?.container.codestream)
                info = try decoder.info()
                needed = try decoder.memoryNeeded()
            } catch {
                throw PhotoError(jxl: error)
            }
            try Self.cover(needed, plan: plan, memory: memory, metadata: metadata)
            // A frame's DC is the image at 1/8 of its detail: enough when an eighth covers every rendition.
            let dcOnly = plan.jpegNumerator(width: info.width, height: info.height) == 1
            let image: JXLDecoder.Image
            do throws(JXLError) {
                image = try decoder.decode(dcOnly: dcOnly, memoryLimit: memory.held - plan.memoryNeeded)
            } catch {
                throw PhotoError(jxl: error)
            }
            // Averaged down only to twice what the plan needs: a box filter down to just above a
            // rendition leaves aliasing Lanczos cannot take out (SSIM 0.962 against 0.970 for a
            // 1024 fit of a 12 MP photo, bench/jxl.py), for 10 % more time.
            let factor = max(1, plan.shrinkFactor(width: image.width, height: image.height) / 2)
            if let transfer = info.transfer.flatMap(HDRTransfer.init(h273:)), !image.wide.isEmpty {
                // HDR: averaged down in 16 bits, then tone-mapped straight to sRGB, as HEIF's is.
                var reducer = AreaReducer(
                    width: image.width, height: image.height, channels: image.channels, factor: factor, maximum: 65535,
                    keepsSamples: true, tileHeight: image.height, columns: 1)
                image.wide.withUnsafeBytes { samples in
                    // invariant: a non-empty array's buffer has a base address.
                    reducer.add(
                        samples.baseAddress.unsafelyUnwrapped, stride: image.width * image.channels * 2, sampleBytes: 2,
                        x: 0, y: 0,
                        tileWidth: image.width, tileHeight: image.height)
                }
                let mapped = ToneMapping(transfer: transfer, primaries: info.primaries ?? 9).map(
                    reducer.wide, width: reducer.outWidth, height: reducer.outHeight, channels: image.channels,
                    maximum: 65535)
                return Decoded(
                    image: mapped, scale: Double(reducer.outWidth) / Double(image.width),
                    source: image.dcOnly ? .jxlDC : .decoded,
                    warnings: image.warning.map { [$0] } ?? [])
            }
            let whole = PixelBuffer(
                width: image.width, height: image.height, channels: image.channels, pixels: image.pixels)
            image.warning.map { warnings.append($0) }
            (raw, scale, source, profile) = (
                .rgb(factor > 1 ? BoxShrinker.shrink(whole, factor: factor) : whole), 1 / Double(factor),
                image.dcOnly ? .jxlDC : .decoded, image.iccProfile
            )
        case .raw:
            guard let header = metadata.raw else { throw PhotoError(.corrupt, "RAW file without its header") }
            let decoded = try decodeRAWPreview(reader, header: header, metadata: metadata, plan: plan, memory: memory)
            if max(plan.width, plan.height) < plan.specs.map(\.size).max() ?? 0 {
                warnings.append("the embedded preview is \(plan.width)×\(plan.height): renditions are no larger")
            }
            decoded.0.warning.map { warnings.append($0) }
            if let cut = header.cutPreview {
                warnings.append(
                    "\(RAWHeader.cutError(cut.offset, cut.length).message): rendered from a smaller preview that is whole"
                )
            }
            (raw, scale, source, profile) = (
                decoded.0.pixels, Double(decoded.0.pixels.width) / Double(plan.width), .rawPreview,
                decoded.header.iccProfile
            )
        case .mp4, .mov, .m4v, .threeGPP, .matroska, .webm, .avi, .mpegTS:
            // The smallest frame that covers every rendition; the scaler averages down to it.
            let (short, long) = (min(plan.width, plan.height), max(plan.width, plan.height))
            let factor = min(1, max(Double(plan.shortNeeded) / Double(short), Double(plan.longNeeded) / Double(long)))
            // The decoder's need is known only inside it (from the codec's own frame size), so a
            // video holds a whole share of the pool, which bounds it.
            try Self.cover(
                max(0, options.memoryLimit - plan.memoryNeeded), plan: plan, memory: memory, metadata: metadata)
            let frame: VideoFrame
            do throws(VideoError) {
                frame = try PosterFrame.decode(
                    reader.stream(), longSide: Int((Double(long) * factor).rounded(.up)),
                    memoryLimit: options.memoryLimit)
            } catch {
                throw PhotoError(video: error)
            }
            let image = PixelBuffer(width: frame.width, height: frame.height, channels: 3, pixels: frame.rgb)
            var decoded = Decoded(
                image: image, scale: Double(frame.width) / Double(plan.width), source: .videoFrame, warnings: warnings)
            decoded.posterTime = frame.time
            return decoded
        case .unsupported:
            throw PhotoError(.notAnImage, "not a photo format Tessera reads")
        }
        var decoded = converted(raw, profile: profile, scale: scale, source: source, warnings: warnings)
        (decoded.region, decoded.origin) = (region, origin)
        return decoded
    }

    /// Decoded pixels in sRGB, through `profile` when colour management is on.
    private func converted(
        _ raw: RawPixels, profile: [UInt8]?, scale: Double, source: RenditionSource, warnings: [String]
    ) -> Decoded {
        let (image, colorWarning) =
            options.colorManagement
            ? raw.toSRGB(profile: profile, transforms: transforms) : (raw.naiveRGB, nil)
        return Decoded(
            image: image, scale: scale, source: source, warnings: warnings + (colorWarning.map { [$0] } ?? []))
    }

    /// Decoded pixels kept around a cropped square, so the Lanczos taps at its edges see real
    /// pixels (a rendition a third of the decoded size reaches 9 pixels out).
    static let cropMargin = 16

    /// Whether the photo's own image data ends with EOI (trailing zero padding aside): a
    /// preview must not hide that the photo itself is cut short.
    private static func primaryImageEnds(_ reader: borrowing FileReader, jpeg: JPEGHeader) throws(PhotoError) -> Bool {
        let end = min(reader.size, jpeg.primaryEnd ?? reader.size)
        let start = max(0, end - 4096)
        var tail = try reader.photoBytes(at: start, count: Int(end - start))[...]
        while tail.last == 0 { tail = tail.dropLast() }
        return tail.suffix(2).elementsEqual([0xFF, 0xD9])
    }

    /// The largest embedded preview worth reading.
    static let maximumPreviewBytes = 16 << 20

    /// The smallest embedded preview that can stand in for the photo, decoded, or nil.
    ///
    /// A preview stands in when it covers every rendition, has the photo's aspect ratio
    /// within 1 % (a preview with bars, or of an older crop, does not), is smaller than the
    /// photo, and decodes without a warning. It is stored like the photo, so the photo's
    /// orientation applies to it; its own ICC profile applies, else the photo's. Anything
    /// else about it is a claim: a refused or broken preview just means the photo is decoded.
    private func preview(
        _ reader: borrowing FileReader, metadata: PhotoMetadata, jpeg: JPEGHeader, plan: RenditionPlan,
        memory: MemoryReservation
    ) throws(PhotoError) -> Decoded? {
        guard !jpeg.previews.isEmpty, try Self.primaryImageEnds(reader, jpeg: jpeg) else { return nil }
        let (width, height) = (plan.width, plan.height)
        for candidate in jpeg.previews.sorted(by: { $0.length < $1.length }) {
            guard candidate.length <= Self.maximumPreviewBytes, candidate.offset > 0,
                candidate.offset <= reader.size - Int64(candidate.length)
            else { continue }
            let bytes: [UInt8]
            do throws(PhotoError) {
                bytes = try reader.photoBytes(at: candidate.offset, count: candidate.length)
            } catch  where error.code.isTransient {
                throw error
            } catch {
                continue
            }
            let decoded: Decoded?
            do throws(PhotoError) {
                decoded = try FileReader.withBytes(bytes, path: reader.path, mtime: reader.mtime) {
                    (preview) throws(PhotoError) -> Decoded? in
                    let header = try JPEGHeader.read(preview)
                    let (previewWidth, previewHeight) = (header.width, header.height)
                    let aspect = Double(previewWidth) / Double(previewHeight) / (Double(width) / Double(height))
                    guard previewWidth < width, abs(aspect - 1) <= 0.01,
                        min(previewWidth, previewHeight) >= plan.shortNeeded,
                        max(previewWidth, previewHeight) >= plan.longNeeded
                    else { return nil }
                    try Self.checkDecodable(header)
                    let decoder = try JPEGDecoder(stream: preview.stream(), memoryLimit: memory.pool.capacity)
                    let numerator = plan.jpegNumerator(width: previewWidth, height: previewHeight)
                    try Self.cover(
                        bytes.count + decoder.memoryNeeded(numerator: numerator), plan: plan, memory: memory,
                        metadata: metadata)
                    let output = try decoder.decode(numerator: numerator, dcOnly: true)
                    guard output.warning == nil else { return nil }
                    let raw = output.pixels
                    let (image, colorWarning) =
                        options.colorManagement
                        ? raw.toSRGB(profile: header.iccProfile ?? jpeg.iccProfile, transforms: transforms)
                        : (raw.naiveRGB, nil)
                    return Decoded(
                        image: image, scale: Double(image.width) / Double(width),
                        source: RenditionSource(candidate.kind),
                        warnings: colorWarning.map { [$0] } ?? [])
                }
            } catch  where memory.retry != nil {
                throw error
            } catch {
                continue
            }
            if let decoded { return decoded }
        }
        return nil
    }

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
        for step in plan.steps() {
            let made = step.make(from: &sources)
            let upright = made.oriented(metadata.orientation)
            if keeping.contains(step.spec) { images[step.spec] = upright }
            guard encoding.contains(step.spec) else { continue }
            let bytes = try encode(upright)
            renditions.append(
                Rendition(
                    spec: step.spec, bytes: bytes, width: upright.width, height: upright.height, source: decoded.source)
            )
        }
        let thumbhash =
            placeholder
            ? plan.placeholder(from: sources).map { ThumbHash.encode($0.oriented(metadata.orientation)) } : nil
        return Rendered(
            metadata: metadata, renditions: renditions, thumbhash: thumbhash, warnings: decoded.warnings,
            posterTime: decoded.posterTime, images: images)
    }

    private func encode(_ image: PixelBuffer) throws(PhotoError) -> [UInt8] {
        switch options.format {
        case .jpeg: try JPEGEncoder.encode(image.flattened(over: options.background), quality: options.quality)
        case .png: try PNGEncoder.encode(image)
        case .webp: try WebPCodec.encode(image, quality: options.quality)
        }
    }

    /// Holds the memory a decode needs, with the renditions made from it, before it allocates:
    /// refused only past the whole pool (see `MemoryPool`).
    private static func cover(
        _ decoding: Int, plan: RenditionPlan, memory: MemoryReservation, metadata: PhotoMetadata
    ) throws(PhotoError) {
        let (needed, overflow) = decoding.addingReportingOverflow(plan.memoryNeeded)
        try memory.cover(
            overflow ? Int.max : needed,
            refusal: "decoding this \(metadata.width)×\(metadata.height) \(metadata.coding) image needs about "
                + "\(needed >> 20) MiB, more than the \(memory.pool.capacity >> 20) MiB that all workers together may use "
                + "(memory_limit for each)")
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

extension RenditionSource {
    init(_ preview: EmbeddedPreview.Kind) {
        switch preview {
        case .mpf: self = .mpfPreview
        case .exifThumbnail: self = .exifThumbnail
        }
    }
}
