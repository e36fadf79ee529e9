import TesseraFacts
import TesseraMetadata
import TesseraSystem

/// HEIF and AVIF through libheif, from memory: a thumbnail image that covers the plan, else the
/// primary image; HDR is tone-mapped, the clean aperture cut.
enum HEIFDecoding: PhotoDecoding {
    static let header: any PhotoHeader.Type = HEIFHeader.self

    static func decode(
        _ reader: borrowing FileReader, _ request: DecodeRequest, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded {
        let (metadata, plan, memory) = (request.metadata, request.plan, request.memory)
        guard let header = metadata.heif else { throw PhotoError(.corrupt, "HEIF header missing") }
        // libheif reads from memory: the file counts against the budget from the start.
        try Renderer.cover(Int(reader.size), plan: plan, memory: memory, metadata: metadata)
        let decoder = try HEIFDecoder(data: try reader.photoBytes(at: 0, count: Int(reader.size)))
        // A thumbnail image that covers every rendition, in the photo's aspect ratio and
        // stored frame, is decoded instead of the photo.
        let aspect = Double(header.width) / Double(header.height)
        // What a thumbnail shows of a cropped (`clap`) photo is not said: only the photo is used.
        let thumbnail =
            renderer.options.embeddedPreviews && header.cleanAperture == nil
            ? header.thumbnails.filter { thumbnail in
                min(thumbnail.width, thumbnail.height) >= plan.shortNeeded
                    && max(thumbnail.width, thumbnail.height) >= plan.longNeeded
                    && abs(Double(thumbnail.width) / Double(thumbnail.height) / aspect - 1) <= 0.01
                    && thumbnail.width < header.width
            }.min { $0.width < $1.width } : nil
        func decode(_ image: HEIFDecoder.Image) throws(PhotoError) -> Renderer.Decoded {
            let factor = plan.shrinkFactor(width: image.width, height: image.height)
            let hdr = image.hdrTransfer
            let reducer = image.memoryNeeded(
                factor: factor, keepsSamples: hdr != nil, codedFrame: header.largestCodedFrame)
            // And the 8-bit image made from what the reducer holds: sRGB, or tone-mapped.
            let copy =
                (image.width + factor - 1) / factor * ((image.height + factor - 1) / factor)
                * (image.hasAlpha ? 4 : 3)
            try Renderer.cover(Int(reader.size) + reducer + copy, plan: plan, memory: memory, metadata: metadata)
            let reduced = try image.decode(factor: factor, keepsSamples: hdr != nil)
            let scale = Double(image.width) / Double(header.width) / Double(factor)
            let source: RenditionSource = image.isThumbnail ? .heifThumbnail : .decoded
            if let hdr, reduced.keepsSamples {
                // Tone-mapped straight to sRGB: no profile applies.
                let mapped = ToneMapping(transfer: hdr, primaries: image.nclx?.primaries ?? 9).map(reduced)
                return Renderer.Decoded(
                    image: cleanAperture(of: mapped, scale: scale), scale: scale, source: source, warnings: [])
            }
            // An ICC profile first; else the nclx description, as a profile built here.
            let nclx = header.nclx.flatMap {
                ColorTransform.iccProfile(nclxPrimaries: $0.primaries, transfer: $0.transfer)
            }
            return renderer.converted(
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
    }
}
