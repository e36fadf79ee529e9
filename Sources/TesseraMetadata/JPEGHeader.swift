public import TesseraFacts
public import TesseraSystem

/// What a JPEG's markers say before its entropy-coded data: size, coding and metadata segments.
///
/// Read by walking the marker segments from SOI up to the first SOS; the
/// compressed image data is never read. See ITU-T T.81 Annex B for the
/// marker syntax and Table B.1 for the SOF numbering.
public struct JPEGHeader: Sendable, Equatable {
    /// The coding process named by the SOF marker.
    public enum Process: String, Sendable, Codable {
        case baseline
        case extendedSequential = "extended-sequential"
        case progressive
        case lossless
        case hierarchical
        case arithmeticSequential = "arithmetic-sequential"
        case arithmeticProgressive = "arithmetic-progressive"
        case arithmeticLossless = "arithmetic-lossless"
        case arithmeticHierarchical = "arithmetic-hierarchical"

        /// The process for SOF marker `0xC0 + n`, or nil when the marker is not a SOF.
        init?(sofMarker marker: UInt8) {
            switch marker {
            case 0xC0: self = .baseline
            case 0xC1: self = .extendedSequential
            case 0xC2: self = .progressive
            case 0xC3: self = .lossless
            case 0xC5, 0xC6, 0xC7: self = .hierarchical
            case 0xC9: self = .arithmeticSequential
            case 0xCA: self = .arithmeticProgressive
            case 0xCB: self = .arithmeticLossless
            case 0xCD, 0xCE, 0xCF: self = .arithmeticHierarchical
            default: return nil
            }
        }
    }

    public var width: Int
    public var height: Int
    /// Colour components in the frame: 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK.
    public var components: Int
    public var bitsPerSample: Int
    public var process: Process
    /// The TIFF structure of the first `Exif\0\0` APP1 segment, without that prefix.
    public var exif: [UInt8]?
    /// The XMP packet of the first APP1 `http://ns.adobe.com/xap/1.0/` segment, and the
    /// Extended XMP that continues it in APP1 `http://ns.adobe.com/xmp/extension/` chunks
    /// (XMP Specification Part 3, §1.1.3.1), when every chunk arrived.
    public var xmp: [UInt8]?
    public var extendedXMP: [UInt8]?
    /// The colour transform byte of an Adobe APP14 segment, when one is present.
    public var adobeTransform: UInt8?
    /// The embedded ICC profile, reassembled from its APP2 `ICC_PROFILE` chunks (ICC.1 Annex B.4).
    public var iccProfile: [UInt8]?
    /// Smaller JPEGs of the same picture stored in the file (MPF large thumbnails, the EXIF
    /// thumbnail), as the file claims them.
    public var previews: [EmbeddedPreview] = []
    /// Where the primary image ends, when an MPF index lists other images after it.
    public var primaryEnd: Int64?
    /// Recoverable oddities met on the way, one line each.
    public var warnings: [String] = []

