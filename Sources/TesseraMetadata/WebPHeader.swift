public import TesseraFacts
public import TesseraSystem

/// What a WebP file's RIFF chunks say: canvas size, coding, and the EXIF and ICC chunks.
///
/// Read by walking the chunks after `RIFF....WEBP` (Google's "WebP Container
/// Specification"): `VP8X` (extended: flags and canvas size), `VP8 ` (lossy: the VP8 frame
/// header holds the size), `VP8L` (lossless: its 5-byte header holds it), `ICCP`, `EXIF`,
/// `ANIM`/`ANMF` (animation). Only chunk headers and the small chunks are read; the image
/// data is skipped.
public struct WebPHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var lossless: Bool
    public var hasAlpha: Bool
    /// Frames of an animation (0 for a still image).
    public var frames: Int
    /// The TIFF structure of the EXIF chunk.
    public var exif: [UInt8]?
    /// The packet of the `XMP ` chunk.
    public var xmp: [UInt8]?
    public var iccProfile: [UInt8]?
    public var warnings: [String] = []

    /// "webp lossy", "webp lossless +alpha", "webp lossy animated 10 frames".
    public var coding: String {
        "webp \(lossless ? "lossless" : "lossy")\(hasAlpha ? " +alpha" : "")"
            + (frames > 0 ? " animated \(frames) frames" : "")
    }

    /// The largest metadata chunk read (EXIF, ICC).
    static let maxMetadataChunk = 8 << 20

    public static func read(_ bytes: borrowing FileReader) throws(PhotoError) -> WebPHeader {
        let riff = try bytes.photoBytes(at: 0, count: 12, what: "the RIFF header")
        let declared = Int64(riff.littleEndian(4, at: 4)) + 8
        if declared > bytes.size { throw PhotoError(.truncated, "file ends before the RIFF size it declares") }
        let end = min(declared, bytes.size)
        var offset: Int64 = 12
        var canvas: (width: Int, height: Int)?
        var image: (width: Int, height: Int, lossless: Bool, alpha: Bool)?
        var flags: UInt8 = 0
        var frames = 0
        var exif: [UInt8]?, icc: [UInt8]?, xmp: [UInt8]?
        var warnings: [String] = []
        while offset + 8 <= end {
            let head = try bytes.photoBytes(at: offset, count: 8, what: "a chunk header")
            let fourCC = String(decoding: head.prefix(4), as: UTF8.self)
            let size = Int64(head.littleEndian(4, at: 4))
            let payload = offset + 8
            guard payload + size <= end else {
                if image == nil { throw PhotoError(.truncated, "file ends inside the \(fourCC.trimmingSpaces) chunk") }
                warnings.append("file ends inside the \(fourCC.trimmingSpaces) chunk")
                break
            }
            switch fourCC {
            case "VP8X" where size >= 10:
                let data = try bytes.photoBytes(at: payload, count: 10, what: "the VP8X chunk")
                flags = data[data.startIndex]
                canvas = (Int(data.littleEndian(3, at: 4)) + 1, Int(data.littleEndian(3, at: 7)) + 1)
            case "VP8 " where image == nil && size >= 10:
                let data = try bytes.photoBytes(at: payload, count: 10, what: "the VP8 frame header")
                guard data[data.startIndex + 3] == 0x9D, data[data.startIndex + 4] == 0x01,
                    data[data.startIndex + 5] == 0x2A
                else {
                    throw PhotoError(.corrupt, "VP8 frame without its start code")
                }
                image = (
                    Int(data.littleEndian(2, at: 6) & 0x3FFF), Int(data.littleEndian(2, at: 8) & 0x3FFF), false, false
                )
            case "VP8L" where image == nil && size >= 5:
                let data = try bytes.photoBytes(at: payload, count: 5, what: "the VP8L header")
                guard data[data.startIndex] == 0x2F else {
                    throw PhotoError(.corrupt, "VP8L chunk without its signature")
                }
                let bits = data.littleEndian(4, at: 1)
                image = (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1, true, (bits >> 28) & 1 == 1)
            case "ALPH":
                image?.alpha = true
            case "ANMF":
                frames += 1
                if image == nil && size >= 24 {
                    // The first frame's own image chunk follows its 16-byte frame header.
                    let inner = try bytes.photoBytes(at: payload + 16, count: 8, what: "an animation frame")
                    let kind = String(decoding: inner.prefix(4), as: UTF8.self)
                    image = (0, 0, kind == "VP8L", false)
                }
            case "EXIF" where exif == nil && size <= Self.maxMetadataChunk:
                var data = Array(try bytes.photoBytes(at: payload, count: Int(size), what: "the EXIF chunk"))
                // Some writers keep JPEG's "Exif\0\0" prefix.
                if data.starts(with: ExifReader.exifPrefix) { data.removeFirst(ExifReader.exifPrefix.count) }
                exif = data
            case "XMP " where xmp == nil && size <= Int64(XMPReader.maxLength):
                xmp = Array(try bytes.photoBytes(at: payload, count: Int(size), what: "the XMP chunk"))
            case "ICCP" where icc == nil && size <= Self.maxMetadataChunk:
                icc = Array(try bytes.photoBytes(at: payload, count: Int(size), what: "the ICCP chunk"))
            default:
                break
            }
            offset = payload + size + (size & 1)  // chunks are padded to an even size
        }
        guard let image else { throw PhotoError(.corrupt, "WebP file without an image chunk") }
        let (width, height) = canvas ?? (image.width, image.height)
        guard width > 0, height > 0 else { throw PhotoError(.corrupt, "WebP image of \(width)×\(height)") }
        return WebPHeader(
            width: width, height: height, lossless: image.lossless, hasAlpha: image.alpha || flags & 0x10 != 0,
            frames: frames, exif: exif, xmp: xmp, iccProfile: icc, warnings: warnings)
    }
}

extension WebPHeader: PhotoHeader {
    public static let formats: Set<ImageFormat> = [.webp]

    /// RIFF, a little-endian length, then the form type WEBP.
    public static func identify(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && bytes[8..<12].elementsEqual(Array("WEBP".utf8))
            ? .webp : nil
    }
    public var storedSize: (width: Int, height: Int, bitDepth: Int) { (width, height, 8) }
    public func coding(as format: ImageFormat) -> String { coding }
    public var sizeRule: String { "WebP VP8X canvas or frame header" }
    public var exifTIFF: [UInt8]? { exif }
    public var xmpPacket: [UInt8]? { xmp }
    public var readWarnings: [String] { warnings }
    public var describesColour: Bool { iccProfile != nil }
}
