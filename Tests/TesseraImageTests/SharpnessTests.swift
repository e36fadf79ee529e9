import Testing

@testable import TesseraImage

/// The measure that picks a burst's sharpest frame: a picture scores higher than itself blurred.
struct SharpnessTests {
    /// A picture with edges: squares of 8 pixels, dark and light.
    static let squares = PixelBuffer(
        width: 64, height: 48, channels: 3,
        pixels: (0..<(64 * 48)).flatMap { index -> [UInt8] in
            let (x, y) = (index % 64, index / 64)
            let value: UInt8 = (x / 8 + y / 8) % 2 == 0 ? 40 : 220
            return [value, value, value]
        })

    /// `image` with each pixel the mean of the 3 × 3 around it, as a shaken hand blurs it.
    static func blurred(_ image: PixelBuffer) -> PixelBuffer {
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                for channel in 0..<image.channels {
                    var (sum, count) = (0, 0)
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let (nx, ny) = (x + dx, y + dy)
                            guard (0..<image.width).contains(nx), (0..<image.height).contains(ny) else { continue }
                            sum += Int(image.pixels[(ny * image.width + nx) * image.channels + channel])
                            count += 1
                        }
                    }
                    out.pixels[(y * image.width + x) * image.channels + channel] = UInt8(sum / count)
                }
            }
        }
        return out
    }

    @Test func aPictureIsSharperThanItselfBlurredAndAFlatOneIsNotSharpAtAll() {
        let sharp = Sharpness.measure(Self.squares)
        let soft = Sharpness.measure(Self.blurred(Self.squares))
        let softer = Sharpness.measure(Self.blurred(Self.blurred(Self.squares)))
        #expect(sharp > soft && soft > softer && softer > 0, "\(sharp) \(soft) \(softer)")
        let flat = PixelBuffer(width: 8, height: 8, channels: 3, pixels: [UInt8](repeating: 128, count: 192))
        #expect(Sharpness.measure(flat) == 0)
        #expect(
            Sharpness.measure(PixelBuffer(width: 2, height: 2, channels: 3, pixels: [UInt8](repeating: 0, count: 12)))
                == 0)
    }
}
