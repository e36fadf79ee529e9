extension PixelBuffer {
    /// The image as it should be displayed, given its EXIF orientation (1–8).
    ///
    /// Orientation values per EXIF 2.32 §4.6.4A (tag 0x0112): 2 mirrors
    /// horizontally, 3 rotates 180°, 4 mirrors vertically, 5 transposes,
    /// 6 rotates 90° clockwise, 7 transverses, 8 rotates 90° anticlockwise.
    /// Any other value returns the image unchanged.
    public func oriented(_ orientation: Int) -> PixelBuffer {
        guard (2...8).contains(orientation) else { return self }
        let w = width, h = height, c = channels
        let swapped = orientation >= 5
        let outWidth = swapped ? h : w, outHeight = swapped ? w : h
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case 2: (sx, sy) = (w - 1 - x, y)
                        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case 4: (sx, sy) = (x, h - 1 - y)
                        case 5: (sx, sy) = (y, x)
                        case 6: (sx, sy) = (y, h - 1 - x)
                        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
                        default: (sx, sy) = (w - 1 - y, x)  // 8
                        }
                        let s = (sy * w + sx) * c, d = (y * outWidth + x) * c
                        for channel in 0..<c { dst[d + channel] = src[s + channel] }
                    }
                }
            }
        }
        return PixelBuffer(width: outWidth, height: outHeight, channels: c, pixels: out)
    }
}
