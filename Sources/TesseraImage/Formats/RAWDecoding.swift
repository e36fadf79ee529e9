import TesseraFacts
import TesseraMetadata
import TesseraSystem

/// A camera RAW file: its largest embedded JPEG preview.
enum RAWDecoding: PhotoDecoding {
    static let header: any PhotoHeader.Type = RAWHeader.self

    static func decode(
        _ reader: borrowing FileReader, _ request: DecodeRequest, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded {
        let (metadata, plan, memory) = (request.metadata, request.plan, request.memory)
        var warnings: [String] = []
        guard let header = metadata.raw else { throw PhotoError(.corrupt, "RAW file without its header") }
        let decoded = try preview(
            reader, header: header, metadata: metadata, plan: plan, memory: memory)
        if max(plan.width, plan.height) < plan.specs.map(\.size).max() ?? 0 {
            warnings.append("the embedded preview is \(plan.width)×\(plan.height): renditions are no larger")
        }
        decoded.0.warning.map { warnings.append($0) }
        if let cut = header.cutPreview {
            warnings.append(
                "\(RAWHeader.cutError(cut.offset, cut.length).message): rendered from a smaller preview that is whole"
            )
        }
        return renderer.converted(
            decoded.0.pixels, profile: decoded.header.iccProfile,
            scale: Double(decoded.0.pixels.width) / Double(plan.width), source: .rawPreview, warnings: warnings)
    }

    /// The largest preview of a RAW file that decodes: those its structure lists, largest
    /// first, then LibRaw's; an error that names the real cause when none does.
    static func preview(
        _ reader: borrowing FileReader, header: RAWHeader, metadata: PhotoMetadata, plan: RenditionPlan,
        memory: MemoryReservation
    ) throws(PhotoError) -> (JPEGDecoder.Output, header: JPEGHeader) {
        func decode(_ preview: [UInt8]) throws(PhotoError) -> (JPEGDecoder.Output, header: JPEGHeader) {
            try FileReader.withBytes(preview, path: reader.path, mtime: reader.mtime) {
                (jpeg) throws(PhotoError) -> (JPEGDecoder.Output, header: JPEGHeader) in
                let header = try JPEGHeader.read(jpeg)
                try JPEGDecoding.checkDecodable(header)
                let decoder = try JPEGDecoder(stream: jpeg.stream(), memoryLimit: memory.pool.capacity)
                let numerator = plan.jpegNumerator(width: decoder.width, height: decoder.height)
                try Renderer.cover(
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
}
