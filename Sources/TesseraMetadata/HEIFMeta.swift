import TesseraFacts
import TesseraSystem

/// The boxes inside `meta`, parsed.
struct HEIFMeta {
    var primary: UInt32?
    var items: [UInt32: String] = [:]
    /// The content type of each `mime` item.
    var contentTypes: [UInt32: String] = [:]
    var locations: [UInt32: (offset: Int64, length: Int)] = [:]
    var references: [String: [(from: UInt32, to: [UInt32])]] = [:]
    var propertyList: [HEIFHeader.Property] = []
    var associations: [UInt32: [Int]] = [:]

    /// Whether `item` is an alpha plane (its `auxC` type), not a depth or gain map.
    func isAlpha(_ item: UInt32) -> Bool {
        properties(of: item).contains {
            if case .auxiliaryType(let type) = $0 {
                type.hasSuffix(":alpha") || type.hasSuffix("auxid:1")
            } else {
                false
            }
        }
    }

    func properties(of item: UInt32) -> [HEIFHeader.Property] {
        (associations[item] ?? []).compactMap { index in
            index >= 1 && index <= propertyList.count ? propertyList[index - 1] : nil
        }
    }

    init(_ body: ArraySlice<UInt8>) throws(PhotoError) {
        for box in try HEIFBox.children(of: body) {
            switch box.type {
            case "pitm":
                var reader = HEIFByteReader(box.body)
                let version = try reader.fullBoxVersion()
                primary = try version == 0 ? UInt32(reader.uint(2)) : reader.uint(4)
            case "iinf":
                var reader = HEIFByteReader(box.body)
                let version = try reader.fullBoxVersion()
                _ = try reader.uint(version == 0 ? 2 : 4)
                for entry in try HEIFBox.children(of: reader.rest) where entry.type == "infe" {
                    var infe = HEIFByteReader(entry.body)
                    let infeVersion = try infe.fullBoxVersion()
                    guard infeVersion >= 2 else { continue }
                    let id = try infe.uint(infeVersion == 2 ? 2 : 4)
                    _ = try infe.uint(2)
                    let type = try infe.fourCC()
                    items[id] = type
                    if type == "mime" {
                        // item_name, then content_type: both NUL-terminated.
                        let fields = infe.rest.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                        if fields.count >= 2 { contentTypes[id] = String(decoding: fields[1], as: UTF8.self) }
                    }
                }
            case "iloc":
                try parseLocations(box.body)
            case "iref":
                var reader = HEIFByteReader(box.body)
                let width = try reader.fullBoxVersion() == 0 ? 2 : 4
                for reference in try HEIFBox.children(of: reader.rest) {
                    var ref = HEIFByteReader(reference.body)
                    let from = try ref.uint(width)
                    let count = try ref.uint(2)
                    var to: [UInt32] = []
                    for _ in 0..<count { to.append(try ref.uint(width)) }
                    references[reference.type, default: []].append((from, to))
                }
            case "iprp":
                for child in try HEIFBox.children(of: box.body) {
                    if child.type == "ipco" {
                        propertyList = try HEIFBox.children(of: child.body).map(Self.property)
                    } else if child.type == "ipma" {
                        try parseAssociations(child.body)
                    }
                }
            default:
                break
            }
        }
    }

    static func property(_ box: HEIFBox) throws(PhotoError) -> HEIFHeader.Property {
        var reader = HEIFByteReader(box.body)
        switch box.type {
        case "ispe":
            _ = try reader.fullBoxVersion()
            return .size(Int(try reader.uint(4)), Int(try reader.uint(4)))
        case "irot":
            return .rotation(Int(try reader.uint(1) & 3))
        case "imir":
            return .mirror(Int(try reader.uint(1) & 1))
        case "colr":
            switch try reader.fourCC() {
            case "nclx": return .nclx(Int(try reader.uint(2)), Int(try reader.uint(2)), Int(try reader.uint(2)))
            case "prof", "rICC": return .icc(Array(reader.rest))
            default: return .other
            }
        case "clap":
            // Widths and heights are unsigned, offsets signed; every denominator unsigned.
            var fractions: [(Int64, Int64)] = []
            for index in 0..<4 {
                let numerator = try reader.uint(4), denominator = try reader.uint(4)
                fractions.append(
                    (index < 2 ? Int64(numerator) : Int64(Int32(bitPattern: numerator)), Int64(denominator)))
            }
            return .cleanAperture(fractions)
        case "pixi":
            _ = try reader.fullBoxVersion()
            let channels = try reader.uint(1)
            return channels > 0 ? .bitDepth(Int(try reader.uint(1))) : .other
        case "auxC":
            _ = try reader.fullBoxVersion()
            return .auxiliaryType(String(decoding: reader.rest.prefix { $0 != 0 }, as: UTF8.self))
        case "hvcC":
            return CodedFrameSize.hevc(box.body).map { .codedSize($0.width, $0.height) } ?? .other
        case "av1C":
            return CodedFrameSize.av1(box.body).map { .codedSize($0.width, $0.height) } ?? .other
        default:
            return .other
        }
    }

