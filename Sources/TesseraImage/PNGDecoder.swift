import CPNG
import SystemPackage
import TesseraFacts
import TesseraSystem

/// Decodes one PNG through libpng to 8-bit sRGB, shrinking rows as they arrive.
///
/// Like the JPEG decoder it lives for one file. A non-interlaced image is read
/// row by row and averaged down by a whole factor on the fly (premultiplied
/// by alpha), so memory holds the reduced image and one row, whatever the
/// file's size; an interlaced one must be whole in memory before it can be
/// reduced, and the memory budget says whether it may be.
final class PNGDecoder {
    private let decoder: OpaquePointer
    private let stream: ByteStream
    let header: CPNG_Header

    init(stream: ByteStream) throws(PhotoError) {
        guard let decoder = CPNG_decoder_create(ByteStream.cRead, stream.cContext) else {
            throw PhotoError(.io, "cannot create a PNG decoder (out of memory)")
        }
        self.decoder = decoder
        self.stream = stream
        var header = CPNG_Header()
        guard CPNG_read_header(decoder, &header) == 0 else {
            let cause = String(cString: CPNG_message(decoder))
            CPNG_decoder_destroy(decoder)
            throw PhotoError(.corrupt, "cannot read the PNG", cause: cause)
        }
        self.header = header
    }

    deinit { CPNG_decoder_destroy(decoder) }

    var width: Int { Int(header.width) }
    var height: Int { Int(header.height) }
    var channels: Int { Int(header.output_channels) }

    /// The embedded ICC profile, when the file has one.
    var iccProfile: [UInt8]? {
        var length = 0
        guard let profile = CPNG_icc_profile(decoder, &length), length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: profile, count: length))
    }

    /// The largest whole factor that keeps the shorter side at least `minimumSide` pixels.
    func shrinkFactor(minimumSide: Int) -> Int {
        let side = min(width, height)
        guard side > minimumSide else { return 1 }
        var factor = 1
        while (side + factor) / (factor + 1) >= minimumSide { factor += 1 }
        return factor
    }

    /// The bytes a decode shrunk by `factor` needs.
    func memoryNeeded(factor: Int) -> Int {
        let reduced = ((width + factor - 1) / factor) * ((height + factor - 1) / factor) * channels
        let whole = header.interlaced != 0 ? width * height * channels : width * channels
        return reduced + whole + (factor > 1 ? (width + factor - 1) / factor * 4 * 8 : 0)
    }

    /// Decodes the image, averaged down by `factor` in each direction (the last block of a
    /// row or column may be partial and averages what it covers).
    func decode(factor: Int) throws(PhotoError) -> (PixelBuffer, warning: String?) {
        let image: PixelBuffer
        if header.interlaced != 0 {
            var pixels = [UInt8](repeating: 0, count: width * height * channels)
            let status = pixels.withUnsafeMutableBufferPointer { buffer in
                // invariant: a non-empty array's buffer has a base address.
                CPNG_read_image(decoder, buffer.baseAddress.unsafelyUnwrapped, width * channels)
            }
            guard status == 0 else { throw failure() }
            let whole = PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
            image = factor > 1 ? BoxShrinker.shrink(whole, factor: factor) : whole
        } else {
            image = try streamShrunk(factor: factor)
        }
        var warning: String?
        if CPNG_warning_count(decoder) > 0 {
            warning = "PNG decoded with a warning (\(String(cString: CPNG_message(decoder))))"
        }
        return (image, warning)
    }

    private func failure() -> PhotoError {
        PhotoError(.corrupt, "cannot decode the PNG data", cause: String(cString: CPNG_message(decoder)))
    }

    /// Reads rows one at a time into a `BoxShrinker`.
    private func streamShrunk(factor: Int) throws(PhotoError) -> PixelBuffer {
        var shrinker = BoxShrinker(width: width, height: height, channels: channels, factor: factor)
        var row = [UInt8](repeating: 0, count: width * channels)
        for _ in 0..<height {
            let status = row.withUnsafeMutableBufferPointer { buffer in
                // invariant: a non-empty array's buffer has a base address.
                CPNG_read_rows(decoder, buffer.baseAddress.unsafelyUnwrapped, width * channels, 1)
            }
            guard status == 0 else { throw failure() }
            shrinker.add(row)
        }
        return shrinker.result()
    }
}

extension PNGDecoder {
    /// Decodes a whole PNG held in memory at full size.
    static func decode(bytes: [UInt8]) throws(PhotoError) -> PixelBuffer {
        try FileReader.withBytes(bytes, path: FilePath(), mtime: FileTime(seconds: 0, nanoseconds: 0)) {
            (reader) throws(PhotoError) -> PixelBuffer in
            try PNGDecoder(stream: reader.stream()).decode(factor: 1).0
        }
    }
}
