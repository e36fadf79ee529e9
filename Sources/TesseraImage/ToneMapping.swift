import Foundation
import TesseraFacts

/// HDR (PQ and HLG) pixels to 8-bit sRGB, as an SDR screen should show them.
///
/// Per pixel, in linear light: the signal to display light in nits (PQ's EOTF, SMPTE ST 2084; or
/// HLG's inverse OETF and its OOTF for a 1000-nit display, ITU-R BT.2100); the luminance through
/// the EETF of ITU-R BT.2390 (a Hermite knee in the PQ domain) from the image's own peak down to
/// the SDR peak, the colour scaled with it so hues stay; the primaries converted to BT.709; then
/// sRGB's curve. The SDR peak is 203 nits, BT.2408's HDR reference white, so what was graded as
/// white is white; anything brighter is compressed into the last part of the range, not clipped.
struct ToneMapping {
    let transfer: HDRTransfer
    /// Linear source RGB to linear BT.709 RGB.
    private let matrix: [Double]
    /// Luminance weights of the source primaries.
    private let luma: (Double, Double, Double)

    /// Nits that become SDR white.
    static let sdrPeak = 203.0

    init(transfer: HDRTransfer, primaries: Int) {
        self.transfer = transfer
        let source = Self.rgbToXYZ(Self.chromaticities[primaries] ?? Self.chromaticities[9].unsafelyUnwrapped)
        let target = Self.rgbToXYZ(Self.chromaticities[1].unsafelyUnwrapped)
        matrix = Self.multiply(Self.invert(target), source)
        luma = (source[3], source[4], source[5])
    }

    /// The deep samples an `AreaReducer` kept (HEIF's and JPEG XL's HDR decodes both end in one)
    /// as 8-bit sRGB: the one way an HDR photo becomes a rendition.
    func map(_ reduced: AreaReducer) -> PixelBuffer {
        map(
            reduced.wide, width: reduced.outWidth, height: reduced.outHeight, channels: reduced.channels,
            maximum: reduced.maximum)
    }

