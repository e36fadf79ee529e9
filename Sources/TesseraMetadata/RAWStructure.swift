import TesseraFacts
import TesseraSystem

/// A JPEG preview stored in a RAW file: where it is, and its size from its own SOF.
public struct RAWPreview: Sendable, Equatable {
    public var offset: Int64
    public var length: Int
    public var width: Int
    public var height: Int
}

/// What Tessera reads of a RAW file's own structure, without LibRaw: the previews and the
/// metadata blocks of the TIFF-based formats (NEF, CR2, ARW, DNG, ORF, RW2, PEF…), whose IFDs
/// and SubIFDs (TIFF 6.0, TIFF/EP, DNG 1.6) point at JPEGs; of Canon's CR3, an ISOBMFF
/// file whose `moov/uuid` box holds `CMT1` (IFD0), `CMT2` (the EXIF IFD) and `THMB`, and
/// whose top-level preview `uuid` holds `PRVW`; and of Fujifilm's RAF, whose header points at
/// a JPEG carrying the EXIF.
///
/// Every offset and length is a claim of the file: a preview is listed only when its bytes
/// lie inside the file and start a JPEG whose SOF gives a size; one that runs past the end is
/// remembered as `cutPreview`, so that the error can say so.
struct RAWStructure {
    /// The TIFF structure holding IFD0 (and, for TIFF-based files, everything else).
    var tiff: [UInt8]?
    /// A CR3's EXIF IFD, as its own TIFF structure.
    var exifIFD: [UInt8]?
    var xmp: [UInt8]?
    /// The EXIF of the first preview that has one, as a TIFF structure.
    var previewExif: [UInt8]?
    var previews: [RAWPreview] = []
    /// The first preview found that runs past the end of the file.
    var cutPreview: (offset: Int64, length: Int)?
    /// The full-resolution image's size, when an IFD or the CR3 says it.
    var size: (width: Int, height: Int)?
    /// What the maker note (which `tiff` leaves out) says of the body and lens.
    var makerNote = MakerNoteFacts()

    /// The most IFDs followed in one file, and entries read in one IFD.
    static let maxIFDs = 64
    static let maxEntries = 1000
    /// The largest block of metadata (an IFD0 region, a CMT box) read.
    static let maxMetadata = 4 << 20

    static func read(_ bytes: borrowing FileReader) throws(PhotoError) -> RAWStructure {
        let prefix = bytes.prefix
        if let brands = ISOBox.brands(prefix), brands.first == "crx " {
            return try cr3(bytes)
        }
        var structure = RAWStructure()
        // Fujifilm's RAF: a header whose big-endian words at 84 and 88 give the offset and
        // length of a JPEG holding the preview and the shot's EXIF.
        if prefix.starts(with: Array("FUJIFILMCCD-RAW".utf8)) {
            let head = try bytes.photoBytes(at: 84, count: 8, what: "the RAF header")
            guard head.count == 8 else { throw PhotoError(.truncated, "file ends inside the RAF header") }
            try structure.consider(Int64(head.bigEndian(4)), Int(head.bigEndian(4, at: 4)), in: bytes)
            return structure
        }
        let magic = Array(prefix.prefix(4))
        // ORF ("IIRO", "IIRS", "MMOR") and RW2 ("IIU\0") are TIFF with another magic number.
        let little: Bool
        switch magic {
        case [0x49, 0x49, 0x2A, 0x00], [0x49, 0x49, 0x52, 0x4F], [0x49, 0x49, 0x52, 0x53], [0x49, 0x49, 0x55, 0x00]:
            little = true
        case [0x4D, 0x4D, 0x00, 0x2A], [0x4D, 0x4D, 0x4F, 0x52]:
            little = false
        default:
            return structure
        }
        let head = try bytes.photoBytes(at: 0, count: 8, what: "the TIFF header")
        let walker = IFDWalker(little: little)
        (structure.tiff, structure.xmp, structure.makerNote) = try walker.compact(
            ifd0: Int64(walker.uint32(head, 4)), in: bytes)
        var pending = [Int64(walker.uint32(head, 4))]
        var visited: Set<Int64> = []
        var largest: UInt64 = 0  // pixels: two 32-bit sides can overflow an Int
        while let offset = pending.popLast(), visited.count < maxIFDs {
            guard offset >= 8, offset < bytes.size, visited.insert(offset).inserted,
                let ifd = try walker.entries(at: offset, in: bytes)
            else { continue }
            if let next = ifd.next, next > 0 { pending.append(next) }
            let values = Dictionary(ifd.entries.map { ($0.tag, $0) }, uniquingKeysWith: { first, _ in first })
            // SubIFDs (0x014A) hold the full image and previews in NEF, ARW, DNG and PEF.
            if let sub = values[0x014A] { pending += try walker.longs(sub, in: bytes).map(Int64.init) }
            // JPEGInterchangeFormat and its length; or one JPEG strip (Compression 6 or 7).
            var candidate: (Int64, Int)?
            if let start = values[0x0201], let length = values[0x0202] {
                candidate = (Int64(start.value), Int(length.value))
            } else if let compression = values[0x0103]?.value, compression == 6 || compression == 7,
                let strips = values[0x0111], strips.count == 1, let counts = values[0x0117], counts.count == 1
            {
                candidate = (Int64(strips.value), Int(counts.value))
            }
            // Panasonic's JpgFromRaw (0x002E): the JPEG's bytes are the entry's own.
            if let embedded = values[0x002E], embedded.count > 4 {
                candidate = (Int64(embedded.value), embedded.count)
            }
            if let (start, length) = candidate {
                try structure.consider(start, length, in: bytes)
            }
            // NewSubfileType 0 is the full-resolution image.
            if values[0x00FE]?.value ?? 0 == 0, values[0x0103]?.value != 6,
                let width = values[0x0100]?.value, let height = values[0x0101]?.value
            {
                let area = UInt64(width) * UInt64(height)
                if area > largest {
                    largest = area
                    structure.size = (Int(width), Int(height))
                }
            }
        }
        return structure
    }