    /// Largest span of stray bytes between segments that is skipped with a warning.
    private static let maxGarbageBetweenSegments = 4096
    /// Largest ICC profile read; real ones are a few hundred bytes to a few megabytes.
    static let maxICCProfile = 8 << 20
    static let iccPrefix = Array("ICC_PROFILE".utf8) + [0]
    static let mpfPrefix = Array("MPF".utf8) + [0]
    static let xmpPrefix = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let extendedXMPPrefix = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// Parses the markers of the JPEG that `bytes` starts.
    public static func read(_ bytes: borrowing FileReader) throws(PhotoError) -> JPEGHeader {
        guard try bytes.photoBytes(at: 0, count: 2, what: "the SOI marker").elementsEqual([0xFF, 0xD8]) else {
            throw PhotoError(.notAnImage, "not a JPEG file (no SOI marker)")
        }
        var offset: Int64 = 2
        var segments = Segments()
        while true {
            let marker = try nextMarker(bytes, at: &offset, warnings: &segments.warnings)
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // TEM and RSTn stand alone
            case 0xD8:
                throw PhotoError(.corrupt, "a second SOI marker inside the header")
            case 0xD9:
                throw PhotoError(.corrupt, "EOI before any image data")
            default:
                break
            }
            let length = Int(try bytes.photoBytes(at: offset, count: 2, what: "a segment length").bigEndian(2))
            guard length >= 2 else {
                throw PhotoError(.corrupt, "segment 0x\(hex(marker)) has an impossible length \(length)")
            }
            let payload = (offset: offset + 2, length: length - 2)
            guard payload.offset + Int64(payload.length) <= bytes.size else {
                throw PhotoError(.truncated, "file ends inside segment 0x\(hex(marker))")
            }
            if marker == 0xDA { return try segments.header() }
            try segments.read(marker, at: payload.offset, length: payload.length, in: bytes)
            offset = payload.offset + Int64(payload.length)
        }
    }

    /// The next marker from `offset`: 0xFF, any number of fill 0xFF bytes, then the code; stray
    /// bytes before it are skipped with a warning, up to `maxGarbageBetweenSegments`.
    private static func nextMarker(
        _ bytes: borrowing FileReader, at offset: inout Int64, warnings: inout [String]
    ) throws(PhotoError) -> UInt8 {
        var skipped = 0
        while true {
            let byte = try bytes.photoBytes(at: offset, count: 1, what: "the marker segments")
            offset += 1
            if byte[byte.startIndex] != 0xFF {
                skipped += 1
                if skipped > maxGarbageBetweenSegments {
                    throw PhotoError(.corrupt, "no JPEG marker where one is expected")
                }
                continue
            }
            var code: UInt8 = 0xFF
            while code == 0xFF {
                code = try bytes.photoBytes(at: offset, count: 1, what: "a marker").first ?? 0
                offset += 1
            }
            if code == 0x00 {  // a stuffed 0xFF00 is data, not a marker
                skipped += 2
                continue
            }
            if skipped > 0 { warnings.append("\(skipped) extraneous bytes before marker 0x\(hex(code))") }
            return code
        }
    }

    /// What the segments before the first scan say, as they are read.
    private struct Segments {
        var frame: (width: Int, height: Int, components: Int, bits: Int, process: Process)?
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var extended = ExtendedXMPChunks()
        var adobe: UInt8?
        var icc = ICCChunks()
        var previews: [EmbeddedPreview] = []
        var primaryEnd: Int64?
        var warnings: [String] = []

        /// The header, once the first scan starts.
        mutating func header() throws(PhotoError) -> JPEGHeader {
            guard let frame else { throw PhotoError(.corrupt, "SOS before any SOF marker") }
            if let problem = icc.problem { warnings.append(problem) }
            return JPEGHeader(
                width: frame.width, height: frame.height, components: frame.components,
                bitsPerSample: frame.bits, process: frame.process, exif: exif, xmp: xmp,
                extendedXMP: extended.packet, adobeTransform: adobe, iccProfile: icc.profile, previews: previews,
                primaryEnd: primaryEnd, warnings: warnings)
        }

        /// Reads segment `marker`, whose payload is `length` bytes at `offset`, when it says something.
        mutating func read(
            _ marker: UInt8, at offset: Int64, length: Int, in bytes: borrowing FileReader
        ) throws(PhotoError) {
            if let process = Process(sofMarker: marker) {
                try frame(process, at: offset, length: length, in: bytes)
            } else if marker == 0xE1, length > 6 {
                try app1(at: offset, length: length, in: bytes)
            } else if marker == 0xE2, length > 14 {
                try app2(at: offset, length: length, in: bytes)
            } else if marker == 0xEE, length >= 12 {
                let app14 = try bytes.photoBytes(at: offset, count: 12, what: "an APP14 segment")
                if app14.prefix(5).elementsEqual(Array("Adobe".utf8)) {
                    adobe = app14[app14.startIndex + 11]
                }
            }
        }

        /// A start of frame: size, components, sample depth and process.
        private mutating func frame(
            _ process: Process, at offset: Int64, length: Int, in bytes: borrowing FileReader
        ) throws(PhotoError) {
            guard frame == nil else { return warnings.append("more than one SOF marker; the first is used") }
            guard length >= 6 else { throw PhotoError(.corrupt, "SOF segment too short") }
            let sof = try bytes.photoBytes(at: offset, count: 6, what: "the SOF segment")
            let height = Int(sof.bigEndian(2, at: 1))
            let width = Int(sof.bigEndian(2, at: 3))
            let components = Int(sof[sof.startIndex + 5])
            guard width > 0, components > 0, length >= 6 + 3 * components else {
                throw PhotoError(.corrupt, "SOF declares width \(width) with \(components) components")
            }
            guard height > 0 else {
                throw PhotoError(.unsupported, "height defined by a DNL marker is not supported")
            }
            frame = (width, height, components, Int(sof[sof.startIndex]), process)
        }

        /// APP1: EXIF (and its thumbnail), XMP, or a chunk of Extended XMP.
        private mutating func app1(at offset: Int64, length: Int, in bytes: borrowing FileReader) throws(PhotoError) {
            let head = try bytes.photoBytes(at: offset, count: min(length, 75), what: "an APP1 segment")
            if exif == nil, head.starts(with: ExifReader.exifPrefix) {
                let tiff = Array(try bytes.photoBytes(at: offset + 6, count: length - 6, what: "the EXIF segment"))
                exif = tiff
                EmbeddedPreview.exifThumbnail(tiff, tiffOffset: offset + 6).map { previews.append($0) }
            } else if xmp == nil, head.starts(with: xmpPrefix) {
                let start = xmpPrefix.count
                xmp = Array(
                    try bytes.photoBytes(at: offset + Int64(start), count: length - start, what: "the XMP segment"))
            } else if head.count == 75, head.starts(with: extendedXMPPrefix) {
                // The prefix, a 32-digit GUID, the full length and this chunk's offset, then data.
                let guid = Array(head[head.startIndex + 35..<head.startIndex + 67])
                let data = try bytes.photoBytes(at: offset + 75, count: length - 75, what: "an Extended XMP chunk")
                extended.add(
                    guid: guid, fullLength: Int(head.bigEndian(4, at: 67)), offset: Int(head.bigEndian(4, at: 71)),
                    data: data, fileSize: bytes.size)
            }
        }

        /// APP2: the MPF index (embedded previews) or a chunk of the ICC profile.
        private mutating func app2(at offset: Int64, length: Int, in bytes: borrowing FileReader) throws(PhotoError) {
            let head = try bytes.photoBytes(at: offset, count: 14, what: "an APP2 segment")
            if head.prefix(4).elementsEqual(mpfPrefix) {
                let payload = try bytes.photoBytes(at: offset + 4, count: length - 4, what: "the MPF segment")
                let index = EmbeddedPreview.mpf(payload, payloadOffset: offset + 4)
                previews += index.previews
                primaryEnd = primaryEnd ?? index.primaryEnd
            } else if head.prefix(12).elementsEqual(iccPrefix) {
                let sequence = Int(head[head.startIndex + 12]), count = Int(head[head.startIndex + 13])
                if icc.total + length - 14 > maxICCProfile {
                    icc.tooLarge = true
                } else if !icc.tooLarge {
                    let data = try bytes.photoBytes(at: offset + 14, count: length - 14, what: "an ICC profile chunk")
                    icc.add(sequence: sequence, count: count, data: Array(data))
                }
            }
        }
    }
}

