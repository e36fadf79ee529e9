import Foundation
import SystemPackage
import TesseraCluster
import TesseraConfiguration
import TesseraDaemon
import TesseraDesktop
import TesseraFacts
import TesseraIndex
import TesseraJXL
import TesseraMetadata
import TesseraObjectStore
import TesseraSystem
import TesseraVideo

/// One parser that reads bytes from outside, called as the scan (or the daemon) calls it, from
/// bytes in memory, with each parser's own limits; each checks what its caller relies on.
///
/// A broken invariant traps, which libFuzzer reports as a crash with its input.
enum FuzzTarget: String, CaseIterable {
    case metadata, jpeg, png, webp, heif, raw, jxl, jxlContainer = "jxl-container", exif, xmp, boxes, pngText =
        "png-text"
    case video
    case configuration, controlRequest = "control-request"
    case s3Listing = "s3-listing", s3Credentials = "s3-credentials", databaseURL = "database-url",
        fileRecord = "file-record"

    /// What the target reads, for `--list`.
    var summary: String {
        switch self {
        case .metadata: "every format through MetadataReader, as a scan reads a file"
        case .jpeg: "JPEG segments: SOF, APP1 EXIF and XMP, APP2 ICC and MPF, APP14"
        case .png: "PNG chunks: IHDR, eXIf, iTXt/tEXt/zTXt, iCCP, cICP"
        case .webp: "WebP's RIFF chunks: VP8, VP8L, VP8X, EXIF, XMP, ICCP"
        case .heif: "HEIF and AVIF boxes: meta, iinf, iloc, iprp, Exif and XMP items"
        case .raw: "RAW structures: TIFF IFDs, SubIFDs, CR3 boxes, embedded previews, LibRaw"
        case .jxl: "JPEG XL: the codestream header through libjxl, and the container"
        case .jxlContainer: "JPEG XL container boxes, brob decompression"
        case .exif: "an EXIF TIFF structure through libexif, with maker notes"
        case .xmp: "an XMP packet through Exempi"
        case .boxes: "the shared ISO-BMFF box reader, in memory and from a file"
        case .pngText: "the tEXt chunks of a desktop thumbnail, rewritten"
        case .video: "a video's container facts and poster frame, FFmpeg reading through Tessera's AVIOContext"
        case .configuration: "the YAML configuration file"
        case .controlRequest: "the control socket's request lines, read in chunks as a client sends them"
        case .s3Listing: "an object store's ListObjectsV2 answer (the cluster's prune)"
        case .s3Credentials: "an S3 credentials file (renditions_credentials)"
        case .databaseURL: "a PostgreSQL address (index_url)"
        case .fileRecord: "a cluster row's record of a file, as the commands that read the cluster's index read it"
        }
    }

    /// The magic words libFuzzer's mutations may splice in.
    var dictionary: [String] {
        switch self {
        case .metadata, .jpeg:
            ["\u{FF}\u{D8}\u{FF}", "Exif\0\0", "http://ns.adobe.com/xap/1.0/\0", "ICC_PROFILE\0", "MPF\0"]
        case .png, .pngText: ["\u{89}PNG\r\n\u{1A}\n", "IHDR", "eXIf", "iTXt", "tEXt", "zTXt", "iCCP", "IDAT", "IEND"]
        case .webp: ["RIFF", "WEBP", "VP8 ", "VP8L", "VP8X", "EXIF", "XMP ", "ICCP", "ANIM", "ANMF"]
        case .heif, .boxes:
            [
                "ftyp", "heic", "avif", "mif1", "meta", "hdlr", "pitm", "iinf", "infe", "iloc", "iprp", "ipco",
                "ipma", "ispe", "irot", "imir", "colr", "nclx", "pixi", "av1C", "hvcC", "iref", "cdsc", "mdat",
            ]
        case .raw: ["II*\0", "MM\0*", "ftypcrx ", "moov", "uuid", "CMT1", "CMT2", "THMB", "PRVW"]
        case .jxl, .jxlContainer:
            ["\0\0\0\u{0C}JXL \r\n\u{87}\n", "\u{FF}\n", "jxlc", "jxlp", "jbrd", "brob", "Exif", "xml "]
        case .exif: ["II*\0", "MM\0*", "\u{87}\u{69}", "\u{92}\u{7C}", "Canon", "Apple iOS\0", "Nikon\0"]
        case .xmp:
            ["<?xpacket begin=", "<x:xmpmeta", "rdf:RDF", "rdf:Description", "xmp:Rating", "exif:DateTimeOriginal"]
        case .video:
            [
                "ftyp", "moov", "mvhd", "trak", "tkhd", "mdia", "mdhd", "stbl", "stsd", "stco", "co64", "stss", "mdat",
                "avc1", "hvc1", "\u{1A}\u{45}\u{DF}\u{A3}", "webm", "RIFF", "AVI ", "\u{47}", "\0\0\0\u{01}",
            ]
        case .configuration:
            ["roots:", "workers:", "memory_limit:", "thumbnails:", "fit:", "square:", "exclude:", "\n  - "]
        case .controlRequest:
            ["{\"command\":", "\"status\"", "\"rescan\"", "\"roots\":", "\"full\":", "\"wait\":", "true"]
        case .s3Listing:
            [
                "<ListBucketResult>", "<Contents>", "</Contents>", "<Key>", "</Key>", "<Size>", "</Size>",
                "<LastModified>", "</LastModified>", "<IsTruncated>true</IsTruncated>", "&amp;", "&lt;",
            ]
        case .s3Credentials: ["[default]", "aws_access_key_id", "aws_secret_access_key", "aws_session_token", " = "]
        case .databaseURL: ["postgres://", "postgresql://", "@", ":5432", "?host=/", "&port=", "%2F", "[::1]"]
        case .fileRecord:
            [
                "\"status\":\"ok\"", "\"facts\":", "\"renditions\":", "\"entries\":", "\"object\":", "../",
                "\"failure\":", "\"format\":\"jpeg\"", "\"spec\":", "\"thumbhash\":", "\"detailHash\":",
            ]
        }
    }