    /// Lists the JPEG at `offset` if it lies in the file and has a SOF; remembers one cut off.
    mutating func consider(_ offset: Int64, _ length: Int, in bytes: borrowing FileReader) throws(PhotoError) {
        guard offset > 0, length > 2 else { return }
        guard length <= RAWHeader.maxPreviewBytes, offset <= bytes.size - Int64(length) else {
            if cutPreview == nil && length <= RAWHeader.maxPreviewBytes { cutPreview = (offset, length) }
            return
        }
        let head = try bytes.photoBytes(at: offset, count: min(length, 256 << 10), what: "a RAW preview")
        guard let (width, height, exif) = Self.jpegHead(head) else { return }
        // A preview's own EXIF (Panasonic's JpgFromRaw holds the shot's) fills what the file's IFDs lack.
        if previewExif == nil { previewExif = exif }
        let preview = RAWPreview(offset: offset, length: length, width: width, height: height)
        if !previews.contains(preview) { previews.append(preview) }
    }

    /// The size in the first SOF of a JPEG's markers, and the TIFF structure of an `Exif`
    /// APP1 segment before it; nil when `head` is not a JPEG's start.
    static func jpegHead(_ head: some Collection<UInt8>) -> (Int, Int, exif: [UInt8]?)? {
        let data = Array(head)
        guard data.starts(with: [0xFF, 0xD8]) else { return nil }
        var index = 2
        var exif: [UInt8]?
        while index + 4 <= data.count {
            guard data[index] == 0xFF else { return nil }
            let marker = data[index + 1]
            if marker == 0xFF { index += 1; continue }
            let length = Int(data[index + 2]) << 8 | Int(data[index + 3])
            if JPEGHeader.Process(sofMarker: marker) != nil {
                guard index + 9 <= data.count else { return nil }
                let height = Int(data[index + 5]) << 8 | Int(data[index + 6])
                let width = Int(data[index + 7]) << 8 | Int(data[index + 8])
                return width > 0 && height > 0 ? (width, height, exif) : nil
            }
            if marker == 0xE1, exif == nil, index + 2 + length <= data.count,
                data[(index + 4)...].starts(with: ExifReader.exifPrefix)
            {
                exif = Array(data[(index + 4 + ExifReader.exifPrefix.count)..<(index + 2 + length)])
            }
            guard marker != 0xDA, length >= 2 else { return nil }
            index += 2 + length
        }
        return nil
    }

