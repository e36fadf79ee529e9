import CPNG
public import TesseraFacts
import TesseraMetadata

/// Encodes RGB or RGBA pixels as PNG through libpng.
public enum PNGEncoder {
    /// PNG bytes for `image`, keeping its alpha channel when it has one; `fast` trades a few
    /// per cent of size for about four times the speed.
    public static func encode(_ image: PixelBuffer, fast: Bool = false) throws(PhotoError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            message.withUnsafeMutableBufferPointer { text in
                CPNG_encode(
                    pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.channels),
                    image.width * image.channels, fast ? 1 : 0, &output, &size, text.baseAddress, text.count)
            }
        }
        guard status == 0, let output else {
            let cause = messageText(message)
            throw PhotoError(.encode, "cannot encode the PNG thumbnail", cause: cause)
        }
        defer { CPNG_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

extension PNGEncoder: PhotoEncoding {
    static let header: any PhotoHeader.Type = PNGHeader.self

    static func encode(_ image: PixelBuffer, options: RenderOptions) throws(PhotoError) -> [UInt8] {
        try encode(image)
    }
}
