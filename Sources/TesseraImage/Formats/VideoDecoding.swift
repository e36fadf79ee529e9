import TesseraFacts
import TesseraMetadata
import TesseraSystem
import TesseraVideo

/// A video: its poster frame, through FFmpeg.
enum VideoDecoding: PhotoDecoding {
    static let header: any PhotoHeader.Type = VideoFacts.self

    static func decode(
        _ reader: borrowing FileReader, _ request: DecodeRequest, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded {
        let (metadata, plan, memory) = (request.metadata, request.plan, request.memory)
        let warnings: [String] = []
        // The smallest frame that covers every rendition; the scaler averages down to it.
        let (short, long) = (min(plan.width, plan.height), max(plan.width, plan.height))
        let factor = min(1, max(Double(plan.shortNeeded) / Double(short), Double(plan.longNeeded) / Double(long)))
        // The decoder's need is known only inside it (from the codec's own frame size), so a
        // video holds a whole share of the pool, which bounds it.
        try Renderer.cover(
            max(0, renderer.options.memoryLimit - plan.memoryNeeded), plan: plan, memory: memory, metadata: metadata)
        let frame: VideoFrame
        do throws(VideoError) {
            frame = try PosterFrame.decode(
                reader.stream(), longSide: Int((Double(long) * factor).rounded(.up)),
                memoryLimit: renderer.options.memoryLimit)
        } catch {
            throw PhotoError(video: error)
        }
        let image = PixelBuffer(width: frame.width, height: frame.height, channels: 3, pixels: frame.rgb)
        var decoded = Renderer.Decoded(
            image: image, scale: Double(frame.width) / Double(plan.width), source: .videoFrame, warnings: warnings)
        decoded.posterTime = frame.time
        return decoded
    }
}
