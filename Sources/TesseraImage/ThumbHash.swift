import Foundation

/// ThumbHash: a placeholder of about 25 bytes from which a page paints a blurred version of
/// the photo, with its average colour and aspect ratio, before the image arrives.
///
/// Written here from Evan Wallace's published description of the format
/// (evanw.github.io/thumbhash): the image, at most 100×100, goes to a luminance
/// channel L = (R+G+B)/3 and two chroma channels P = (R+G)/2 − B and Q = R − G
/// (plus alpha when any pixel is not opaque), composited over the average colour.
/// Each channel keeps the low-frequency cosine coefficients of a triangle of
/// nx × ny terms (L: up to 7 along the long side, 5 with alpha; P and Q: 3 × 3;
/// A: 5 × 5). The DC terms and the scale of the AC terms make a 5-byte header
/// (6 with alpha); the AC terms follow as 4-bit values, two to a byte.
public enum ThumbHash {
    /// Encodes `image`, which must be at most 100 pixels on each side.
    public static func encode(_ image: PixelBuffer) -> [UInt8] {
        precondition(image.width <= 100 && image.height <= 100)  // invariant: callers shrink first
        let (w, h, count) = (image.width, image.height, image.width * image.height)
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for i in 0..<count {
            let pixel = image.pixels[(i * image.channels)...]
            let alpha = image.hasAlpha ? Double(pixel[pixel.startIndex + 3]) / 255 : 1
            average.r += alpha * Double(pixel[pixel.startIndex]) / 255
            average.g += alpha * Double(pixel[pixel.startIndex + 1]) / 255
            average.b += alpha * Double(pixel[pixel.startIndex + 2]) / 255
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(count)
        let longSide = Double(max(w, h))
        let luminanceLimit = hasAlpha ? 5.0 : 7.0
        let lx = max(1, Int((luminanceLimit * Double(w) / longSide).rounded()))
        let ly = max(1, Int((luminanceLimit * Double(h) / longSide).rounded()))

        var l = [Double](repeating: 0, count: count), p = l, q = l, a = l
        for i in 0..<count {
            let pixel = image.pixels[(i * image.channels)...]
            let alpha = image.hasAlpha ? Double(pixel[pixel.startIndex + 3]) / 255 : 1
            let r = average.r * (1 - alpha) + alpha * Double(pixel[pixel.startIndex]) / 255
            let g = average.g * (1 - alpha) + alpha * Double(pixel[pixel.startIndex + 1]) / 255
            let b = average.b * (1 - alpha) + alpha * Double(pixel[pixel.startIndex + 2]) / 255
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }
        let luminance = Channel(encoding: l, width: w, height: h, nx: max(3, lx), ny: max(3, ly))
        let yellowBlue = Channel(encoding: p, width: w, height: h, nx: 3, ny: 3)
        let redGreen = Channel(encoding: q, width: w, height: h, nx: 3, ny: 3)
        let opacity = hasAlpha ? Channel(encoding: a, width: w, height: h, nx: 5, ny: 5) : nil

        let landscape = w > h
        let header24 =
            Int((63 * luminance.dc).rounded()) | Int((31.5 + 31.5 * yellowBlue.dc).rounded()) << 6
            | Int((31.5 + 31.5 * redGreen.dc).rounded()) << 12 | Int((31 * luminance.scale).rounded()) << 18
            | (hasAlpha ? 1 << 23 : 0)
        let header16 =
            (landscape ? ly : lx) | Int((63 * yellowBlue.scale).rounded()) << 3
            | Int((63 * redGreen.scale).rounded()) << 9 | (landscape ? 1 << 15 : 0)
        var hash: [UInt8] = [
            UInt8(header24 & 0xFF), UInt8(header24 >> 8 & 0xFF), UInt8(header24 >> 16 & 0xFF),
            UInt8(header16 & 0xFF), UInt8(header16 >> 8 & 0xFF),
        ]
        if let opacity {
            hash.append(UInt8(Int((15 * opacity.dc).rounded()) | Int((15 * opacity.scale).rounded()) << 4))
        }
        var nibbles: [UInt8] = []
        for channel in [luminance, yellowBlue, redGreen] + (opacity.map { [$0] } ?? []) {
            nibbles += channel.ac.map { UInt8((15 * $0).rounded()) }
        }
        for index in stride(from: 0, to: nibbles.count, by: 2) {
            hash.append(nibbles[index] | (index + 1 < nibbles.count ? nibbles[index + 1] << 4 : 0))
        }
        return hash
    }

    /// The photo's average colour (sRGB, 0–255) and opacity, from the header alone.
    public static func averageColor(_ hash: [UInt8]) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
        guard let header = Header(hash) else { return nil }
        let (r, g, b) = header.rgb(l: header.lDC, p: header.pDC, q: header.qDC)
        return (byte(r), byte(g), byte(b), byte(header.aDC))
    }

