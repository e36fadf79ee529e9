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