    mutating func parseLocations(_ body: ArraySlice<UInt8>) throws(PhotoError) {
        var reader = HEIFByteReader(body)
        let version = try reader.fullBoxVersion()
        let sizes = try reader.uint(1), more = try reader.uint(1)
        let (offsetSize, lengthSize) = (Int(sizes >> 4), Int(sizes & 0xF))
        let (baseSize, indexSize) = (Int(more >> 4), version >= 1 ? Int(more & 0xF) : 0)
        let count = try reader.uint(version < 2 ? 2 : 4)
        for _ in 0..<count {
            let id = try reader.uint(version < 2 ? 2 : 4)
            var method: UInt32 = 0
            if version >= 1 { method = try reader.uint(2) & 0xF }
            _ = try reader.uint(2)  // data reference index
            let base = try reader.wide(baseSize)
            let extents = try reader.uint(2)
            var first: (Int64, Int)?
            for _ in 0..<extents {
                if indexSize > 0 { _ = try reader.wide(indexSize) }
                let offset = try reader.wide(offsetSize), length = try reader.wide(lengthSize)
                if first == nil { first = (Int64(clamping: base &+ offset), Int(clamping: length)) }
            }
            // Only items stored as one extent in the file itself are read here.
            if method == 0, extents == 1, let first { locations[id] = first }
        }
    }

    mutating func parseAssociations(_ body: ArraySlice<UInt8>) throws(PhotoError) {
        var reader = HEIFByteReader(body)
        let version = try reader.fullBoxVersion()
        let flags = reader.lastFlags
        let count = try reader.uint(4)
        for _ in 0..<count {
            let item = try reader.uint(version < 1 ? 2 : 4)
            let associations = try reader.uint(1)
            var indices: [Int] = []
            for _ in 0..<associations {
                indices.append(flags & 1 != 0 ? Int(try reader.uint(2) & 0x7FFF) : Int(try reader.uint(1) & 0x7F))
            }
            self.associations[item] = indices
        }
    }
}

/// One box: its type and body.
struct HEIFBox {
    var type: String
    var body: ArraySlice<UInt8>

    /// The boxes that fill `data`, all of them whole.
    static func children(of data: ArraySlice<UInt8>) throws(PhotoError) -> [HEIFBox] {
        let list = ISOBox.list(in: data)
        switch list.stop {
        case nil, .cutShort: break  // fewer than 8 bytes left over: padding
        case .impossibleSize, .overruns: throw PhotoError(.corrupt, "box overruns its parent")
        case .tooMany, .refused: throw PhotoError(.unsupported, "more than \(ISOBox.maxBoxes) boxes in one")
        }
        return list.boxes.map { HEIFBox(type: $0.type, body: $0.body(in: data)) }
    }
}

/// Big-endian fields read in order from a box body, bounds-checked.
struct HEIFByteReader {
    var data: ArraySlice<UInt8>
    var lastFlags: UInt32 = 0

    init(_ data: ArraySlice<UInt8>) { self.data = data }

    var rest: ArraySlice<UInt8> { data }

    mutating func uint(_ width: Int) throws(PhotoError) -> UInt32 {
        guard data.count >= width else { throw PhotoError(.corrupt, "HEIF box cut short") }
        let value = data.bigEndian(width)
        data = data.dropFirst(width)
        return value
    }

    /// A field of 0, 4 or 8 bytes (iloc's sizes).
    mutating func wide(_ width: Int) throws(PhotoError) -> UInt64 {
        switch width {
        case 0: return 0
        case 4: return UInt64(try uint(4))
        case 8: return UInt64(try uint(4)) << 32 | UInt64(try uint(4))
        default: throw PhotoError(.corrupt, "iloc field of \(width) bytes")
        }
    }

    mutating func fullBoxVersion() throws(PhotoError) -> Int {
        let word = try uint(4)
        lastFlags = word & 0xFF_FFFF
        return Int(word >> 24)
    }

    mutating func fourCC() throws(PhotoError) -> String {
        guard data.count >= 4 else { throw PhotoError(.corrupt, "HEIF box cut short") }
        defer { data = data.dropFirst(4) }
        return String(decoding: data.prefix(4), as: UTF8.self)
    }
}