    /// The placeholder as an image, 32 pixels on its long side, in the photo's aspect ratio.
    public static func decode(_ hash: [UInt8]) -> PixelBuffer? {
        guard let header = Header(hash) else { return nil }
        var reader = NibbleReader(hash: hash, start: header.hasAlpha ? 6 : 5)
        let l = reader.read(nx: header.lx, ny: header.ly, scale: header.lScale)
        // Chroma is boosted by 1.25 to make up for the quantisation of its terms.
        let p = reader.read(nx: 3, ny: 3, scale: header.pScale * 1.25)
        let q = reader.read(nx: 3, ny: 3, scale: header.qScale * 1.25)
        let a = header.hasAlpha ? reader.read(nx: 5, ny: 5, scale: header.aScale) : []
        guard !reader.overran else { return nil }
        let ratio = Double(header.lx) / Double(header.ly)
        let w = max(1, Int((ratio > 1 ? 32 : 32 * ratio).rounded()))
        let h = max(1, Int((ratio > 1 ? 32 / ratio : 32).rounded()))
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                func sum(_ terms: [Double], nx: Int, ny: Int) -> Double {
                    var total = 0.0, index = 0
                    for cy in 0..<ny {
                        var cx = cy == 0 ? 1 : 0
                        while cx * ny < nx * (ny - cy) {
                            total +=
                                terms[index] * cos(.pi / Double(w) * (Double(x) + 0.5) * Double(cx))
                                * 2 * cos(.pi / Double(h) * (Double(y) + 0.5) * Double(cy))
                            index += 1
                            cx += 1
                        }
                    }
                    return total
                }
                let lum = header.lDC + sum(l, nx: header.lx, ny: header.ly)
                let yb = header.pDC + sum(p, nx: 3, ny: 3)
                let rg = header.qDC + sum(q, nx: 3, ny: 3)
                let opacity = header.hasAlpha ? header.aDC + sum(a, nx: 5, ny: 5) : 1
                let (r, g, b) = header.rgb(l: lum, p: yb, q: rg)
                let o = (y * w + x) * 4
                (pixels[o], pixels[o + 1], pixels[o + 2], pixels[o + 3]) = (byte(r), byte(g), byte(b), byte(opacity))
            }
        }
        return PixelBuffer(width: w, height: h, channels: 4, pixels: pixels)
    }

    /// The placeholder as PNG bytes (RGB when the photo is opaque), small enough to inline in a page.
    public static func placeholderPNG(_ hash: [UInt8]) -> [UInt8]? {
        guard var image = decode(hash) else { return nil }
        if image.pixels.enumerated().allSatisfy({ $0.offset % 4 != 3 || $0.element == 255 }) {
            let rgb = image.pixels.enumerated().compactMap { $0.offset % 4 == 3 ? nil : $0.element }
            image = PixelBuffer(width: image.width, height: image.height, channels: 3, pixels: rgb)
        }
        return try? PNGEncoder.encode(image)
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, (value * 255).rounded())))
    }

    /// The DC term and the normalised AC terms of one channel.
    private struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0

        init(encoding values: [Double], width w: Int, height h: Int, nx: Int, ny: Int) {
            // Each cosine once, not once per pixel and coefficient (the same values, so the same hash).
            let cosX = (0..<nx).map { cx in (0..<w).map { x in cos(.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) } }
            let cosY = (0..<ny).map { cy in (0..<h).map { y in cos(.pi / Double(h) * Double(cy) * (Double(y) + 0.5)) } }
            // The sum is separable: each row is weighed by each horizontal cosine once, and
            // the coefficients sum those rows (w·h·nx products, not w·h·nx·ny).
            let rows = cosX.map { columns in
                (0..<h).map { y in
                    var sum = 0.0
                    for x in 0..<w { sum += values[x + y * w] * columns[x] }
                    return sum
                }
            }
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for y in 0..<h { f += rows[cx][y] * cosY[cy][y] }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        }
    }

    /// The fixed fields at the start of a hash.
    private struct Header {
        var lDC, pDC, qDC, lScale, pScale, qScale, aDC, aScale: Double
        var hasAlpha: Bool
        var lx, ly: Int

        init?(_ hash: [UInt8]) {
            guard hash.count >= 5 else { return nil }
            let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
            let header16 = Int(hash[3]) | Int(hash[4]) << 8
            hasAlpha = header24 >> 23 & 1 == 1
            guard !hasAlpha || hash.count >= 6 else { return nil }
            lDC = Double(header24 & 63) / 63
            pDC = Double(header24 >> 6 & 63) / 31.5 - 1
            qDC = Double(header24 >> 12 & 63) / 31.5 - 1
            lScale = Double(header24 >> 18 & 31) / 31
            pScale = Double(header16 >> 3 & 63) / 63
            qScale = Double(header16 >> 9 & 63) / 63
            let landscape = header16 >> 15 & 1 == 1
            let fixed = hasAlpha ? 5 : 7
            lx = max(3, landscape ? fixed : header16 & 7)
            ly = max(3, landscape ? header16 & 7 : fixed)
            aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
            aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0
        }

        /// RGB (0…1) from L, P and Q, inverting L = (R+G+B)/3, P = (R+G)/2 − B, Q = R − G.
        func rgb(l: Double, p: Double, q: Double) -> (Double, Double, Double) {
            let b = l - 2.0 / 3.0 * p
            let r = (3 * l - b + q) / 2
            return (r, r - q, b)
        }
    }

    /// Reads 4-bit AC terms, low nibble first.
    private struct NibbleReader {
        let hash: [UInt8]
        var position: Int
        var overran = false

        init(hash: [UInt8], start: Int) {
            self.hash = hash
            position = start * 2
        }

        mutating func read(nx: Int, ny: Int, scale: Double) -> [Double] {
            var terms: [Double] = []
            for cy in 0..<ny {
                var cx = cy == 0 ? 1 : 0
                while cx * ny < nx * (ny - cy) {
                    let byte = position / 2
                    guard byte < hash.count else {
                        overran = true
                        return terms
                    }
                    let nibble = position % 2 == 0 ? hash[byte] & 15 : hash[byte] >> 4
                    terms.append((Double(nibble) / 7.5 - 1) * scale)
                    position += 1
                    cx += 1
                }
            }
            return terms
        }
    }
}