    /// `samples` (interleaved, `channels` per pixel, at most `maximum`) as 8-bit sRGB; alpha is
    /// scaled to 8 bits unchanged.
    func map(_ samples: [UInt16], width: Int, height: Int, channels: Int, maximum: Int) -> PixelBuffer {
        let scale = 1 / Double(maximum)
        // Light of each signal value, once: 1024 entries for 10-bit images.
        let light = (0...maximum).map {
            transfer == .pq ? Self.pqToNits(Double($0) * scale) : Self.hlgToScene(Double($0) * scale)
        }
        let (luma, count) = (luma, width * height)
        // Display light in nits; the pixels are read twice (for the peak, then to map them)
        // rather than kept in linear light, which would take 24 bytes a pixel.
        func nits(_ pixel: Int) -> (Double, Double, Double) {
            let (r, g, b) = (
                light[Int(samples[pixel * channels])], light[Int(samples[pixel * channels + 1])],
                light[Int(samples[pixel * channels + 2])]
            )
            guard transfer == .hlg else { return (r, g, b) }
            // The OOTF: scene light to a 1000-nit display's light, system gamma 1.2.
            let gain = 1000 * pow(max(luma.0 * r + luma.1 * g + luma.2 * b, 0), 0.2)
            return (r * gain, g * gain, b * gain)
        }
        var peak = Self.sdrPeak
        for pixel in 0..<count {
            let (r, g, b) = nits(pixel)
            peak = max(peak, luma.0 * r + luma.1 * g + luma.2 * b)
        }
        let eetf = EETF(sourcePeak: peak, targetPeak: Self.sdrPeak)
        let m = matrix
        var out = [UInt8](repeating: 0, count: count * channels)
        for pixel in 0..<count {
            let (r, g, b) = nits(pixel)
            let y = luma.0 * r + luma.1 * g + luma.2 * b
            let ratio = y > 0 ? eetf.map(y) / y / Self.sdrPeak : 0
            out[pixel * channels] = Self.srgb((m[0] * r + m[1] * g + m[2] * b) * ratio)
            out[pixel * channels + 1] = Self.srgb((m[3] * r + m[4] * g + m[5] * b) * ratio)
            out[pixel * channels + 2] = Self.srgb((m[6] * r + m[7] * g + m[8] * b) * ratio)
            if channels == 4 {
                out[pixel * 4 + 3] = UInt8((Int(samples[pixel * 4 + 3]) * 255 + maximum / 2) / maximum)
            }
        }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: out)
    }

    /// BT.2390's EETF on luminance in nits, black level 0.
    struct EETF {
        let sourcePQ: Double
        let kneeStart: Double
        let maximum: Double
        /// The knee in nits: below it, light passes unchanged (most pixels; no powers computed).
        let kneeNits: Double

        init(sourcePeak: Double, targetPeak: Double) {
            sourcePQ = ToneMapping.nitsToPQ(sourcePeak)
            maximum = ToneMapping.nitsToPQ(targetPeak) / sourcePQ
            kneeStart = 1.5 * maximum - 0.5
            kneeNits = maximum < 1 ? ToneMapping.pqToNits(max(kneeStart, 0) * sourcePQ) : .infinity
        }

        func map(_ nits: Double) -> Double {
            guard nits > kneeNits else { return nits }
            let e1 = ToneMapping.nitsToPQ(nits) / sourcePQ
            // The Hermite spline from the knee to (1, maximum), BT.2390 section 5.4.1.
            let t = (min(e1, 1) - kneeStart) / (1 - kneeStart)
            let (t2, t3) = (t * t, t * t * t)
            let e2 =
                (2 * t3 - 3 * t2 + 1) * kneeStart + (t3 - 2 * t2 + t) * (1 - kneeStart) + (-2 * t3 + 3 * t2) * maximum
            return ToneMapping.pqToNits(e2 * sourcePQ)
        }
    }

    // SMPTE ST 2084.
    private static let (m1, m2) = (2610.0 / 16384, 2523.0 / 4096 * 128)
    private static let (c1, c2, c3) = (3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32)

    static func pqToNits(_ signal: Double) -> Double {
        let p = pow(min(max(signal, 0), 1), 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    static func nitsToPQ(_ nits: Double) -> Double {
        let y = pow(min(max(nits, 0), 10000) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// HLG's inverse OETF: scene light, 0 to 1.
    static func hlgToScene(_ signal: Double) -> Double {
        let (a, b, c) = (0.17883277, 0.28466892, 0.55991073)
        let e = min(max(signal, 0), 1)
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }

    private static func srgb(_ linear: Double) -> UInt8 {
        let v = min(max(linear, 0), 1)
        let encoded = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
        return UInt8((encoded * 255).rounded())
    }

    /// Red, green, blue and white chromaticities by ITU-T H.273 colour primaries code point
    /// (DCI-P3's own white taken as D65, as displays show it).
    private static let chromaticities: [Int: [Double]] = [
        1: [0.640, 0.330, 0.300, 0.600, 0.150, 0.060, 0.3127, 0.3290],
        9: [0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290],
        11: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290],
        12: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290],
    ]

    /// The RGB to XYZ matrix (row-major) of primaries and white `c`; its middle row is luminance.
    private static func rgbToXYZ(_ c: [Double]) -> [Double] {
        func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
        let (r, g, b, w) = (xyz(c[0], c[1]), xyz(c[2], c[3]), xyz(c[4], c[5]), xyz(c[6], c[7]))
        let primaries = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]]
        let s = multiply(invert(primaries), w)
        return (0..<9).map { primaries[$0] * s[$0 % 3] }
    }

    /// `a` × `b` for a 3×3 `a` and a 3×3 or 3×1 `b`.
    private static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        let columns = b.count / 3
        return (0..<3 * columns).map { index in
            let (row, column) = (index / columns, index % columns)
            return (0..<3).reduce(0) { $0 + a[row * 3 + $1] * b[$1 * columns + column] }
        }
    }

    private static func invert(_ m: [Double]) -> [Double] {
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        return cofactors.map { $0 / determinant }
    }
}
