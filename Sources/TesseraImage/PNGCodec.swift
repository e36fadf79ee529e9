import CPNG
import TesseraMetadata

/// Decodes and encodes PNG through libpng's simplified API (png_image_*).
///
/// That API keeps libpng's setjmp/longjmp error handling inside libpng and
/// reports failures in `png_image.message`, so no Swift frame ever sits
/// between a setjmp and its longjmp. It handles every colour type and bit
/// depth, palettes with tRNS, 16-bit samples, gAMA and Adam7 interlacing.
/// See http://www.libpng.org/pub/png/libpng-manual.txt §V.
enum PNGCodec {
    private static let alphaFlag = UInt32(PNG_FORMAT_FLAG_ALPHA)
    private static let colorFlag = UInt32(PNG_FORMAT_FLAG_COLOR)

    /// The image in `data` as 8-bit sRGB: RGBA when it has any transparency, RGB otherwise.
    static func decode(_ data: [UInt8]) throws(PhotoError) -> (PixelBuffer, warning: String?) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let begun = data.withUnsafeBufferPointer { buffer in
            png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count)
        }
        guard begun != 0 else {
            throw PhotoError(.corrupt, "cannot read the PNG", cause: message(of: &image))
        }
        let channels = image.format & alphaFlag != 0 ? 4 : 3
        image.format = colorFlag | (channels == 4 ? alphaFlag : 0)
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * channels), nil)
        }
        guard finished != 0 else {
            throw PhotoError(.corrupt, "cannot decode the PNG data", cause: message(of: &image))
        }
        let warning = image.warning_or_error & UInt32(PNG_IMAGE_WARNING) != 0
            ? "PNG decoded with a warning (\(message(of: &image)))" : nil
        return (PixelBuffer(width: width, height: height, channels: channels, pixels: pixels), warning)
    }

    /// PNG bytes for `image`, keeping its alpha channel when it has one.
    static func encode(_ image: PixelBuffer) throws(PhotoError) -> [UInt8] {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = colorFlag | (image.hasAlpha ? alphaFlag : 0)
        defer { png_image_free(&png) }
        let stride = Int32(image.width * image.channels)
        var size = 0
        // First call measures, second writes (libpng 1.6.29+ png_image_write_to_memory).
        let measured = image.pixels.withUnsafeBytes { pixels in
            png_image_write_to_memory(&png, nil, &size, 0, pixels.baseAddress, stride, nil)
        }
        guard measured != 0, size > 0 else {
            throw PhotoError(.encode, "cannot encode the PNG thumbnail", cause: message(of: &png))
        }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBytes { pixels in
                png_image_write_to_memory(&png, out.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
            }
        }
        guard written != 0 else {
            throw PhotoError(.encode, "cannot encode the PNG thumbnail", cause: message(of: &png))
        }
        return Array(output.prefix(size))
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
