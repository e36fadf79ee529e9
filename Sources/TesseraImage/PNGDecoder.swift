import TesseraSystem
import CPNG
import SystemPackage
import TesseraMetadata

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
            image = factor > 1 ? Self.boxShrink(whole, factor: factor) : whole
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

    /// An image already in memory, averaged down by `factor`.
    static func boxShrink(_ image: PixelBuffer, factor: Int) -> PixelBuffer {
        var shrinker = BoxShrinker(width: image.width, height: image.height, channels: image.channels, factor: factor)
        let rowBytes = image.width * image.channels
        for y in 0..<image.height {
            shrinker.add(image.pixels[y * rowBytes..<(y + 1) * rowBytes])
        }
        return shrinker.result()
    }
}

/// Averages rows, as they arrive, down by a whole factor in both directions.
///
/// With alpha, colour is averaged premultiplied, so transparent pixels lend no colour.
struct BoxShrinker {
    let width, height, channels, factor: Int
    let outputWidth, outputHeight: Int
    private var sums: [UInt64]
    private var rowsInBlock = 0
    private var output: [UInt8]
    private var outputRow = 0

    init(width: Int, height: Int, channels: Int, factor: Int) {
        self.width = width
        self.height = height
        self.channels = channels
        self.factor = factor
        outputWidth = (width + factor - 1) / factor
        outputHeight = (height + factor - 1) / factor
        sums = [UInt64](repeating: 0, count: outputWidth * 4)
        output = [UInt8](repeating: 0, count: outputWidth * outputHeight * channels)
    }

    mutating func add(_ row: some Collection<UInt8>) {
        if factor == 1 {
            let start = outputRow * width * channels
            output.replaceSubrange(start..<start + width * channels, with: row)
            outputRow += 1
            return
        }
        let alpha = channels == 4
        row.withContiguousStorageIfAvailable { pixels in
            sums.withUnsafeMutableBufferPointer { sums in
                for x in 0..<width {
                    let p = x * channels, s = x / factor * 4
                    if alpha {
                        let a = UInt64(pixels[p + 3])
                        sums[s] += UInt64(pixels[p]) * a
                        sums[s + 1] += UInt64(pixels[p + 1]) * a
                        sums[s + 2] += UInt64(pixels[p + 2]) * a
                        sums[s + 3] += a
                    } else {
                        sums[s] += UInt64(pixels[p])
                        sums[s + 1] += UInt64(pixels[p + 1])
                        sums[s + 2] += UInt64(pixels[p + 2])
                    }
                }
            }
        }
        rowsInBlock += 1
        if rowsInBlock == factor || (outputRow * factor + rowsInBlock) == height { emitRow() }
    }

    private mutating func emitRow() {
        let start = outputRow * outputWidth * channels
        for block in 0..<outputWidth {
            let columns = min(factor, width - block * factor)
            let count = UInt64(columns * rowsInBlock)
            let s = block * 4, o = start + block * channels
            if channels == 4 {
                let a = sums[s + 3]
                for channel in 0..<3 { output[o + channel] = a == 0 ? 0 : UInt8((sums[s + channel] + a / 2) / a) }
                output[o + 3] = UInt8((a + count / 2) / count)
            } else {
                for channel in 0..<3 { output[o + channel] = UInt8((sums[s + channel] + count / 2) / count) }
            }
        }
        sums = [UInt64](repeating: 0, count: outputWidth * 4)
        rowsInBlock = 0
        outputRow += 1
    }

    func result() -> PixelBuffer {
        PixelBuffer(width: outputWidth, height: outputHeight, channels: channels, pixels: output)
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
