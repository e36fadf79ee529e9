import TesseraFacts
import TesseraMetadata
import TesseraSystem

/// JPEG through libjpeg-turbo: an embedded preview when one covers the plan, else the smallest DCT
/// scale that does, over only the centred square when a crop allows it.
enum JPEGDecoding: PhotoDecoding {
    static let header: any PhotoHeader.Type = JPEGHeader.self

    static func decode(
        _ reader: borrowing FileReader, _ request: DecodeRequest, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded {
        let (metadata, plan, crop, memory) = (request.metadata, request.plan, request.crop, request.memory)
        let raw: RawPixels, scale: Double, source: RenditionSource, profile: [UInt8]?
        var warnings: [String] = []
        var region = RenditionPlan.Region.frame, origin: (x: Double, y: Double) = (0, 0)
        if let jpeg = metadata.jpeg {
            try checkDecodable(jpeg)
            if renderer.options.embeddedPreviews,
                let preview = try preview(
                    reader, metadata: metadata, jpeg: jpeg, plan: plan, memory: memory, by: renderer)
            {
                return preview
            }
        }
        let decoder = try JPEGDecoder(stream: reader.stream(), memoryLimit: request.memory.pool.capacity)
        let numerator = plan.jpegNumerator(width: decoder.width, height: decoder.height)
        try Renderer.cover(decoder.memoryNeeded(numerator: numerator), plan: plan, memory: memory, metadata: metadata)
        scale = Double(numerator) / 8
        var window: JPEGDecoder.Window?
        if crop && numerator > 1 && decoder.isSingleScan {
            let square = plan.corner(of: .square), side = Double(min(plan.width, plan.height))
            let margin = cropMargin
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
        var decoded = renderer.converted(raw, profile: profile, scale: scale, source: source, warnings: warnings)
        (decoded.region, decoded.origin) = (region, origin)
        return decoded
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

    /// The smallest embedded preview that can stand in for the photo, decoded, or nil.
    ///
    /// A preview stands in when it covers every rendition, has the photo's aspect ratio
    /// within 1 % (a preview with bars, or of an older crop, does not), is smaller than the
    /// photo, and decodes without a warning. It is stored like the photo, so the photo's
    /// orientation applies to it; its own ICC profile applies, else the photo's. Anything
    /// else about it is a claim: a refused or broken preview just means the photo is decoded.
    static func preview(
        _ reader: borrowing FileReader, metadata: PhotoMetadata, jpeg: JPEGHeader, plan: RenditionPlan,
        memory: MemoryReservation, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded? {
        guard !jpeg.previews.isEmpty, try Self.primaryImageEnds(reader, jpeg: jpeg) else { return nil }
        let (width, height) = (plan.width, plan.height)
        for candidate in jpeg.previews.sorted(by: { $0.length < $1.length }) {
            guard candidate.length <= Renderer.maximumPreviewBytes, candidate.offset > 0,
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
            let decoded: Renderer.Decoded?
            do throws(PhotoError) {
                decoded = try FileReader.withBytes(bytes, path: reader.path, mtime: reader.mtime) {
                    (preview) throws(PhotoError) -> Renderer.Decoded? in
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
                    try Renderer.cover(
                        bytes.count + decoder.memoryNeeded(numerator: numerator), plan: plan, memory: memory,
                        metadata: metadata)
                    let output = try decoder.decode(numerator: numerator, dcOnly: true)
                    guard output.warning == nil else { return nil }
                    let raw = output.pixels
                    let (image, colorWarning) =
                        renderer.options.colorManagement
                        ? raw.toSRGB(profile: header.iccProfile ?? jpeg.iccProfile, transforms: renderer.transforms)
                        : (raw.naiveRGB, nil)
                    return Renderer.Decoded(
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

    /// Refuses JPEG codings that libjpeg-turbo 2.x cannot decode, with a clear reason.
    static func checkDecodable(_ jpeg: JPEGHeader) throws(PhotoError) {
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
