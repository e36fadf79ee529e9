import TesseraFacts
import TesseraMetadata
import TesseraSystem

/// WebP through libwebp, from memory (the file counts against the budget).
enum WebPDecoding: PhotoDecoding {
    static let header: any PhotoHeader.Type = WebPHeader.self

    static func decode(
        _ reader: borrowing FileReader, _ request: DecodeRequest, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded {
        let (metadata, plan, memory) = (request.metadata, request.plan, request.memory)
        guard let header = metadata.webp else { throw PhotoError(.corrupt, "WebP header missing") }
        let factor = header.frames > 0 ? 1 : plan.shrinkFactor(width: header.width, height: header.height)
        // libwebp decodes from memory: the file counts against the budget too.
        try Renderer.cover(
            Int(reader.size) + WebPCodec.memoryNeeded(header, factor: factor), plan: plan, memory: memory,
            metadata: metadata)
        let image = try WebPCodec.decode(
            try reader.photoBytes(at: 0, count: Int(reader.size)), header: header, factor: factor)
        return renderer.converted(
            .rgb(image), profile: header.iccProfile, scale: Double(image.width) / Double(header.width),
            source: .decoded, warnings: [])
    }
}
