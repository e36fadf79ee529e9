/// An 8-bit sRGB image in memory: rows top to bottom, pixels interleaved, no padding.
public struct PixelBuffer: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// 3 (RGB) or 4 (RGBA, straight alpha).
    public var channels: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && (channels == 3 || channels == 4))  // invariant: decoders check sizes
        precondition(pixels.count == width * height * channels)  // invariant: callers allocate exactly
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    public var hasAlpha: Bool { channels == 4 }

    /// The channel values of the pixel at (`x`, `y`).
    public subscript(x: Int, y: Int) -> ArraySlice<UInt8> {
        let start = (y * width + x) * channels
        return pixels[start..<start + channels]
    }
}

extension PixelBuffer {
    /// This RGB image with the alpha channel of `other` (of the same size) added.
    func withAlpha(of other: PixelBuffer) -> PixelBuffer {
        guard !hasAlpha, other.hasAlpha, other.width == width, other.height == height else { return self }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for pixel in 0..<width * height {
            out[pixel * 4] = pixels[pixel * 3]
            out[pixel * 4 + 1] = pixels[pixel * 3 + 1]
            out[pixel * 4 + 2] = pixels[pixel * 3 + 2]
            out[pixel * 4 + 3] = other.pixels[pixel * 4 + 3]
        }
        return PixelBuffer(width: width, height: height, channels: 4, pixels: out)
    }

    /// RGB: an RGBA image composited over `background`; an RGB image unchanged.
    func flattened(over background: RenderOptions.Color) -> PixelBuffer {
        guard hasAlpha else { return self }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let fill = [Int(background.red), Int(background.green), Int(background.blue)]
        for pixel in 0..<width * height {
            let alpha = Int(pixels[pixel * 4 + 3])
            for channel in 0..<3 {
                out[pixel * 3 + channel] = UInt8(
                    (Int(pixels[pixel * 4 + channel]) * alpha + fill[channel] * (255 - alpha) + 127) / 255)
            }
        }
        return PixelBuffer(width: width, height: height, channels: 3, pixels: out)
    }
}

extension PixelBuffer {
    /// The image with its transparency composited onto `background` (RGB, no alpha left).
    public func flattened(onto background: (UInt8, UInt8, UInt8) = (255, 255, 255)) -> PixelBuffer {
        guard hasAlpha else { return self }
        return Resampler.resample(
            self, rect: .init(x: 0, y: 0, width: Double(width), height: Double(height)),
            width: width, height: height, background: background)
    }
}

extension PixelBuffer {
    /// The pixels inside the rectangle, clamped to the image and at least one pixel.
    func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> PixelBuffer {
        let left = min(max(x, 0), width - 1), top = min(max(y, 0), height - 1)
        let (newWidth, newHeight) = (min(max(cropWidth, 1), width - left), min(max(cropHeight, 1), height - top))
        guard newWidth != width || newHeight != height else { return self }
        var out = [UInt8]()
        out.reserveCapacity(newWidth * newHeight * channels)
        for row in top..<top + newHeight {
            let start = (row * width + left) * channels
            out += pixels[start..<start + newWidth * channels]
        }
        return PixelBuffer(width: newWidth, height: newHeight, channels: channels, pixels: out)
    }
}
