import Foundation
public import TesseraFacts
public import TesseraImage

/// A 64-bit fingerprint of what a photo shows, the same for the same picture re-encoded,
/// resized, converted to another format or cropped by a few per cent, and far apart for
/// different pictures (docs/DUPLICATES.md).
///
/// It is the DCT hash (Zauner, "Implementation and Benchmarking of Perceptual Image Hash
/// Functions", 2010, as pHash computes it): the upright photo's luma at 32 × 32, its
/// two-dimensional DCT, and one bit for each of the 8 × 8 lowest frequencies, set when the
/// coefficient is above their median. The constant term has no bit of its own (bit 0 is always
/// clear): it says how bright the photo is, which a copy's encoder may change.
public enum PerceptualHash {
    /// The side of the luma image the transform reads.
    static let side = 32
    /// The side of the block of lowest frequencies that gives the bits.
    static let block = 8
    /// The side of the block that gives the detail hash's bits.
    static let detailBlock = 16

    /// The hash of `image`, which shows the whole photo upright (a copy at any size), and its
    /// detail hash: one bit for each of the 16 × 16 lowest frequencies but the constant one,
    /// set when the coefficient is above their median.
    public static func compute(_ image: PixelBuffer) -> (hash: UInt64, detail: DetailHash) {
        let small = Resampler.resample(
            image, rect: Resampler.Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
            width: side, height: side, background: (128, 128, 128))
        var luma = [Double](repeating: 0, count: side * side)
        for index in luma.indices {
            let at = index * small.channels
            luma[index] =
                0.299 * Double(small.pixels[at]) + 0.587 * Double(small.pixels[at + 1])
                + 0.114 * Double(small.pixels[at + 2])
        }
        // The DCT-II, separable: each row against the lowest horizontal cosines, then each of
        // those columns against the lowest vertical ones.
        let cosines = (0..<detailBlock).map { frequency in
            (0..<side).map { x in cos(Double.pi / Double(side) * Double(frequency) * (Double(x) + 0.5)) }
        }
        var rows = [Double](repeating: 0, count: side * detailBlock)
        for y in 0..<side {
            for u in 0..<detailBlock {
                var sum = 0.0
                for x in 0..<side { sum += luma[y * side + x] * cosines[u][x] }
                rows[y * detailBlock + u] = sum
            }
        }
        var coefficients = [Double](repeating: 0, count: detailBlock * detailBlock)
        for v in 0..<detailBlock {
            for u in 0..<detailBlock {
                var sum = 0.0
                for y in 0..<side { sum += rows[y * detailBlock + u] * cosines[v][y] }
                coefficients[v * detailBlock + u] = sum
            }
        }
        let coarse = (0..<block).flatMap { v in (0..<block).map { u in coefficients[v * detailBlock + u] } }
        return (
            bits(aboveMedian: coarse).reduce(UInt64(0)) { $0 | 1 << UInt64($1) },
            DetailHash(settingBits: bits(aboveMedian: coefficients))
        )
    }

    /// The positions, but the first (the constant term), of the terms above the median of the
    /// others (of an odd count, so half of them less one are above it).
    private static func bits(aboveMedian terms: [Double]) -> [Int] {
        let ac = terms.dropFirst().sorted()
        let median = ac[ac.startIndex + ac.count / 2]
        return terms.indices.dropFirst().filter { terms[$0] > median }
    }

    /// The colours of a photo from its ThumbHash placeholder: red, green and blue (0–255) at
    /// 8 × 8, over grey where transparent; nil when it cannot be decoded.
    ///
    /// The perceptual hash sees only luma, and only where it is above or below its median: a
    /// dark frame with a bright middle (a moon, a sunset) hashes alike whatever its colours.
    /// Two copies of one picture differ by a mean of at most `colourLimit` here.
    public static func colours(placeholder: [UInt8]) -> [Double]? {
        guard let image = ThumbHash.decode(placeholder) else { return nil }
        let small = Resampler.resample(
            image, rect: Resampler.Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
            width: block, height: block, background: (128, 128, 128))
        return stride(from: 0, to: small.pixels.count, by: small.channels).flatMap { at in
            (0..<3).map { Double(small.pixels[at + $0]) }
        }
    }

    /// The largest mean difference of `colours` between copies of one picture (docs/DUPLICATES.md).
    public static let colourLimit = 20.0

    /// How many bits two hashes differ in.
    public static func distance(_ a: UInt64, _ b: UInt64) -> Int {
        (a ^ b).nonzeroBitCount
    }
}