/// Extended XMP arriving in chunks that say where they go in a packet of `fullLength` bytes;
/// the first GUID whose chunks fill its packet is the one kept.
///
/// A packet is never claimed
/// larger than the file that holds its chunks, and a chunk that repeats an offset is ignored.
private struct ExtendedXMPChunks {
    var packets: [[UInt8]: (buffer: [UInt8], offsets: Set<Int>, filled: Int)] = [:]

    mutating func add(guid: [UInt8], fullLength: Int, offset: Int, data: some Collection<UInt8>, fileSize: Int64) {
        guard fullLength > 0, fullLength <= XMPReader.maxLength, Int64(fullLength) <= fileSize, offset <= fullLength,
            data.count <= fullLength - offset, packets[guid] != nil || packets.count < 4
        else { return }
        var entry = packets[guid] ?? ([UInt8](repeating: 0, count: fullLength), [], 0)
        guard entry.buffer.count == fullLength, entry.offsets.insert(offset).inserted else { return }
        entry.buffer.replaceSubrange(offset..<offset + data.count, with: data)
        entry.filled += data.count
        packets[guid] = entry
    }

    var packet: [UInt8]? {
        packets.values.first { $0.filled == $0.buffer.count }?.buffer
    }
}

/// An ICC profile arriving in numbered APP2 chunks (1-based `sequence` of `count`).
private struct ICCChunks {
    var chunks: [Int: [UInt8]] = [:]
    var declared = 0
    var total = 0
    var tooLarge = false
    var inconsistent = false

    mutating func add(sequence: Int, count: Int, data: [UInt8]) {
        if declared == 0 { declared = count }
        // A count of 0 (no chunks at all) is as inconsistent as a sequence past the count.
        guard count > 0, count == declared, (1...count).contains(sequence), chunks[sequence] == nil else {
            inconsistent = true
            return
        }
        chunks[sequence] = data
        total += data.count
    }

    /// The whole profile, when every chunk arrived.
    var profile: [UInt8]? {
        guard !tooLarge, !inconsistent, declared > 0, chunks.count == declared else { return nil }
        return (1...declared).flatMap { chunks[$0] ?? [] }
    }

    var problem: String? {
        if tooLarge { return "ICC profile over \(JPEGHeader.maxICCProfile >> 20) MiB ignored; colours left as stored" }
        if declared > 0 && profile == nil {
            return "ICC profile chunks incomplete or inconsistent; colours left as stored"
        }
        return nil
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}

extension JPEGHeader: PhotoHeader {
    public static let formats: Set<ImageFormat> = [.jpeg]

    /// SOI followed by the first byte of a marker (`FF D8 FF`).
    public static func identify(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.starts(with: [0xFF, 0xD8, 0xFF]) ? .jpeg : nil
    }
    public var storedSize: (width: Int, height: Int, bitDepth: Int) { (width, height, bitsPerSample) }
    public func coding(as format: ImageFormat) -> String { "\(process.rawValue) \(components)ch \(bitsPerSample)-bit" }
    public var sizeRule: String { "JPEG SOF marker" }
    public var exifTIFF: [UInt8]? { exif }
    public var xmpPacket: [UInt8]? { xmp }
    public var readWarnings: [String] { warnings }
    public var describesColour: Bool { iccProfile != nil }
}