    /// A CR3: `moov`'s Canon `uuid` box (CMT1, CMT2, THMB), the XMP `uuid` box and the
    /// preview `uuid` box (PRVW), each found by walking box headers only.
    static func cr3(_ bytes: borrowing FileReader) throws(PhotoError) -> RAWStructure {
        var structure = RAWStructure()
        let canon: [UInt8] = [
            0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
        ]
        let xmp: [UInt8] = [
            0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC,
        ]
        let preview: [UInt8] = [
            0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
        ]
        let topLevel = try bytes.photoBoxes().boxes
        // The box after the last whole one, when the file ends inside it: a preview box cut short.
        let after = topLevel.last?.end ?? 0
        if after <= bytes.size - 24, let head = try? bytes.photoBytes(at: after, count: 24), head.count == 24,
            head[4..<8].elementsEqual("uuid".utf8), Array(head[8..<24]) == preview
        {
            let claimed = Int64(head.bigEndian(4))
            if claimed > bytes.size - after { structure.cutPreview = (after, Int(clamping: claimed)) }
        }
        for box in topLevel {
            switch box.type {
            case "moov":
                for inner in try bytes.photoBoxes(from: box.body, to: box.end).boxes where inner.type == "uuid" {
                    guard inner.end - inner.body >= 16,
                        try bytes.photoBytes(at: inner.body, count: 16).elementsEqual(canon)
                    else { continue }
                    for item in try bytes.photoBoxes(from: inner.body + 16, to: inner.end).boxes {
                        let length = item.end - item.body
                        switch item.type {
                        case "CMT1" where length <= maxMetadata:
                            structure.tiff = Array(
                                try bytes.photoBytes(at: item.body, count: Int(length), what: "the CMT1 box"))
                        case "CMT2" where length <= maxMetadata:
                            structure.exifIFD = Array(
                                try bytes.photoBytes(at: item.body, count: Int(length), what: "the CMT2 box"))
                        case "THMB" where length > 16:
                            // Version and flags, width, height, JPEG length, two reserved fields, the JPEG.
                            let head = try bytes.photoBytes(at: item.body, count: 16, what: "the THMB box")
                            try structure.consider(item.body + 16, Int(head.bigEndian(4, at: 8)), in: bytes)
                        default:
                            break
                        }
                    }
                }
            case "uuid" where box.end - box.body > 16:
                let id = Array(try bytes.photoBytes(at: box.body, count: 16))
                if id == xmp, box.end - box.body - 16 <= Int64(XMPReader.maxLength) {
                    structure.xmp = Array(
                        try bytes.photoBytes(
                            at: box.body + 16, count: Int(box.end - box.body - 16), what: "the XMP box"))
                } else if id == preview {
                    // An 8-byte field, then the PRVW box: 6 bytes, width, height, 2 bytes, JPEG length, the JPEG.
                    for item in try bytes.photoBoxes(from: box.body + 24, to: box.end).boxes
                    where item.type == "PRVW" && item.end - item.body > 16 {
                        let head = try bytes.photoBytes(at: item.body, count: 16, what: "the PRVW box")
                        try structure.consider(item.body + 16, Int(head.bigEndian(4, at: 12)), in: bytes)
                    }
                }
            default:
                break
            }
        }
        if let tiff = structure.tiff.flatMap(TIFFStructure.init), let ifd0 = tiff.ifd(at: tiff.firstIFDOffset) {
            let values = Dictionary(ifd0.map { ($0.tag, $0.value) }, uniquingKeysWith: { first, _ in first })
            if let width = values[0x0100], let height = values[0x0101], width > 0, height > 0 {
                structure.size = (Int(width), Int(height))
            }
        }
        return structure
    }
}

