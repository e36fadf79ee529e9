import Foundation
import SystemPackage
import TesseraDesktop
import TesseraFacts
import TesseraJXL
import TesseraMetadata
import TesseraSystem
import TesseraVideo

/// The parsers of photo and video files: every format as a scan reads it, each format's header
/// reader, and the readers they share.
extension FuzzTarget {
    static let formatTargets: [FuzzTarget] = [
        FuzzTarget(
            name: "metadata", summary: "every format through MetadataReader, as a scan reads a file",
            dictionary: jpegWords, seedExtensions: [],
            run: { bytes, check in
                guard let metadata = try? MetadataReader.read(contents: bytes, path: path, mtime: mtime) else { return }
                check(metadata.width > 0 && metadata.height > 0, "a photo read without a size")
                check((1...8).contains(metadata.orientation), "orientation \(metadata.orientation)")
                if let motion = metadata.motion {
                    check(
                        motion.offset >= 0 && motion.length > 0 && motion.length <= Int64(bytes.count) - motion.offset,
                        "a motion photo's video outside the file")
                }
            }),
        header(
            JPEGHeader.self, "jpeg", "JPEG segments: SOF, APP1 EXIF and XMP, APP2 ICC and MPF, APP14",
            dictionary: jpegWords),
        header(
            PNGHeader.self, "png", "PNG chunks: IHDR, eXIf, iTXt/tEXt/zTXt, iCCP, cICP", dictionary: pngWords),
        header(
            WebPHeader.self, "webp", "WebP's RIFF chunks: VP8, VP8L, VP8X, EXIF, XMP, ICCP",
            dictionary: ["RIFF", "WEBP", "VP8 ", "VP8L", "VP8X", "EXIF", "XMP ", "ICCP", "ANIM", "ANMF"]),
        header(
            HEIFHeader.self, "heif", "HEIF and AVIF boxes: meta, iinf, iloc, iprp, Exif and XMP items",
            dictionary: boxWords),
        header(
            RAWHeader.self, "raw", "RAW structures: TIFF IFDs, SubIFDs, CR3 boxes, embedded previews, LibRaw",
            dictionary: ["II*\0", "MM\0*", "ftypcrx ", "moov", "uuid", "CMT1", "CMT2", "THMB", "PRVW"], sized: false,
            check: { header, bytes, check in
                for preview in header.previews {
                    check(
                        preview.offset >= 0 && preview.length > 0
                            && Int64(preview.length) <= Int64(bytes.count) - preview.offset,
                        "a preview outside the file")
                }
            }),
        header(
            JXLHeader.self, "jxl", "JPEG XL: the codestream header through libjxl, and the container",
            dictionary: jxlWords, sized: false),
        FuzzTarget(
            name: "jxl-container", summary: "JPEG XL container boxes, brob decompression", dictionary: jxlWords,
            seedExtensions: Set(JXLHeader.formats.flatMap(\.traits.extensions)),
            run: { bytes, check in
                guard
                    let container = try? FileReader.withBytes(
                        bytes, path: path, mtime: mtime, { reader throws(JXLError) in try JXLContainer.read(reader) })
                else { return }
                for part in container.codestream {
                    check(
                        part.lowerBound >= 0 && part.lowerBound <= part.upperBound
                            && part.upperBound <= Int64(bytes.count),
                        "a codestream part outside the file")
                }
            }),
        FuzzTarget(
            name: "exif", summary: "an EXIF TIFF structure through libexif, with maker notes",
            dictionary: ["II*\0", "MM\0*", "\u{87}\u{69}", "\u{92}\u{7C}", "Canon", "Apple iOS\0", "Nikon\0"],
            seedExtensions: ["dng", "cr2", "nef", "arw", "tif", "tiff"],
            run: { bytes, _ in
                _ = ExifReader.read(tiff: bytes)
                _ = ExifReader.read(tiff: bytes, asExifIFD: true)
            }),
        FuzzTarget(
            name: "xmp", summary: "an XMP packet through Exempi",
            dictionary: [
                "<?xpacket begin=", "<x:xmpmeta", "rdf:RDF", "rdf:Description", "xmp:Rating", "exif:DateTimeOriginal",
            ],
            seedExtensions: ["xmp"], run: { bytes, _ in _ = XMPReader.read(packet: bytes) }),
        FuzzTarget(
            name: "boxes", summary: "the shared ISO-BMFF box reader, in memory and from a file", dictionary: boxWords,
            seedExtensions: Set(HEIFHeader.formats.flatMap(\.traits.extensions)), run: boxes),
        FuzzTarget(
            name: "png-text", summary: "the tEXt chunks of a desktop thumbnail, rewritten", dictionary: pngWords,
            seedExtensions: Set(PNGHeader.formats.flatMap(\.traits.extensions)),
            run: { bytes, check in
                let text = [("Thumb::URI", "file:///fuzz"), ("Thumb::MTime", "0")]
                guard let rewritten = PNGText.replacing(text, in: bytes) else { return }
                check(PNGText.replacing(text, in: rewritten) == rewritten, "rewriting a rewritten thumbnail changed it")
            }),
        FuzzTarget(
            name: "video",
            summary: "a video's container facts and poster frame, FFmpeg reading through Tessera's AVIOContext",
            dictionary: [
                "ftyp", "moov", "mvhd", "trak", "tkhd", "mdia", "mdhd", "stbl", "stsd", "stco", "co64", "stss", "mdat",
                "avc1", "hvc1", "\u{1A}\u{45}\u{DF}\u{A3}", "webm", "RIFF", "AVI ", "\u{47}", "\0\0\0\u{01}",
            ],
            seedExtensions: Set(VideoFacts.formats.flatMap(\.traits.extensions) + ["mpg", "wmv"]), run: video),
    ]

