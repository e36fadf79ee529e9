import TesseraFacts
import TesseraMetadata
import TesseraSystem

/// PNG through libpng, shrunk while it is read.
enum PNGDecoding: PhotoDecoding {
    static let header: any PhotoHeader.Type = PNGHeader.self

    static func decode(
        _ reader: borrowing FileReader, _ request: DecodeRequest, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded {
        let (metadata, plan, memory) = (request.metadata, request.plan, request.memory)
        let decoder = try PNGDecoder(stream: reader.stream())
        let factor = plan.shrinkFactor(width: decoder.width, height: decoder.height)
        try Renderer.cover(decoder.memoryNeeded(factor: factor), plan: plan, memory: memory, metadata: metadata)
        let (image, warning) = try decoder.decode(factor: factor)
        return renderer.converted(
            .rgb(image), profile: decoder.iccProfile, scale: 1 / Double(factor), source: .decoded,
            warnings: warning.map { [$0] } ?? [])
    }
}
