public import TesseraFacts
public import TesseraMetadata

/// Writes a minimal EXIF TIFF structure: the tags Tessera reads, nothing more.
///
/// Used to make sample libraries and test fixtures whose metadata is known
/// exactly. Entries follow TIFF 6.0 §2 (sorted tags, 12-byte entries,
/// values over four bytes placed after the IFD), in either byte order.
public struct ExifBuilder: Sendable {
    public var bigEndian = false
    public var orientation: Int?
    public var make: String?
    public var model: String?
    /// IFD0 DateTime and its SubSecTime / OffsetTime.
    public var dateTime: ExifFields.DateTag?
    public var dateTimeOriginal: ExifFields.DateTag?
    public var dateTimeDigitized: ExifFields.DateTag?
    public var gps: GPSPosition?
    /// A Canon maker note's LensModel (tag 0x0095, 64 bytes as Canon writes it).
    public var canonLensModel: String?
    /// A Canon maker note's CameraSettings (tag 0x0001) with this lens: what older bodies record.
    public var canonLens: CanonLens?
    /// IFD0's ImageWidth and ImageLength: a RAW's (a CR2's IFD0 describes its preview so).
    public var imageSize: (width: UInt32, height: UInt32)?

    /// The lens as Canon's CameraSettings records it: a lens type number and the focal range, in mm.
    public struct CanonLens: Sendable {
        public var type: UInt16
        public var shortest: UInt16
        public var longest: UInt16

        public init(type: UInt16, shortest: UInt16, longest: UInt16) {
            self.type = type
            self.shortest = shortest
            self.longest = longest
        }
    }

    public init() {}

    private enum Value {
        case ascii(String)
        case short(UInt16)
        case long(UInt32)
        case byte(UInt8)
        case shorts([UInt16])
        case rationals([(UInt32, UInt32)])
        /// UNDEFINED bytes made knowing where in the TIFF structure they land.
        case placed((Int) -> [UInt8])
    }

    private typealias Entry = (tag: UInt16, value: Value)

    /// The TIFF bytes (what follows `Exif\0\0` in a JPEG APP1 segment, or fills a PNG eXIf chunk).
    public func tiff() -> [UInt8] {
        var ifd0: [Entry] = []
        if let imageSize { ifd0 += [(0x0100, .long(imageSize.width)), (0x0101, .long(imageSize.height))] }
        if let make { ifd0.append((0x010F, .ascii(make))) }
        if let model { ifd0.append((0x0110, .ascii(model))) }
        if let orientation { ifd0.append((0x0112, .short(UInt16(clamping: orientation)))) }
        if let dateTime { ifd0.append((0x0132, .ascii(dateTime.dateTime))) }
        var exif: [Entry] = []
        for (tag, date, offsetTag, subSecTag) in [
            (UInt16(0x9003), dateTimeOriginal, UInt16(0x9011), UInt16(0x9291)),
            (0x9004, dateTimeDigitized, 0x9012, 0x9292),
            (0, dateTime, 0x9010, 0x9290),
        ] {
            guard let date else { continue }
            if tag != 0 { exif.append((tag, .ascii(date.dateTime))) }
            if let offset = date.offset { exif.append((offsetTag, .ascii(offset))) }
            if let subSeconds = date.subSeconds { exif.append((subSecTag, .ascii(subSeconds))) }
        }
        if canonLensModel != nil || canonLens != nil {
            exif.append((0x927C, .placed { start in canonMakerNote(at: start) }))
        }
        var gpsEntries: [Entry] = []
        if let gps {
            func dms(_ value: Double) -> Value {
                let degrees = abs(value)
                let whole = degrees.rounded(.down)
                let minutes = ((degrees - whole) * 60).rounded(.down)
                let seconds = ((degrees - whole) * 60 - minutes) * 60
                return .rationals([
                    (UInt32(whole), 1), (UInt32(minutes), 1), (UInt32((seconds * 10_000).rounded()), 10_000),
                ])
            }
            gpsEntries = [
                (0x0001, .ascii(gps.latitude < 0 ? "S" : "N")), (0x0002, dms(gps.latitude)),
                (0x0003, .ascii(gps.longitude < 0 ? "W" : "E")), (0x0004, dms(gps.longitude)),
            ]
            if let altitude = gps.altitude {
                gpsEntries.append((0x0005, .byte(altitude < 0 ? 1 : 0)))
                gpsEntries.append((0x0006, .rationals([(UInt32((abs(altitude) * 100).rounded()), 100)])))
            }
        }

        // Layout: header, IFD0, IFD0 data, Exif IFD, its data, GPS IFD, its data.
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        append32(8, to: &out)
        let pointerTags: [(UInt16, [Entry])] = [(0x8769, exif), (0x8825, gpsEntries)].filter { !$0.1.isEmpty }
        var ifd0WithPointers = ifd0 + pointerTags.map { ($0.0, Value.long(0)) }
        ifd0WithPointers.sort { $0.tag < $1.tag }
        var pointerSlots: [UInt16: Int] = [:]
        writeIFD(ifd0WithPointers, into: &out, pointerSlots: &pointerSlots)
        for (tag, entries) in pointerTags {
            let start = UInt32(out.count)
            if let slot = pointerSlots[tag] { patch32(start, at: slot, in: &out) }
            var ignored: [UInt16: Int] = [:]
            writeIFD(entries.sorted { $0.tag < $1.tag }, into: &out, pointerSlots: &ignored)
        }
        return out
    }

