public import TesseraFacts
public import TesseraSystem

/// What a PNG's chunks say: IHDR, and the metadata chunks before and after the image data.
///
/// Chunks are walked by their length fields; IDAT payloads are skipped,
/// never read. See the PNG specification (third edition), §5 and §11.
public struct PNGHeader: Sendable, Equatable {
    /// The eight-byte PNG signature.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The IHDR colour type.
    public enum ColorType: UInt8, Sendable, Codable {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6

        var name: String {
            switch self {
            case .gray: "gray"
            case .rgb: "rgb"
            case .palette: "palette"
            case .grayAlpha: "gray+alpha"
            case .rgba: "rgba"
            }
        }

        /// Bit depths IHDR may pair with this colour type (Table 11.1).
        var allowedDepths: Set<UInt8> {
            switch self {
            case .gray: [1, 2, 4, 8, 16]
            case .palette: [1, 2, 4, 8]
            case .rgb, .grayAlpha, .rgba: [8, 16]
            }
        }
    }

    /// A tIME chunk: the image's last modification, in UTC.
    public struct Time: Sendable, Equatable {
        public var year, month, day, hour, minute, second: Int

        public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
                year, month, day, hour, minute, second
            )
        }
    }

    public var width: Int
    public var height: Int
    public var bitDepth: Int
    public var colorType: ColorType
    public var interlaced: Bool
    /// The TIFF structure from an `eXIf` chunk or a "Raw profile type exif" text chunk.
    public var exif: [UInt8]?
    /// The XMP packet of an `iTXt` chunk with the keyword `XML:com.adobe.xmp`.
    public var xmp: [UInt8]?
    public var time: Time?
    /// The text of a "Creation Time" text chunk.
    public var creationTime: String?
    /// Whether at least one IDAT chunk was seen before IEND.
    public var hasImageData: Bool
    /// Whether an iCCP chunk (an embedded ICC profile) precedes the image data.
    public var hasICCProfile = false
    public var warnings: [String] = []

    /// Ceiling for a chunk whose payload is read into memory (metadata chunks only).
    private static let maxMetadataChunk = 4 * 1024 * 1024
    /// Ceiling for one inflated text chunk.
    private static let maxInflatedText = 4 * 1024 * 1024

    public static func read(_ bytes: borrowing FileReader) throws(PhotoError) -> PNGHeader {
        let head = try bytes.photoBytes(at: 0, count: 8, what: "the PNG signature")
        guard head.elementsEqual(signature) else {
            if head.prefix(4).elementsEqual(signature.prefix(4)) {
                throw PhotoError(.corrupt, "PNG signature damaged (file corrupted by a text-mode transfer)")
            }
            throw PhotoError(.notAnImage, "not a PNG file")
        }
        var offset: Int64 = 8
        var header: PNGHeader?
        var sawImageData = false
        var warnings: [String] = []

        while offset < bytes.size {
            let chunkHead = try bytes.photoBytes(at: offset, count: 8, what: "a chunk header")
            let length = Int(chunkHead.bigEndian(4))
            let type = String(decoding: chunkHead.dropFirst(4), as: UTF8.self)
            guard length <= Int(Int32.max), chunkHead.dropFirst(4).allSatisfy(Self.isChunkLetter) else {
                throw PhotoError(.corrupt, "malformed chunk header at byte \(offset)")
            }
            let dataOffset = offset + 8
            let next = dataOffset + Int64(length) + 4
            if header == nil && type != "IHDR" {
                throw PhotoError(.corrupt, "first chunk is \(type), not IHDR")
            }

            switch type {
            case "IHDR":
                guard header == nil else {
                    throw PhotoError(.corrupt, "a second IHDR chunk")
                }
                guard length == 13 else { throw PhotoError(.corrupt, "IHDR has length \(length), not 13") }
                let data = try bytes.photoBytes(at: dataOffset, count: 13 + 4, what: "the IHDR chunk")
                let body = data.prefix(13)
                guard Inflate.crc32(chunkHead.dropFirst(4) + body) == data.dropFirst(13).bigEndian(4) else {
                    throw PhotoError(.corrupt, "IHDR: CRC error")
                }
                header = try ihdr(body)
            case "IDAT":
                sawImageData = true
            case "iCCP" where !sawImageData:
                header?.hasICCProfile = true
            case "IEND":
                offset = bytes.size
                continue
            case "eXIf", "tIME", "tEXt", "zTXt", "iTXt":
                guard length <= maxMetadataChunk else {
                    warnings.append("\(type) chunk of \(length) bytes ignored (too large)")
                    break
                }
                let data = try bytes.photoBytes(at: dataOffset, count: length + 4, what: "the \(type) chunk")
                let body = data.prefix(length)
                guard Inflate.crc32(chunkHead.dropFirst(4) + body) == data.suffix(4).bigEndian(4) else {
                    warnings.append("\(type): CRC error, chunk ignored")
                    break
                }
                // invariant: IHDR was checked first above.
                guard var current = header else { break }
                current.absorb(type: type, body: body)
                header = current
            default:
                break
            }
            offset = next
        }
        guard var result = header else {
            throw PhotoError(.truncated, "file ends before IHDR")
        }
        result.hasImageData = sawImageData
        if !sawImageData {
            result.warnings.append("no IDAT chunk: the file holds no image data")
        }
        result.warnings.insert(contentsOf: warnings, at: 0)
        return result
    }

    private static func isChunkLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func ihdr(_ body: ArraySlice<UInt8>) throws(PhotoError) -> PNGHeader {
        let width = Int(body.bigEndian(4))
        let height = Int(body.bigEndian(4, at: 4))
        let depth = body[body.startIndex + 8]
        let colorByte = body[body.startIndex + 9]
        let interlace = body[body.startIndex + 12]
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw PhotoError(.corrupt, "IHDR declares an impossible size \(width)×\(height)")
        }
        guard let color = ColorType(rawValue: colorByte), color.allowedDepths.contains(depth) else {
            throw PhotoError(.corrupt, "IHDR: invalid colour type \(colorByte) with bit depth \(depth)")
        }
        guard interlace <= 1 else {
            throw PhotoError(.corrupt, "IHDR: unknown interlace method \(interlace)")
        }
        return PNGHeader(
            width: width, height: height, bitDepth: Int(depth), colorType: color,
            interlaced: interlace == 1, exif: nil, time: nil, creationTime: nil, hasImageData: false)
    }

    /// Takes what Tessera uses from one metadata chunk whose CRC has been checked.
    private mutating func absorb(type: String, body: ArraySlice<UInt8>) {
        switch type {
        case "eXIf":
            guard exif == nil else { return }
            var tiff = body
            if tiff.starts(with: ExifReader.exifPrefix) { tiff = tiff.dropFirst(6) }
            exif = Array(tiff)
        case "tIME":
            guard body.count == 7 else {
                warnings.append("tIME chunk has length \(body.count), not 7; ignored")
                return
            }
            let b = Array(body)
            time = Time(
                year: Int(body.bigEndian(2)), month: Int(b[2]), day: Int(b[3]),
                hour: Int(b[4]), minute: Int(b[5]), second: Int(b[6]))
        default:
            guard let (keyword, text) = Self.text(type: type, body: body) else {
                warnings.append("\(type) chunk could not be read; ignored")
                return
            }
            switch keyword {
            case "XML:com.adobe.xmp":
                if xmp == nil { xmp = text }
            case "Creation Time":
                creationTime = String(decoding: text, as: UTF8.self)
            case "Raw profile type exif", "Raw profile type APP1":
                guard exif == nil else { return }
                if var tiff = Self.rawProfile(text) {
                    if tiff.starts(with: ExifReader.exifPrefix) { tiff.removeFirst(6) }
                    exif = tiff
                } else {
                    warnings.append("\"\(keyword)\" text chunk is not a valid raw profile; ignored")
                }
            default:
                break
            }
        }
    }

    /// The keyword and the (inflated) text of a tEXt, zTXt or iTXt chunk.
    private static func text(type: String, body: ArraySlice<UInt8>) -> (String, [UInt8])? {
        guard let nul = body.firstIndex(of: 0) else { return nil }
        let keyword = String(decoding: body[..<nul], as: UTF8.self)
        var rest = body[(nul + 1)...]
        switch type {
        case "tEXt":
            // Latin-1 text; the keywords we read carry ASCII.
            return (keyword, Array(rest))
        case "zTXt":
            guard rest.first == 0, let inflated = Inflate.zlib(rest.dropFirst(), limit: maxInflatedText) else {
                return nil
            }
            return (keyword, inflated)
        default:  // iTXt
            guard rest.count >= 2 else { return nil }
            let compressed = rest[rest.startIndex] == 1
            rest = rest.dropFirst(2)
            guard let langEnd = rest.firstIndex(of: 0) else { return nil }
            rest = rest[(langEnd + 1)...]
            guard let translatedEnd = rest.firstIndex(of: 0) else { return nil }
            rest = rest[(translatedEnd + 1)...]
            if compressed {
                guard let inflated = Inflate.zlib(rest, limit: maxInflatedText) else { return nil }
                return (keyword, inflated)
            }
            return (keyword, Array(rest))
        }
    }

    /// The bytes of an ImageMagick-style raw profile: a name line, a length, then hex digits.
    static func rawProfile(_ text: [UInt8]) -> [UInt8]? {
        var index = text.startIndex
        func skipSpace() { while index < text.endIndex, text[index] <= 0x20 { index += 1 } }
        skipSpace()
        while index < text.endIndex, text[index] > 0x20 { index += 1 }  // profile name
        skipSpace()
        var declared = 0
        while index < text.endIndex, let digit = decimal(text[index]) {
            declared = declared * 10 + digit
            guard declared <= maxInflatedText else { return nil }
            index += 1
        }
        guard declared > 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(declared)
        var high: UInt8?
        while index < text.endIndex, bytes.count < declared {
            let character = text[index]
            index += 1
            if character <= 0x20 { continue }
            guard let nibble = hexDigit(character) else { return nil }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes.count == declared ? bytes : nil
    }

    private static func decimal(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

extension PNGHeader {
    /// A short description of the coding, such as "rgba 8-bit interlaced".
    public var coding: String {
        "\(colorType.name) \(bitDepth)-bit" + (interlaced ? " interlaced" : "")
    }
}

extension PNGHeader {
    /// One PNG chunk: length, type, data and CRC (PNG §5.3), for writing metadata into files.
    public static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let length = UInt32(data.count)
        let crc = Inflate.crc32(typeBytes + data)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + typeBytes + data + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}

extension PNGHeader: PhotoHeader {
    public static let formats: Set<ImageFormat> = [.png]

    /// The full eight-byte signature, so a file mangled by a text-mode transfer is not taken for one.
    public static func identify(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.starts(with: signature) ? .png : nil
    }
    public var storedSize: (width: Int, height: Int, bitDepth: Int) { (width, height, bitDepth) }
    public func coding(as format: ImageFormat) -> String { coding }
    public var sizeRule: String { "PNG IHDR chunk" }
    public var exifTIFF: [UInt8]? { exif }
    public var xmpPacket: [UInt8]? { xmp }
    public var readWarnings: [String] { warnings }
    public var describesColour: Bool { hasICCProfile }
}