    static let jpegWords = [
        "\u{FF}\u{D8}\u{FF}", "Exif\0\0", "http://ns.adobe.com/xap/1.0/\0", "ICC_PROFILE\0", "MPF\0",
    ]
    static let pngWords = ["\u{89}PNG\r\n\u{1A}\n", "IHDR", "eXIf", "iTXt", "tEXt", "zTXt", "iCCP", "IDAT", "IEND"]
    static let jxlWords = ["\0\0\0\u{0C}JXL \r\n\u{87}\n", "\u{FF}\n", "jxlc", "jxlp", "jbrd", "brob", "Exif", "xml "]
    static let boxWords = [
        "ftyp", "heic", "avif", "mif1", "meta", "hdlr", "pitm", "iinf", "infe", "iloc", "iprp", "ipco",
        "ipma", "ispe", "irot", "imir", "colr", "nclx", "pixi", "av1C", "hvcC", "iref", "cdsc", "mdat",
    ]

    /// The boxes of `bytes` tile them, in memory and read from a file alike.
    private static func boxes(_ bytes: [UInt8], _ check: Check) {
        let inMemory = ISOBox.list(in: bytes[...])
        var end = Int64(0)
        for box in inMemory.boxes {
            check(
                box.start == end && box.start < box.body && box.body <= box.end && box.end <= Int64(bytes.count),
                "boxes that do not tile their parent")
            end = box.end
            _ = ISOBox.list(in: box.body(in: bytes[...]))
        }
        let fromFile = try? FileReader.withBytes(bytes, path: path, mtime: mtime) { reader throws(FileReadError) in
            try reader.boxes()
        }
        check(fromFile?.boxes == inMemory.boxes, "a file and its bytes read as different boxes")
    }

    /// A video's facts are sane, and its poster frame within the size asked.
    private static func video(_ bytes: [UInt8], _ check: Check) {
        try? FileReader.withBytes(bytes, path: path, mtime: mtime) { reader throws(VideoError) in
            if let facts = try? VideoFacts.read(reader.stream(), timeLimit: .seconds(2)) {
                check(facts.width > 0 && facts.height > 0, "a video read without a size")
                check([0, 90, 180, 270].contains(facts.rotation), "rotation \(facts.rotation)")
                check(facts.duration.map { $0.isFinite && $0 >= 0 } ?? true, "duration \(facts.duration ?? 0)")
                check(facts.frameRate.map { $0.isFinite && $0 > 0 } ?? true, "frame rate \(facts.frameRate ?? 0)")
            }
            let longSide = 64
            let frame = try PosterFrame.decode(
                reader.stream(), longSide: longSide, memoryLimit: 64 << 20, timeLimit: .seconds(2))
            check(
                (1...longSide).contains(frame.width) && (1...longSide).contains(frame.height)
                    && frame.rgb.count == frame.width * frame.height * 3,
                "a \(frame.width)×\(frame.height) poster in \(frame.rgb.count) bytes")
            check(frame.time.isFinite && frame.time >= 0, "a poster at \(frame.time) s")
        }
    }
}