    private func writeIFD(_ entries: [Entry], into out: inout [UInt8], pointerSlots: inout [UInt16: Int]) {
        let start = out.count
        let dataStart = start + 2 + entries.count * 12 + 4
        var data: [UInt8] = []
        append16(UInt16(entries.count), to: &out)
        for (tag, value) in entries {
            append16(tag, to: &out)
            let (type, count, bytes): (UInt16, Int, [UInt8]) =
                switch value {
                case .ascii(let text): (2, text.utf8.count + 1, Array(text.utf8) + [0])
                case .short(let v): (3, 1, encode16(v))
                case .long(let v): (4, 1, encode32(v))
                case .byte(let v): (1, 1, [v])
                case .shorts(let list): (3, list.count, list.flatMap(encode16))
                case .rationals(let list): (5, list.count, list.flatMap { encode32($0.0) + encode32($0.1) })
                case .placed(let build): (7, build(dataStart + data.count).count, build(dataStart + data.count))
                }
            append16(type, to: &out)
            append32(UInt32(count), to: &out)
            if case .long = value, tag == 0x8769 || tag == 0x8825 { pointerSlots[tag] = out.count }
            if bytes.count <= 4 {
                out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                append32(UInt32(dataStart + data.count), to: &out)
                data += bytes
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        append32(0, to: &out)  // no next IFD
        out += data
    }

    /// A Canon maker note at offset `start` of the TIFF structure: an IFD whose value offsets
    /// count from the TIFF header, as Canon's do.
    private func canonMakerNote(at start: Int) -> [UInt8] {
        var entries: [Entry] = []
        if let canonLens {
            // CameraSettings: 22 lens type, 23 longest and 24 shortest focal length, 25 their unit.
            var settings = [UInt16](repeating: 0, count: 46)
            settings[0] = 92  // its own size in bytes, as Canon writes it
            (settings[22], settings[23], settings[24], settings[25]) = (
                canonLens.type, canonLens.longest, canonLens.shortest, 1
            )
            entries.append((0x0001, .shorts(settings)))
        }
        if let canonLensModel {
            let text = Array(canonLensModel.utf8.prefix(63))
            entries.append(
                (0x0095, .ascii(String(decoding: text + [UInt8](repeating: 0, count: 63 - text.count), as: UTF8.self))))
        }
        // Written in place, so that its offsets come out counted from the TIFF header.
        var note = [UInt8](repeating: 0, count: start)
        var ignored: [UInt16: Int] = [:]
        writeIFD(entries, into: &note, pointerSlots: &ignored)
        return Array(note[start...])
    }

    private func encode16(_ v: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
    }

    private func encode32(_ v: UInt32) -> [UInt8] {
        let bytes = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    private func append16(_ v: UInt16, to out: inout [UInt8]) { out += encode16(v) }
    private func append32(_ v: UInt32, to out: inout [UInt8]) { out += encode32(v) }
    private func patch32(_ v: UInt32, at index: Int, in out: inout [UInt8]) {
        out.replaceSubrange(index..<index + 4, with: encode32(v))
    }
}
