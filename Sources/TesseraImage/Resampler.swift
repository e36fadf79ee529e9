import Foundation

/// Separable Lanczos-3 resampling of a rectangle of an image.
///
/// Each output pixel is a weighted sum over source pixels within three
/// (scaled) lobes of its centre. Taps that fall outside the image are
/// dropped and the remaining weights renormalised, so edges keep their
/// brightness without being smeared in from a replicated border. Alpha is
/// premultiplied while filtering, so transparent pixels add no colour fringe.
enum Resampler {
    /// A source rectangle in pixel units; fractional edges are honoured exactly.
    struct Rect {
        var x, y, width, height: Double
    }

    /// The background an RGBA image is composited over; nil keeps the alpha channel.
    typealias Background = (red: UInt8, green: UInt8, blue: UInt8)

    /// Resamples `rect` of `source` to `width`×`height`.
    ///
    /// The result is RGB when `source` has no alpha or `background` is given, RGBA otherwise.
    static func resample(
        _ source: PixelBuffer, rect: Rect, width: Int, height: Int, background: Background?
    ) -> PixelBuffer {
        let horizontal = Axis(start: rect.x, length: rect.width, limit: source.width, count: width)
        let vertical = Axis(start: rect.y, length: rect.height, limit: source.height, count: height)
        let firstRow = vertical.lowestIndex, rowCount = vertical.highestIndex - firstRow + 1
        let channels = source.channels
        let alpha = channels == 4

        // Horizontal pass into premultiplied floats, only for the rows the vertical pass reads.
        var rows = [Float](repeating: 0, count: rowCount * width * 4)
        source.pixels.withUnsafeBufferPointer { src in
            rows.withUnsafeMutableBufferPointer { out in
                for row in 0..<rowCount {
                    let rowStart = (firstRow + row) * source.width * channels
                    for x in 0..<width {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        let base = x * horizontal.taps
                        for tap in base..<base + horizontal.taps {
                            let weight = horizontal.weights[tap]
                            let p = rowStart + Int(horizontal.indices[tap]) * channels
                            let w = alpha ? weight * Float(src[p + 3]) * (1 / 255) : weight
                            r += Float(src[p]) * w
                            g += Float(src[p + 1]) * w
                            b += Float(src[p + 2]) * w
                            a += w
                        }
                        let o = (row * width + x) * 4
                        out[o] = r
                        out[o + 1] = g
                        out[o + 2] = b
                        out[o + 3] = a
                    }
                }
            }
        }

        // Vertical pass, then composite or unpremultiply.
        let outChannels = alpha && background == nil ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * outChannels)
        rows.withUnsafeBufferPointer { tmp in
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let base = y * vertical.taps
                    for x in 0..<width {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        for tap in base..<base + vertical.taps {
                            let weight = vertical.weights[tap]
                            let p = ((Int(vertical.indices[tap]) - firstRow) * width + x) * 4
                            r += tmp[p] * weight
                            g += tmp[p + 1] * weight
                            b += tmp[p + 2] * weight
                            a += tmp[p + 3] * weight
                        }
                        let o = (y * width + x) * outChannels
                        if !alpha {
                            out[o] = clamp(r)
                            out[o + 1] = clamp(g)
                            out[o + 2] = clamp(b)
                        } else if let background {
                            let coverage = max(0, min(1, a))
                            out[o] = clamp(r + Float(background.red) * (1 - coverage))
                            out[o + 1] = clamp(g + Float(background.green) * (1 - coverage))
                            out[o + 2] = clamp(b + Float(background.blue) * (1 - coverage))
                        } else {
                            let coverage = max(0, min(1, a))
                            let scale: Float = coverage > 0 ? 1 / coverage : 0
                            out[o] = clamp(r * scale)
                            out[o + 1] = clamp(g * scale)
                            out[o + 2] = clamp(b * scale)
                            out[o + 3] = clamp(coverage * 255)
                        }
                    }
                }
            }
        }
        return PixelBuffer(width: width, height: height, channels: outChannels, pixels: pixels)
    }

    @inline(__always)
    private static func clamp(_ value: Float) -> UInt8 {
        UInt8(max(0, min(255, value + 0.5)))
    }

    /// The source indices and normalised weights of every output position along one axis.
    struct Axis {
        /// Taps per output position (padded with zero weights).
        let taps: Int
        let indices: [Int32]
        let weights: [Float]
        var lowestIndex: Int { Int(indices.min() ?? 0) }
        var highestIndex: Int { Int(indices.max() ?? 0) }

        static let lobes = 3.0

        init(start: Double, length: Double, limit: Int, count: Int) {
            let scale = length / Double(count)
            // When shrinking, stretch the kernel over the source so it also low-passes.
            let stretch = max(scale, 1)
            let support = Self.lobes * stretch
            let taps = Int((2 * support).rounded(.up)) + 1
            var indices = [Int32](repeating: 0, count: count * taps)
            var weights = [Float](repeating: 0, count: count * taps)
            for position in 0..<count {
                let centre = start + (Double(position) + 0.5) * scale
                let first = Int((centre - support - 0.5).rounded(.down))
                var total = 0.0
                var kept: [(Int, Double)] = []
                for index in first..<first + taps where index >= 0 && index < limit {
                    let weight = Self.lanczos((Double(index) + 0.5 - centre) / stretch)
                    if weight != 0 {
                        kept.append((index, weight))
                        total += weight
                    }
                }
                if kept.isEmpty || total == 0 {
                    // Only possible for a window outside the image: take the nearest pixel.
                    kept = [(max(0, min(limit - 1, Int(centre))), 1)]
                    total = 1
                }
                for (slot, (index, weight)) in kept.enumerated() {
                    indices[position * taps + slot] = Int32(index)
                    weights[position * taps + slot] = Float(weight / total)
                }
                // Padding taps repeat the first index with zero weight.
                for slot in kept.count..<taps {
                    indices[position * taps + slot] = Int32(kept[0].0)
                }
            }
            self.taps = taps
            self.indices = indices
            self.weights = weights
        }

        static func lanczos(_ x: Double) -> Double {
            if x == 0 { return 1 }
            guard abs(x) < lobes else { return 0 }
            let px = Double.pi * x
            return lobes * sin(px) * sin(px / lobes) / (px * px)
        }
    }
}
