import CWebP
import TesseraFacts
import TesseraMetadata

/// WebP through libwebp: scaled decoding (the first frame of an animation) and encoding.
///
/// libwebp decodes from memory, so the file is read whole; the renderer counts it against
/// the memory budget. Every libwebp allocation here is released before returning.
enum WebPCodec {
    /// Bytes a decode at 1/`factor` needs besides the file: the output, and for a lossless
    /// or animated image the whole ARGB canvas libwebp (or the compositing here) keeps.
    static func memoryNeeded(_ header: WebPHeader, factor: Int) -> Int {
        let full = header.width * header.height * 4
        let scaled = ((header.width + factor - 1) / factor) * ((header.height + factor - 1) / factor) * 4
        return scaled + (header.lossless || header.frames > 0 ? full : 0)
    }

    /// Decodes `data` (the whole file) at about 1/`factor` of its size; RGBA when it has alpha.
    static func decode(_ data: [UInt8], header: WebPHeader, factor: Int) throws(PhotoError) -> PixelBuffer {
        if header.frames > 0 { return try firstFrame(data, header: header) }
        let channels = header.hasAlpha ? 4 : 3
        let width = (header.width + factor - 1) / factor, height = (header.height + factor - 1) / factor
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw PhotoError(.unsupported, "libwebp version mismatch") }
        if factor > 1 {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
        }
        config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB
        config.output.is_external_memory = 1
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(width * channels)
            config.output.u.RGBA.size = buffer.count
            defer { WebPFreeDecBuffer(&config.output) }
            return data.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        }
        try check(status)
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// The first frame of an animation, placed on its canvas (transparent elsewhere).
    private static func firstFrame(_ data: [UInt8], header: WebPHeader) throws(PhotoError) -> PixelBuffer {
        try data.withUnsafeBufferPointer { (bytes) throws(PhotoError) -> PixelBuffer in
            var webp = WebPData(bytes: bytes.baseAddress, size: bytes.count)
            guard let demuxer = WebPDemux(&webp) else { throw PhotoError(.corrupt, "WebP animation cannot be parsed") }
            defer { WebPDemuxDelete(demuxer) }
            var iterator = WebPIterator()
            guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else {
                throw PhotoError(.corrupt, "WebP animation without a first frame")
            }
            defer { WebPDemuxReleaseIterator(&iterator) }
            let (frameWidth, frameHeight) = (Int(iterator.width), Int(iterator.height))
            let (x0, y0) = (Int(iterator.x_offset), Int(iterator.y_offset))
            guard frameWidth > 0, frameHeight > 0, x0 + frameWidth <= header.width, y0 + frameHeight <= header.height
            else {
                throw PhotoError(.corrupt, "WebP animation frame outside its canvas")
            }
            var frame = [UInt8](repeating: 0, count: frameWidth * frameHeight * 4)
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else {
                throw PhotoError(.unsupported, "libwebp version mismatch")
            }
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            let status = frame.withUnsafeMutableBufferPointer { buffer in
                config.output.u.RGBA.rgba = buffer.baseAddress
                config.output.u.RGBA.stride = Int32(frameWidth * 4)
                config.output.u.RGBA.size = buffer.count
                defer { WebPFreeDecBuffer(&config.output) }
                return WebPDecode(iterator.fragment.bytes, iterator.fragment.size, &config)
            }
            try check(status)
            var canvas = [UInt8](repeating: 0, count: header.width * header.height * 4)
            for row in 0..<frameHeight {
                let target = ((y0 + row) * header.width + x0) * 4
                canvas.replaceSubrange(
                    target..<target + frameWidth * 4, with: frame[(row * frameWidth * 4)..<((row + 1) * frameWidth * 4)]
                )
            }
            return PixelBuffer(width: header.width, height: header.height, channels: 4, pixels: canvas)
        }
    }

    private static func check(_ status: VP8StatusCode) throws(PhotoError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA: throw PhotoError(.truncated, "WebP data ends early")
        case VP8_STATUS_UNSUPPORTED_FEATURE: throw PhotoError(.unsupported, "WebP feature not supported by libwebp")
        case VP8_STATUS_OUT_OF_MEMORY: throw PhotoError(.tooLarge, "libwebp ran out of memory")
        default: throw PhotoError(.corrupt, "WebP data damaged (libwebp status \(status.rawValue))")
        }
    }

    /// Encodes RGB or RGBA pixels as lossy WebP at `quality` (0–100).
    static func encode(_ image: PixelBuffer, quality: Int) throws(PhotoError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let size = image.pixels.withUnsafeBufferPointer { pixels -> Int in
            let stride = Int32(image.width * image.channels)
            return image.channels == 4
                ? WebPEncodeRGBA(
                    pixels.baseAddress, Int32(image.width), Int32(image.height), stride, Float(quality), &output)
                : WebPEncodeRGB(
                    pixels.baseAddress, Int32(image.width), Int32(image.height), stride, Float(quality), &output)
        }
        defer { WebPFree(output) }
        guard size > 0, let output else {
            throw PhotoError(.encode, "libwebp could not encode a \(image.width)×\(image.height) image")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

extension WebPCodec: PhotoEncoding {
    static let header: any PhotoHeader.Type = WebPHeader.self

    /// Lossy, at the options' quality, its alpha kept.
    static func encode(_ image: PixelBuffer, options: RenderOptions) throws(PhotoError) -> [UInt8] {
        try encode(image, quality: options.quality)
    }
}
