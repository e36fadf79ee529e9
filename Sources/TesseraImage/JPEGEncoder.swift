import CJPEG
public import TesseraFacts
import TesseraMetadata

/// Encodes RGB pixels as JPEG through libjpeg.
public enum JPEGEncoder {
    /// JPEG bytes for `image` (RGB) at `quality` 1–100, with 4:2:0 chroma subsampling
    /// below quality 90 and 4:4:4 from 90 up, as photo tools commonly do.
    public static func encode(
        _ image: PixelBuffer, quality: Int, progressive: Bool = false
    ) throws(PhotoError) -> [UInt8] {
        precondition(image.channels == 3)  // invariant: the renderer flattens alpha first
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            message.withUnsafeMutableBufferPointer { text in
                CJPEG_encode(
                    pixels.baseAddress, Int32(image.width), Int32(image.height), 3, image.width * 3,
                    Int32(max(1, min(100, quality))), quality < 90 ? 1 : 0, 0, progressive ? 1 : 0, &output, &size,
                    text.baseAddress, text.count)
            }
        }
        guard status == 0, let output else {
            let cause = messageText(message)
            throw PhotoError(.encode, "cannot encode the JPEG thumbnail", cause: cause)
        }
        defer { CJPEG_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

extension JPEGEncoder: PhotoEncoding {
    static let header: any PhotoHeader.Type = JPEGHeader.self

    /// JPEG has no alpha: transparent pixels are laid over the options' background first.
    static func encode(_ image: PixelBuffer, options: RenderOptions) throws(PhotoError) -> [UInt8] {
        try encode(image.flattened(over: options.background), quality: options.quality)
    }
}
