import Foundation

/// Separable Lanczos-3 resampling of a rectangle of an image.
///
/// Each output pixel is a weighted sum over source pixels within three
/// (scaled) lobes of its centre. Taps that fall outside the image are
/// dropped and the remaining weights renormalised, so edges keep their
/// brightness without being smeared in from a replicated border. Alpha is
/// premultiplied while filtering, so transparent pixels add no colour fringe.
///
/// Rows are filtered horizontally as the vertical pass first needs them and
/// kept in a ring just deep enough for one output row's taps, so memory is a
/// few rows of the output, not the whole intermediate image.
public enum Resampler {
    /// A source rectangle in pixel units; fractional edges are honoured exactly.
    public struct Rect {
        var x, y, width, height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// The background an RGBA image is composited over; nil keeps the alpha channel.
    public typealias Background = (red: UInt8, green: UInt8, blue: UInt8)

    /// Resamples `rect` of `source` to `width`×`height`.
    ///
    /// The result is RGB when `source` has no alpha or `background` is given, RGBA otherwise.
    public static func resample(
        _ source: PixelBuffer, rect: Rect, width: Int, height: Int, background: Background?
    ) -> PixelBuffer {
        // Whole source pixels one to one: Lanczos is then the identity (a photo no larger than
        // its rendition or placeholder), so the pixels are copied.
        if background == nil, rect.width == Double(width), rect.height == Double(height),
            rect.x == rect.x.rounded(), rect.y == rect.y.rounded(), rect.x >= 0, rect.y >= 0,
            Int(rect.x) + width <= source.width, Int(rect.y) + height <= source.height
        {
            return source.cropped(x: Int(rect.x), y: Int(rect.y), width: width, height: height)
        }
        let horizontal = Axis(start: rect.x, length: rect.width, limit: source.width, count: width)
        let vertical = Axis(start: rect.y, length: rect.height, limit: source.height, count: height)
        let alpha = source.hasAlpha
        let outChannels = alpha && background == nil ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * outChannels)
        let ringSize = vertical.taps + 1
        var ring = [SIMD4<Float>](repeating: .zero, count: ringSize * width)
        var ringRow = [Int](repeating: -1, count: ringSize)
        var scratch = [SIMD4<Float>](repeating: .zero, count: source.width)
        let fill: SIMD4<Float>? = background.map { SIMD4(Float($0.red), Float($0.green), Float($0.blue), 255) }

        source.pixels.withUnsafeBufferPointer { src in
            scratch.withUnsafeMutableBufferPointer { scratch in
                ring.withUnsafeMutableBufferPointer { ring in
                    pixels.withUnsafeMutableBufferPointer { out in
                        /// The horizontally filtered source row `row`, computed once.
                        func filtered(_ row: Int) -> Int {
                            let slot = row % ringSize
                            if ringRow[slot] == row { return slot * width }
                            ringRow[slot] = row
                            filterRow(
                                src, row: row, sourceWidth: source.width, channels: source.channels, axis: horizontal,
                                scratch: scratch,
                                into: UnsafeMutableBufferPointer(rebasing: ring[(slot * width)..<((slot + 1) * width)]))
                            return slot * width
                        }
                        // Only the taps with weight: padding taps would cost a multiply by zero per pixel.
                        var offsets: [Int] = []
                        var weights: [Float] = []
                        offsets.reserveCapacity(vertical.taps)
                        weights.reserveCapacity(vertical.taps)
                        for y in 0..<height {
                            let base = y * vertical.taps
                            let rowStart = y * width * outChannels
                            offsets.removeAll(keepingCapacity: true)
                            weights.removeAll(keepingCapacity: true)
                            for tap in 0..<vertical.taps where vertical.weights[base + tap] != 0 {
                                offsets.append(filtered(Int(vertical.indices[base + tap])))
                                weights.append(vertical.weights[base + tap])
                            }
                            offsets.withUnsafeBufferPointer { offsets in
                                weights.withUnsafeBufferPointer { weights in
                                    for x in 0..<width {
                                        var sum = SIMD4<Float>.zero
                                        for tap in 0..<offsets.count {
                                            sum += ring[offsets[tap] + x] * weights[tap]
                                        }
                                        store(
                                            sum, alpha: alpha, fill: fill, channels: outChannels, into: out,
                                            at: rowStart + x * outChannels)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return PixelBuffer(width: width, height: height, channels: outChannels, pixels: pixels)
    }

    /// One source row filtered along x, premultiplied by alpha, into `destination`.
    ///
    /// The row is first widened to floats in `scratch` (one conversion per source pixel, where
    /// each is read by several taps), so a tap is a load and a multiply-add.
    @inline(__always)
    private static func filterRow(
        _ src: UnsafeBufferPointer<UInt8>, row: Int, sourceWidth: Int, channels: Int, axis: Axis,
        scratch: UnsafeMutableBufferPointer<SIMD4<Float>>, into destination: UnsafeMutableBufferPointer<SIMD4<Float>>
    ) {
        let rowStart = row &* sourceWidth &* channels
        if channels == 4 {
            for x in 0..<sourceWidth {
                let p = rowStart &+ x &* 4
                let a = Float(src[p &+ 3]) * (1 / 255)
                scratch[x] = SIMD4(Float(src[p]) * a, Float(src[p &+ 1]) * a, Float(src[p &+ 2]) * a, a)
            }
        } else {
            for x in 0..<sourceWidth {
                let p = rowStart &+ x &* channels
                scratch[x] = SIMD4(Float(src[p]), Float(src[p &+ 1]), Float(src[p &+ 2]), 1)
            }
        }
        axis.weights.withUnsafeBufferPointer { weights in
            axis.indices.withUnsafeBufferPointer { indices in
                // Padding taps have zero weight and a valid index: summing them is cheaper than a branch.
                for x in 0..<destination.count {
                    var sum = SIMD4<Float>.zero
                    let base = x &* axis.taps
                    for tap in base..<base &+ axis.taps {
                        sum += scratch[Int(indices[tap])] * weights[tap]
                    }
                    destination[x] = sum
                }
            }
        }
    }

    /// Writes one filtered pixel: straight RGB, composited over `fill`, or unpremultiplied RGBA.
    @inline(__always)
    private static func store(
        _ sum: SIMD4<Float>, alpha: Bool, fill: SIMD4<Float>?, channels: Int,
        into out: UnsafeMutableBufferPointer<UInt8>, at o: Int
    ) {
        if !alpha {
            out[o] = clamp(sum.x)
            out[o + 1] = clamp(sum.y)
            out[o + 2] = clamp(sum.z)
        } else if let fill {
            let coverage = max(0, min(1, sum.w))
            out[o] = clamp(sum.x + fill.x * (1 - coverage))
            out[o + 1] = clamp(sum.y + fill.y * (1 - coverage))
            out[o + 2] = clamp(sum.z + fill.z * (1 - coverage))
        } else {
            let coverage = max(0, min(1, sum.w))
            let scale: Float = coverage > 0 ? 1 / coverage : 0
            out[o] = clamp(sum.x * scale)
            out[o + 1] = clamp(sum.y * scale)
            out[o + 2] = clamp(sum.z * scale)
            out[o + 3] = clamp(coverage * 255)
        }
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
