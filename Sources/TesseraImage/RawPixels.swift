/// Pixels as a decoder gives them, before any colour conversion.
enum RawPixels {
    /// RGB, or RGBA with straight alpha.
    case rgb(PixelBuffer)
    /// Four ink channels; `adobe` when an Adobe APP14 marker says they are stored inverted.
    case cmyk(width: Int, height: Int, pixels: [UInt8], adobe: Bool)

    var width: Int {
        switch self {
        case .rgb(let image): image.width
        case .cmyk(let width, _, _, _): width
        }
    }

    var height: Int {
        switch self {
        case .rgb(let image): image.height
        case .cmyk(_, let height, _, _): height
        }
    }

    /// RGB without an ICC profile: CMYK through the usual formula.
    var naiveRGB: PixelBuffer {
        switch self {
        case .rgb(let image): image
        case .cmyk(let width, let height, let pixels, let adobe):
            PixelBuffer(width: width, height: height, channels: 3, pixels: Self.rgb(fromCMYK: pixels, inverted: adobe))
        }
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

    /// The pixels in sRGB: through `profile` when there is one LittleCMS can use and it is not
    /// sRGB already, else as stored.
    ///
    /// Returns a warning when a profile had to be ignored.
    func toSRGB(profile: [UInt8]?, transforms: ColorTransformCache) -> (PixelBuffer, warning: String?) {
        guard let profile else { return (naiveRGB, nil) }
        switch self {
        case .cmyk(let width, let height, let pixels, let adobe):
            guard let transform = transforms.transform(for: profile, input: .cmyk(inverted: adobe)) else {
                return (naiveRGB, "the CMYK ICC profile could not be used; colours converted without it")
            }
            return (Self.convert(pixels, width: width, height: height, with: transform), nil)
        case .rgb(let image):
            let input: ColorTransform.Input = image.hasAlpha ? .rgba : .rgb
            if let transform = transforms.transform(for: profile, input: input) {
                return (Self.convert(image.pixels, width: image.width, height: image.height, with: transform), nil)
            }
            if ColorTransform.isSRGB(profile) { return (image, nil) }
            // A grey profile describes one channel: the decoders expanded grey to RGB.
            if let transform = transforms.transform(for: profile, input: .gray) {
                let gray = stride(from: 0, to: image.pixels.count, by: image.channels).map { image.pixels[$0] }
                var converted = Self.convert(gray, width: image.width, height: image.height, with: transform)
                if image.hasAlpha { converted = converted.withAlpha(of: image) }
                return (converted, nil)
            }
            return (image, "the ICC profile could not be used; colours left as stored")
        }
    }

    private static func convert(
        _ pixels: [UInt8], width: Int, height: Int, with transform: ColorTransform
    ) -> PixelBuffer {
        let channels = transform.input == .rgba ? 4 : 3
        var out = [UInt8](repeating: 0, count: width * height * channels)
        pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                // invariant: both buffers hold width × height pixels (at least one).
                transform.apply(
                    source.baseAddress.unsafelyUnwrapped, destination.baseAddress.unsafelyUnwrapped,
                    count: width * height)
            }
        }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: out)
    }
}
