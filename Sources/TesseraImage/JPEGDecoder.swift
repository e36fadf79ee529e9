import CTurboJPEG
import TesseraMetadata

/// Decodes JPEGs through TurboJPEG, at the smallest DCT scale that still covers a target size.
///
/// One decoder owns one TurboJPEG handle and is used by one thread at a time;
/// each worker keeps its own. See https://libjpeg-turbo.org/Documentation/Documentation
/// (TurboJPEG 2.1 API: tjDecompressHeader3, tjGetScalingFactors, tjDecompress2).
final class JPEGDecoder {
    private let handle: tjhandle

    init() throws(PhotoError) {
        guard let handle = tjInitDecompress() else {
            throw PhotoError(.io, "cannot create a TurboJPEG decompressor", cause: Self.globalMessage())
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// Decodes `data` so that its shorter side is at least `minimumSide` pixels when the
    /// image has that many, using libjpeg's DCT scaling (1/8 … 1) to skip the work.
    ///
    /// - Parameter adobeInverted: whether an Adobe APP14 marker says CMYK is stored inverted.
    /// - Returns: RGB pixels; the scale they were decoded at (libjpeg rounds each
    ///   scaled dimension up, so the last row or column may stand for a partial block);
    ///   and a warning when libjpeg recovered from damaged data.
    func decode(
        _ data: [UInt8], minimumSide: Int, adobeInverted: Bool
    ) throws(PhotoError) -> (PixelBuffer, scale: Double, warning: String?) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = data.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0, width > 0, height > 0 else {
            throw PhotoError(.corrupt, "cannot read the JPEG header", cause: message())
        }
        let factor = Self.scalingFactor(width: Int(width), height: Int(height), minimumSide: minimumSide)
        let scaledWidth = factor.scaled(Int(width))
        let scaledHeight = factor.scaled(Int(height))
        let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let format = cmyk ? TJPF_CMYK : TJPF_RGB
        let channels = cmyk ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * channels)
        let status = data.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), target.baseAddress, Int32(scaledWidth), 0,
                    Int32(scaledHeight), Int32(format.rawValue), 0)
            }
        }
        var warning: String?
        if status != 0 {
            // TJERR_WARNING: libjpeg finished the image but met damaged data (it pads with grey).
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                let cause = message()
                let code: PhotoError.Code = cause.contains("Unsupported") ? .unsupported : .corrupt
                throw PhotoError(code, "cannot decode the JPEG data", cause: cause)
            }
            warning = "JPEG data damaged; decoded what was there (\(message()))"
        }
        if cmyk {
            pixels = Self.rgb(fromCMYK: pixels, inverted: adobeInverted)
        }
        let scale = Double(factor.numerator) / Double(factor.denominator)
        return (PixelBuffer(width: scaledWidth, height: scaledHeight, channels: 3, pixels: pixels), scale, warning)
    }

    /// A DCT scaling factor, `numerator/denominator`.
    struct ScalingFactor: Equatable {
        var numerator: Int
        var denominator: Int

        /// A dimension after scaling, rounded up as libjpeg does (TJSCALED).
        func scaled(_ dimension: Int) -> Int {
            (dimension * numerator + denominator - 1) / denominator
        }
    }

    /// The smallest scaling factor whose output keeps the shorter side at least
    /// `minimumSide` (or 1/1 when even that is smaller).
    static func scalingFactor(width: Int, height: Int, minimumSide: Int) -> ScalingFactor {
        var best = ScalingFactor(numerator: 1, denominator: 1)
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return best }
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            let candidate = ScalingFactor(numerator: Int(factor.num), denominator: Int(factor.denom))
            let smaller = candidate.numerator * best.denominator < best.numerator * candidate.denominator
            if smaller && candidate.scaled(min(width, height)) >= minimumSide { best = candidate }
        }
        return best
    }

    /// Converts CMYK (or YCCK, which libjpeg has already turned into CMYK) to RGB.
    ///
    /// Adobe applications write CMYK inverted (0 = full ink) and mark the file
    /// with APP14; files without that marker store ink amounts directly.
    static func rgb(fromCMYK cmyk: [UInt8], inverted: Bool) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: cmyk.count / 4 * 3)
        for pixel in 0..<cmyk.count / 4 {
            var c = Int(cmyk[pixel * 4]), m = Int(cmyk[pixel * 4 + 1])
            var y = Int(cmyk[pixel * 4 + 2]), k = Int(cmyk[pixel * 4 + 3])
            if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
            rgb[pixel * 3] = UInt8((c * k + 127) / 255)
            rgb[pixel * 3 + 1] = UInt8((m * k + 127) / 255)
            rgb[pixel * 3 + 2] = UInt8((y * k + 127) / 255)
        }
        return rgb
    }

    private func message() -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }

    private static func globalMessage() -> String {
        guard let text = tjGetErrorStr2(nil) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}