/// Positional reads of TIFF IFDs from a file, bounds-checked.
struct IFDWalker {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        /// The value (SHORT or LONG, count 1) or the offset of the values.
        var value: UInt32
        /// The entry's last four bytes as a LONG: values of four bytes or less, as stored.
        var raw: UInt32
    }

    let little: Bool

    /// The entries of the IFD at `offset` and the offset of the next; nil when it does not fit.
    func entries(
        at offset: Int64, in bytes: borrowing FileReader
    ) throws(PhotoError) -> (entries: [Entry], next: Int64?)? {
        guard offset + 2 <= bytes.size else { return nil }
        let count = Int(uint16(try bytes.photoBytes(at: offset, count: 2), 0))
        guard count > 0, count <= RAWStructure.maxEntries, offset + 2 + Int64(12 * count) <= bytes.size else {
            return nil
        }
        // The next-IFD pointer may be missing at the very end of a file: then there is none.
        let length = Int(min(Int64(12 * count + 4), bytes.size - offset - 2))
        let data = try bytes.photoBytes(at: offset + 2, count: length, what: "an IFD")
        let entries = (0..<count).map { index in
            let at = 12 * index
            let type = UInt16(uint16(data, at + 2))
            let value = type == 3 ? uint16(data, at + 8) : uint32(data, at + 8)
            return Entry(
                tag: UInt16(uint16(data, at)), type: type, count: Int(uint32(data, at + 4)), value: value,
                raw: uint32(data, at + 8))
        }
        let next = data.count >= 12 * count + 4 ? Int64(uint32(data, 12 * count)) : nil
        return (entries, next)
    }

    /// The LONG (or IFD) values of an entry, at most `maxIFDs` of them.
    func longs(_ entry: Entry, in bytes: borrowing FileReader) throws(PhotoError) -> [UInt32] {
        guard entry.type == 4 || entry.type == 13, entry.count >= 1 else { return [] }
        if entry.count == 1 { return [entry.value] }
        let count = min(entry.count, RAWStructure.maxIFDs)
        guard Int64(entry.value) + Int64(4 * count) <= bytes.size else { return [] }
        let data = try bytes.photoBytes(at: Int64(entry.value), count: 4 * count)
        return (0..<count).map { uint32(data, 4 * $0) }
    }

    /// A small TIFF structure holding IFD0, the EXIF IFD and the GPS IFD of the file, each
    /// value moved next to its IFD: libexif reads at most 64 KiB (an APP1 segment's size), and
    /// a RAW file's EXIF IFD may lie anywhere.
    ///
    /// Maker notes, SubIFDs, the Interoperability IFD and
    /// values over 1 KiB are left out; IFD0's XMP (tag 700) is returned apart, and what a
    /// Nikon or Canon maker note says (each read where it is: a Nikon note holds its own
    /// offsets, a Canon note's count from the file's start).
    func compact(
        ifd0 offset: Int64, in bytes: borrowing FileReader
    ) throws(PhotoError) -> (tiff: [UInt8]?, xmp: [UInt8]?, makerNote: MakerNoteFacts) {
        guard let ifd0 = try entries(at: offset, in: bytes) else { return (nil, nil, MakerNoteFacts()) }
        var xmp: [UInt8]?
        if let packet = ifd0.entries.first(where: { $0.tag == 700 }), packet.count > 4,
            packet.count <= XMPReader.maxLength,
            Int64(packet.value) <= bytes.size - Int64(packet.count)
        {
            xmp = Array(try bytes.photoBytes(at: Int64(packet.value), count: packet.count, what: "the XMP tag"))
        }
        var children: [UInt16: [Entry]] = [:]
        for pointer in [UInt16(0x8769), 0x8825] {
            if let entry = ifd0.entries.first(where: { $0.tag == pointer }),
                let ifd = try entries(at: Int64(entry.value), in: bytes)
            {
                children[pointer] = ifd.entries
            }
        }
        let makerNote = try makerNoteFacts(children[0x8769], ifd0: ifd0.entries, in: bytes)
        var out: [UInt8] = little ? [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0] : [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        func put16(_ value: UInt32, at index: Int) {
            let bytes =
                little
                ? [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] : [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            out.replaceSubrange(index..<index + 2, with: bytes)
        }
        func put32(_ value: UInt32, at index: Int) {
            let bytes = (0..<4).map { UInt8(value >> (8 * UInt32(little ? $0 : 3 - $0)) & 0xFF) }
            out.replaceSubrange(index..<index + 4, with: bytes)
        }
        let sizes: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        /// Writes an IFD of `list` at the end of `out`; returns where each pointer entry's value is.
        func write(_ list: [Entry]) throws(PhotoError) -> [UInt16: Int] {
            let kept = list.filter { entry in
                // Pointers not followed here (SubIFDs, the Interoperability IFD, which would
                // point into this structure's own bytes and end libexif's reading of its IFD),
                // maker notes, previews and strips.
                guard ![0x014A, 0xA005, 0x927C, 700, 0x0201, 0x0202, 0x0111, 0x0117].contains(entry.tag),
                    let size = sizes[entry.type],
                    entry.count >= 0, entry.count <= 1024 / size
                else { return false }
                return size * entry.count <= 4 || Int64(entry.value) <= bytes.size - Int64(size * entry.count)
            }
            let start = out.count
            out += [UInt8](repeating: 0, count: 2 + 12 * kept.count + 4)
            put16(UInt32(kept.count), at: start)
            var pointers: [UInt16: Int] = [:]
            for (index, entry) in kept.enumerated() {
                let at = start + 2 + 12 * index
                put16(UInt32(entry.tag), at: at)
                put16(UInt32(entry.type), at: at + 2)
                put32(UInt32(entry.count), at: at + 4)
                let length = (sizes[entry.type] ?? 1) * entry.count
                if length <= 4 {
                    put32(entry.raw, at: at + 8)
                } else {
                    put32(UInt32(out.count), at: at + 8)
                    out += try bytes.photoBytes(at: Int64(entry.value), count: length, what: "an IFD value")
                    if out.count % 2 == 1 { out.append(0) }
                }
                if entry.tag == 0x8769 || entry.tag == 0x8825 { pointers[entry.tag] = at + 8 }
            }
            return pointers
        }
        let pointers = try write(ifd0.entries)
        for (tag, at) in pointers {
            guard let list = children[tag] else { continue }
            put32(UInt32(out.count), at: at)
            _ = try write(list)
        }
        return (out, xmp, makerNote)
    }

    /// The largest maker note read for its serial number and lens.
    static let maxMakerNote = 1 << 20

    func uint16(_ data: some Collection<UInt8>, _ offset: Int) -> UInt32 {
        little ? data.littleEndian(2, at: offset) : data.bigEndian(2, at: offset)
    }

    func uint32(_ data: some Collection<UInt8>, _ offset: Int) -> UInt32 {
        little ? data.littleEndian(4, at: offset) : data.bigEndian(4, at: offset)
    }
}
