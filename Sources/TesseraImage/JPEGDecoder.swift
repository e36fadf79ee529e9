import CJPEG
import SystemPackage
import TesseraFacts
import TesseraSystem

/// Decodes one JPEG through libjpeg, at the smallest DCT scale that still covers a target size.
///
/// A decoder lives for one file: it is made, used and destroyed, so nothing a
/// damaged file did to libjpeg's state can reach the next file. Bytes come
/// from a `ByteStream` in order; nothing holds the whole file. See libjpeg.txt
/// in libjpeg-turbo for the API underneath (scaling, buffered-image mode).
final class JPEGDecoder {
    /// The most scans read from any file: a progressive file may have thousands, each
    /// costing a pass over the image, and no real encoder writes more than a few dozen.
    static let maximumScans = 64

    private let decoder: OpaquePointer
    private let stream: ByteStream
    private let header: CJPEG_Header

    var width: Int { Int(header.width) }
    var height: Int { Int(header.height) }
    /// Whether the file is one scan, so a decode can skip rows (libjpeg cannot in the
    /// buffered-image mode that multi-scan files need).
    var isSingleScan: Bool { header.multi_scan == 0 }
    /// Whether an Adobe APP14 marker is present: Adobe applications store CMYK inverted.
    var hasAdobeMarker: Bool { header.adobe_transform >= 0 }

    /// Reads the header of the JPEG in `stream`.
    ///
    /// - Parameter memoryLimit: bytes libjpeg may allocate; also checked against the
    ///   header's needs before decoding starts.
    init(stream: ByteStream, memoryLimit: Int) throws(PhotoError) {
        guard let decoder = CJPEG_decoder_create(ByteStream.cRead, stream.cContext, UInt64(memoryLimit))
        else { throw PhotoError(.io, "cannot create a JPEG decoder (out of memory)") }
        self.decoder = decoder
        self.stream = stream
        var header = CJPEG_Header()
        guard CJPEG_read_header(decoder, &header) == 0 else {
            let cause = String(cString: CJPEG_message(decoder))
            CJPEG_decoder_destroy(decoder)
            throw PhotoError(Self.code(for: cause), "cannot read the JPEG header", cause: cause)
        }
        self.header = header
    }

    deinit { CJPEG_decoder_destroy(decoder) }

    /// The bytes a decode at `numerator`/8 needs: the output image, plus the whole-image
    /// coefficient buffers of a multi-scan (progressive) file.
    func memoryNeeded(numerator: Int) -> Int {
        let width = (Int(header.width) * numerator + 7) / 8, height = (Int(header.height) * numerator + 7) / 8
        let output = width * height * Int(header.output_channels)
        return output + (header.multi_scan != 0 ? Int(clamping: header.coefficient_bytes) : 0)
    }

    /// A part of the scaled image to decode: columns `x..<x + width`, rows `y..<y + height`.
    struct Window {
        var x, y, width, height: Int
    }

    /// What a decode gives.
    struct Output {
        /// As libjpeg gives them: RGB with grey expanded, or CMYK.
        var pixels: RawPixels
        /// Where the pixels start in the scaled image (0, 0 unless cropped to a window).
        var origin: (x: Int, y: Int)
        /// Whether only the DC scans of a progressive file were read.
        var dcScansOnly: Bool
        /// Set when libjpeg recovered from damaged data.
        var warning: String?
    }

    /// Decodes at `numerator`/8 of full size.
    ///
    /// - Parameters:
    ///   - dcOnly: for a progressive file at 1/8, stop reading after its DC scans.
    ///   - window: for a single-scan file, decode only this part (libjpeg widens its columns to
    ///     whole iMCUs; rows above it are skipped without their IDCT, rows below never read).
    func decode(numerator: Int, dcOnly: Bool, window: Window? = nil) throws(PhotoError) -> Output {
        var width: Int32 = 0, height: Int32 = 0, scans: Int32 = 0, stoppedAtDC: Int32 = 0
        guard
            CJPEG_start(
                decoder, Int32(numerator), dcOnly ? 1 : 0, Int32(Self.maximumScans), &width, &height, &scans,
                &stoppedAtDC) == 0
        else { throw failure("cannot decode the JPEG data") }
        var origin = (x: 0, y: 0)
        if let window, isSingleScan {
            var x = Int32(clamping: max(0, window.x)), columns = Int32(clamping: min(window.width, Int(width) - Int(x)))
            guard columns > 0, CJPEG_crop_columns(decoder, &x, &columns) == 0 else {
                throw failure("cannot decode the JPEG data")
            }
            let top = min(max(0, window.y), Int(height) - 1)
            guard CJPEG_skip_rows(decoder, Int32(top)) == 0 else { throw failure("cannot decode the JPEG data") }
            origin = (Int(x), top)
            width = columns
            height = Int32(min(window.height, Int(height) - top))
        }
        let channels = Int(header.output_channels)
        let rowBytes = Int(width) * channels
        var pixels = [UInt8](repeating: 0, count: rowBytes * Int(height))
        var rows: Int32 = 0
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            // invariant: a non-empty array's buffer has a base address.
            CJPEG_read_rows(decoder, buffer.baseAddress.unsafelyUnwrapped, rowBytes, height, &rows)
        }
        guard status == 0 else { throw failure("cannot decode the JPEG data") }
        var warning: String?
        if CJPEG_warning_count(decoder) > 0 {
            warning = "JPEG data damaged; decoded what was there (\(String(cString: CJPEG_message(decoder))))"
        }
        let raw: RawPixels =
            channels == 4
            ? .cmyk(width: Int(width), height: Int(height), pixels: pixels, adobe: hasAdobeMarker)
            : .rgb(PixelBuffer(width: Int(width), height: Int(height), channels: 3, pixels: pixels))
        return Output(pixels: raw, origin: origin, dcScansOnly: stoppedAtDC != 0, warning: warning)
    }

    private func failure(_ message: String) -> PhotoError {
        let cause = String(cString: CJPEG_message(decoder))
        return PhotoError(Self.code(for: cause), message, cause: cause)
    }

    /// libjpeg's messages are the only signal of what kind of failure it met.
    private static func code(for cause: String) -> PhotoError.Code {
        if cause.contains("Unsupported") || cause.contains("not supported") || cause.contains("Maximum supported") {
            return .unsupported
        }
        if cause.contains("Insufficient memory") || cause.contains("Backing store") { return .tooLarge }
        return .corrupt
    }
}

extension JPEGDecoder {
    /// Decodes a whole JPEG held in memory (an embedded preview, a rendered thumbnail)
    /// at `numerator`/8 of its size.
    static func decode(
        bytes: [UInt8], numerator: Int = 8, memoryLimit: Int = 192 << 20
    ) throws(PhotoError) -> PixelBuffer {
        try FileReader.withBytes(bytes, path: FilePath(), mtime: FileTime(seconds: 0, nanoseconds: 0)) {
            (reader) throws(PhotoError) -> PixelBuffer in
            let decoder = try JPEGDecoder(stream: reader.stream(), memoryLimit: memoryLimit)
            return try decoder.decode(numerator: numerator, dcOnly: false).pixels.naiveRGB
        }
    }
}
