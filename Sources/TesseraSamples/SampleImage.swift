public import TesseraFacts
public import TesseraImage
public import TesseraMetadata

/// Synthetic photos with known pixels and metadata, for sample libraries and tests.
public enum SampleImage {
    /// A `width`×`height` image: a diagonal colour gradient seeded by `seed`, under a checker
    /// of light and dark fields whose count the seed sets too (so that two seeds make two
    /// pictures, not one in two tints: docs/DUPLICATES.md), with a white block in the top-left
    /// corner so its orientation is visible.
    public static func pixels(width: Int, height: Int, seed: Int = 0, alpha: Bool = false) -> PixelBuffer {
        let channels = alpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let hue = seed &* 47
        let (columns, rows) = (2 + abs(seed % 5), 1 + abs(seed / 5 % 4))
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * channels
                let marker = x < max(1, width / 5) && y < max(1, height / 5)
                let shade = (x * columns / max(1, width) + y * rows / max(1, height)) % 2 == 0 ? 24 : -24
                func channel(_ value: Int) -> UInt8 {
                    marker ? 255 : UInt8(clamping: Int(UInt8(truncatingIfNeeded: value)) + shade)
                }
                pixels[o] = channel((x * 255 / max(1, width - 1)) &+ hue)
                pixels[o + 1] = channel((y * 255 / max(1, height - 1)) &+ hue / 2)
                pixels[o + 2] = channel(((x + y) * 127 / max(1, width + height)) &+ 60)
                if alpha { pixels[o + 3] = UInt8(truncatingIfNeeded: 255 - x * 255 / max(1, width)) }
            }
        }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// A JPEG of `image` (baseline, or progressive when asked) with `exif` in an APP1 segment right after SOI.
    public static func jpeg(
        _ image: PixelBuffer, exif: ExifBuilder? = nil, quality: Int = 90, progressive: Bool = false
    ) throws(PhotoError) -> [UInt8] {
        let encoded = try JPEGEncoder.encode(image.flattened(), quality: quality, progressive: progressive)
        guard let exif else { return encoded }
        let payload = ExifReader.exifPrefix + exif.tiff()
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(encoded[0..<2]) + segment + Array(encoded[2...])
    }

    /// A PNG of `image` with optional `eXIf`, `tIME` and "Creation Time" chunks after IHDR.
    public static func png(
        _ image: PixelBuffer, exif: ExifBuilder? = nil, time: PNGHeader.Time? = nil, creationTime: String? = nil
    ) throws(PhotoError) -> [UInt8] {
        let encoded = try PNGEncoder.encode(image)
        var chunks: [UInt8] = []
        if let exif { chunks += PNGHeader.chunk(type: "eXIf", data: exif.tiff()) }
        if let time {
            chunks += PNGHeader.chunk(
                type: "tIME",
                data: [
                    UInt8(time.year >> 8), UInt8(time.year & 0xFF), UInt8(time.month), UInt8(time.day),
                    UInt8(time.hour), UInt8(time.minute), UInt8(time.second),
                ])
        }
        if let creationTime {
            chunks += PNGHeader.chunk(type: "tEXt", data: Array("Creation Time".utf8) + [0] + Array(creationTime.utf8))
        }
        let afterIHDR = 8 + 25  // signature, then IHDR: 4 length + 4 type + 13 data + 4 CRC
        return Array(encoded[..<afterIHDR]) + chunks + Array(encoded[afterIHDR...])
    }
}
