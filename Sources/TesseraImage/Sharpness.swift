/// How sharp a photo is: the variance of its luma's Laplacian (Pech-Pacheco et al., 2000), the
/// measure that picks the sharpest of a burst's frames (docs/DUPLICATES.md).
///
/// Only comparable between photos of one scene at one size: a burst's frames, each measured at
/// the same size.
public enum Sharpness {
    /// The side a photo is measured at: its fit rendition of this size (a burst's frames alike).
    public static let side = 512

    public static func measure(_ image: PixelBuffer) -> Double {
        let (width, height, channels) = (image.width, image.height, image.channels)
        guard width >= 3, height >= 3, channels >= 3 else { return 0 }
        var luma = [Double](repeating: 0, count: width * height)
        for index in luma.indices {
            let at = index * channels
            luma[index] =
                0.299 * Double(image.pixels[at]) + 0.587 * Double(image.pixels[at + 1])
                + 0.114 * Double(image.pixels[at + 2])
        }
        var (sum, squares) = (0.0, 0.0)
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let at = y * width + x
                let laplacian = luma[at - 1] + luma[at + 1] + luma[at - width] + luma[at + width] - 4 * luma[at]
                sum += laplacian
                squares += laplacian * laplacian
            }
        }
        let count = Double((width - 2) * (height - 2))
        return squares / count - (sum / count) * (sum / count)
    }
}
