/// Y′CbCr samples to R′G′B′ ones, a row at a time, by the matrix an `nclx` colour description
/// names (ITU-T H.273): what libheif does to a deep image, without its whole-frame copies.
///
/// Chroma is taken from the sample that covers the pixel (no interpolation): renditions average
/// blocks of pixels down, which averages the chroma of the block all the same.
struct YCbCrToRGB {
    enum Matrix {
        /// R′G′B′ stored as G′, B′, R′ (matrix 0).
        case identity
        /// The luma weights of red and blue (green's is what is left).
        case weights(red: Double, blue: Double)
    }

    let matrix: Matrix
    let maximum: Int
    private let yOffset, yScale, cOffset, cScale: Double

    /// The conversion for samples of `bitDepth` bits; `matrix` and `fullRange` as the image's
    /// `nclx` says, `primaries` its chromaticities (x, y of red, green, blue and white) for the
    /// matrices derived from them (12 and 13).
    ///
    /// An image without a description is BT.601, full
    /// range, as libheif takes it. Nil for the matrices that are not weights of R′, G′ and B′
    /// (YCgCo, ICtCp and the like), which libheif converts.
    init?(matrix code: Int, fullRange: Bool, bitDepth: Int, primaries: [Double]) {
        guard !Self.otherMatrices.contains(code) else { return nil }
        maximum = (1 << bitDepth) - 1
        let scale = Double(1 << (bitDepth - 8))
        if fullRange {
            (yOffset, yScale) = (0, 1)
            (cOffset, cScale) = (Double(1 << (bitDepth - 1)), 1)
        } else {
            (yOffset, yScale) = (16 * scale, Double(maximum) / (219 * scale))
            (cOffset, cScale) = (128 * scale, Double(maximum) / (224 * scale))
        }
        matrix =
            switch code {
            case 0: .identity
            case 1: .weights(red: 0.2126, blue: 0.0722)
            case 4: .weights(red: 0.30, blue: 0.11)
            case 7: .weights(red: 0.212, blue: 0.087)
            case 9, 10: .weights(red: 0.2627, blue: 0.0593)
            case 12, 13: Self.weights(primaries) ?? .weights(red: 0.299, blue: 0.114)
            default: .weights(red: 0.299, blue: 0.114)
            }
    }

    /// YCgCo (8, and its variants 16 and 17), SMPTE 2085 (11) and ICtCp (14).
    static let otherMatrices: Set<Int> = [8, 11, 14, 16, 17]

    /// The luma weights of primaries given as chromaticities (H.273, equations for matrices 12
    /// and 13): red's, green's and blue's share of white's luminance.
    static func weights(_ xy: [Double]) -> Matrix? {
        guard xy.count == 8, xy.allSatisfy({ $0 > 0 && $0 < 1 }) else { return nil }
        // Columns: X/Y, 1, Z/Y of each primary; solved for the luminances that make white.
        let column = { (x: Double, y: Double) in (x / y, 1.0, (1 - x - y) / y) }
        let (r, g, b, w) = (column(xy[0], xy[1]), column(xy[2], xy[3]), column(xy[4], xy[5]), column(xy[6], xy[7]))
        let determinant = { (a: (Double, Double, Double), b: (Double, Double, Double), c: (Double, Double, Double)) in
            a.0 * (b.1 * c.2 - b.2 * c.1) - b.0 * (a.1 * c.2 - a.2 * c.1) + c.0 * (a.1 * b.2 - a.2 * b.1)
        }
        let whole = determinant(r, g, b)
        guard abs(whole) > 1e-9 else { return nil }
        let (red, blue) = (determinant(w, g, b) / whole, determinant(r, g, w) / whole)
        guard red > 0, blue > 0, red + blue < 1 else { return nil }
        return .weights(red: red, blue: blue)
    }

    /// Converts one row of `width` pixels: `y`, `cb` and `cr` are rows of 16-bit samples
    /// (chroma `shift` times subsampled across); writes interleaved 16-bit R, G, B to `out`.
    func convert(
        y: UnsafePointer<UInt16>, cb: UnsafePointer<UInt16>, cr: UnsafePointer<UInt16>, shift: Int,
        width: Int, into out: UnsafeMutablePointer<UInt16>
    ) {
        let channels = 3
        let top = Double(maximum)
        @inline(__always) func sample(_ value: Double) -> UInt16 { UInt16(min(max(value, 0), top) + 0.5) }
        switch matrix {
        case .identity:
            for x in 0..<width {
                let c = x >> shift
                out[x * channels] = sample((Double(cr[c]) - yOffset) * yScale)
                out[x * channels + 1] = sample((Double(y[x]) - yOffset) * yScale)
                out[x * channels + 2] = sample((Double(cb[c]) - yOffset) * yScale)
            }
        case .weights(let kr, let kb):
            let kg = 1 - kr - kb
            let (toRed, toBlue) = (2 * (1 - kr), 2 * (1 - kb))
            let (greenFromBlue, greenFromRed) = (toBlue * kb / kg, toRed * kr / kg)
            for x in 0..<width {
                let c = x >> shift
                let luma = (Double(y[x]) - yOffset) * yScale
                let blue = (Double(cb[c]) - cOffset) * cScale, red = (Double(cr[c]) - cOffset) * cScale
                out[x * channels] = sample(luma + toRed * red)
                out[x * channels + 1] = sample(luma - greenFromBlue * blue - greenFromRed * red)
                out[x * channels + 2] = sample(luma + toBlue * blue)
            }
        }
    }
}