    /// Which seed files of the shared corpus suit the target, by extension (empty: any file).
    var seedExtensions: Set<String> {
        switch self {
        case .metadata: []
        case .jpeg: ["jpg", "jpeg"]
        case .exif: ["dng", "cr2", "nef", "arw", "tif", "tiff"]
        case .png, .pngText: ["png"]
        case .webp: ["webp"]
        case .heif, .boxes: ["heic", "heif", "hif", "avif"]
        case .raw: ["cr2", "cr3", "nef", "arw", "dng", "orf", "rw2", "raf", "pef", "srw", "crw"]
        case .jxl, .jxlContainer: ["jxl"]
        case .xmp: ["xmp"]
        case .video: ["mp4", "mov", "m4v", "3gp", "mkv", "webm", "avi", "mts", "m2ts", "ts", "mpg", "wmv"]
        case .configuration: ["yaml", "yml"]
        case .controlRequest: ["txt"]
        case .s3Listing: ["xml"]
        case .s3Credentials: ["ini"]
        case .databaseURL: ["url"]
        case .fileRecord: ["json"]
        }
    }

    func run(_ bytes: [UInt8]) {
        let path = FilePath("fuzz-input")
        let mtime = FileTime(seconds: 0, nanoseconds: 0)
        switch self {
        case .metadata:
            guard let metadata = try? MetadataReader.read(contents: bytes, path: path, mtime: mtime) else { return }
            check(metadata.width > 0 && metadata.height > 0, "a photo read without a size")
            check((1...8).contains(metadata.orientation), "orientation \(metadata.orientation)")
            if let motion = metadata.motion {
                check(
                    motion.offset >= 0 && motion.length > 0 && motion.length <= Int64(bytes.count) - motion.offset,
                    "a motion photo's video outside the file")
            }
        case .jpeg:
            guard let header = withReader(bytes, { reader throws(PhotoError) in try JPEGHeader.read(reader) }) else {
                return
            }
            check(header.width > 0 && header.height > 0, "a JPEG read without a size")
        case .png:
            guard let header = withReader(bytes, { reader throws(PhotoError) in try PNGHeader.read(reader) }) else {
                return
            }
            check(header.width > 0 && header.height > 0, "a PNG read without a size")
        case .webp:
            guard let header = withReader(bytes, { reader throws(PhotoError) in try WebPHeader.read(reader) }) else {
                return
            }
            check(header.width > 0 && header.height > 0, "a WebP read without a size")
        case .heif:
            guard let header = withReader(bytes, { reader throws(PhotoError) in try HEIFHeader.read(reader) }) else {
                return
            }
            check(header.width > 0 && header.height > 0, "a HEIF read without a size")
        case .raw:
            guard let header = withReader(bytes, { reader throws(PhotoError) in try RAWHeader.read(reader) }) else {
                return
            }
            for preview in header.previews {
                check(
                    preview.offset >= 0 && preview.length > 0
                        && Int64(preview.length) <= Int64(bytes.count) - preview.offset,
                    "a preview outside the file")
            }
        case .jxl:
            _ = withReader(bytes) { reader throws(PhotoError) in try JXLHeader.read(reader) }
        case .jxlContainer:
            guard
                let container = try? FileReader.withBytes(
                    bytes, path: path, mtime: mtime,
                    { reader throws(JXLError) in
                        try JXLContainer.read(reader)
                    })
            else { return }
            for part in container.codestream {
                check(
                    part.lowerBound >= 0 && part.lowerBound <= part.upperBound && part.upperBound <= Int64(bytes.count),
                    "a codestream part outside the file")
            }
        case .exif:
            _ = ExifReader.read(tiff: bytes)
            _ = ExifReader.read(tiff: bytes, asExifIFD: true)
        case .xmp:
            _ = XMPReader.read(packet: bytes)
        case .boxes:
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
        case .pngText:
            guard let rewritten = PNGText.replacing([("Thumb::URI", "file:///fuzz"), ("Thumb::MTime", "0")], in: bytes)
            else { return }
            check(
                PNGText.replacing([("Thumb::URI", "file:///fuzz"), ("Thumb::MTime", "0")], in: rewritten) == rewritten,
                "rewriting a rewritten thumbnail changed it")
        case .configuration:
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            var configuration = Configuration(environment: ["HOME": "/home/fuzz"])
            try? configuration.apply(yaml: text, file: FilePath("/etc/tessera.yaml"), home: "/home/fuzz")
        case .video:
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
        case .controlRequest:
            // The client's bytes in the chunks the first byte says, as the socket may deliver them.
            let stride = Int(bytes.first ?? 1) % 64 + 1
            var reader = ControlRequestLine()
            for start in Swift.stride(from: 1, to: bytes.count, by: stride) {
                switch reader.append(bytes[start..<min(start + stride, bytes.count)]) {
                case .incomplete, .tooLong: continue
                case .line(let line):
                    check(
                        line.count <= ControlRequest.maximumLength && !line.contains(UInt8(ascii: "\n")),
                        "a request line of \(line.count) bytes")
                    _ = try? ControlRequest.parse(line).requestedRoots()
                }
            }
        case .s3Listing:
            guard let page = try? ListingPage(xml: bytes, prefix: "library/") else { return }
            // Each entry is a `<Contents>` element of its own.
            check(page.entries.count * 10 <= bytes.count, "\(page.entries.count) objects in \(bytes.count) bytes")
        case .s3Credentials:
            let text = String(decoding: bytes, as: UTF8.self)
            guard let found = try? ObjectStoreCredentials.read(text, profile: "default", of: path) else { return }
            check(
                !found.accessKeyID.isEmpty && !found.secretAccessKey.isEmpty
                    && !(found.accessKeyID + found.secretAccessKey).contains(where: \.isNewline),
                "credentials read as \(found.accessKeyID.debugDescription)")
        case .databaseURL:
            guard let text = String(validating: bytes, as: UTF8.self),
                let address = try? DatabaseAddress(url: text, environment: ["USER": "fuzz"])
            else { return }
            switch address.place {
            case .tcp(let host, let port): check(!host.isEmpty && (1...65535).contains(port), "\(host):\(port)")
            case .socket(let socket): check(socket.hasPrefix("/"), "socket \(socket)")
            }
        case .fileRecord:
            guard let record = try? FileRecord.read(bytes) else { return }
            guard case .photo(_, _, let made) = record.content(cacheRoot: FilePath("/cache")) else { return }
            for rendition in made.renditions {
                check(
                    rendition.path.hasPrefix("/cache/") && !rendition.path.split(separator: "/").contains(".."),
                    "a rendition at \(rendition.path)")
            }
        }
    }

    private func withReader<Header>(
        _ bytes: [UInt8], _ body: (borrowing FileReader) throws(PhotoError) -> Header
    ) -> Header? {
        try? FileReader.withBytes(
            bytes, path: FilePath("fuzz-input"), mtime: FileTime(seconds: 0, nanoseconds: 0), body)
    }

    private func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        guard condition else {
            fatalError("\(rawValue): \(what())")  // invariant: a fuzz target traps, so libFuzzer keeps the input
        }
    }
}
