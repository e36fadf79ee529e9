/// A smaller JPEG a camera stored inside the file, which a rendition may be made from instead
/// of decoding the photo itself.
///
/// Two places hold one: the MP Format index (CIPA DC-007, an APP2 `MPF\0` segment), whose
/// entries of type "large thumbnail" (0x010001, VGA class; 0x010002, full-HD class) are
/// previews of the primary image; and the EXIF IFD1 thumbnail (tags 0x0201/0x0202, TIFF 6.0),
/// usually 160×120. Other MPF entries are never previews: Ultra HDR and Apple gain maps are
/// type 0 ("undefined"), stereo and panorama frames are 0x02xxxx. Where it lies is a claim of
/// the file: the renderer checks it against the file's size and decodes what it finds as
/// untrusted input.
public struct EmbeddedPreview: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// An MPF large thumbnail.
        case mpf
        /// The EXIF IFD1 thumbnail.
        case exifThumbnail = "exif-thumbnail"
    }

    public var kind: Kind
    /// Byte offset of the preview's SOI in the file.
    public var offset: Int64
    public var length: Int

    /// MPF entry types that are previews of the primary image.
    static let mpfPreviewTypes: Set<UInt32> = [0x010001, 0x010002]

    /// The previews an MPF segment lists, and where the primary image ends (the first other
    /// image starts: the size the index gives the primary is not reliable, Ultra HDR writers
    /// leave out part of it); `payload` starts after `MPF\0`, at `payloadOffset` in the file
    /// (MPF offsets count from there).
    static func mpf(
        _ payload: some Collection<UInt8>, payloadOffset: Int64
    ) -> (previews: [EmbeddedPreview], primaryEnd: Int64?) {
        guard let tiff = TIFFStructure(Array(payload)), let ifd = tiff.ifd(at: tiff.firstIFDOffset) else {
            return ([], nil)
        }
        // 0xB002 MPEntry: 16 bytes per image (attribute, size, offset, two dependent entries).
        guard let entries = ifd.first(where: { $0.tag == 0xB002 }), entries.count % 16 == 0,
            let data = tiff.bytes(of: entries)
        else { return ([], nil) }
        var previews: [EmbeddedPreview] = []
        var primaryEnd: Int64?
        for start in stride(from: 0, to: data.count, by: 16) {
            let attribute = tiff.uint32(data, at: start), size = tiff.uint32(data, at: start + 4)
            let offset = tiff.uint32(data, at: start + 8)
            if offset > 0 { primaryEnd = min(primaryEnd ?? .max, payloadOffset + Int64(offset)) }
            // Bits 24–26: the image data format, 0 for JPEG; bits 0–23: the type.
            guard (attribute >> 24) & 0x7 == 0, mpfPreviewTypes.contains(attribute & 0xFF_FFFF), offset > 0, size > 0
            else {
                continue
            }
            previews.append(EmbeddedPreview(kind: .mpf, offset: payloadOffset + Int64(offset), length: Int(size)))
        }
        return (previews, primaryEnd)
    }

    /// The IFD1 thumbnail of an EXIF TIFF structure found at `tiffOffset` in the file.
    static func exifThumbnail(_ exif: [UInt8], tiffOffset: Int64) -> EmbeddedPreview? {
        guard let tiff = TIFFStructure(exif), let ifd0 = tiff.ifd(at: tiff.firstIFDOffset),
            let next = tiff.nextIFDOffset(after: tiff.firstIFDOffset, entries: ifd0.count), next > 0,
            let ifd1 = tiff.ifd(at: next),
            let start = ifd1.first(where: { $0.tag == 0x0201 })?.value,
            let length = ifd1.first(where: { $0.tag == 0x0202 })?.value, start > 0, length > 0
        else { return nil }
        return EmbeddedPreview(kind: .exifThumbnail, offset: tiffOffset + Int64(start), length: Int(length))
    }
}

/// Just enough of TIFF 6.0 to walk the IFDs of an EXIF, MPF or CR3 CMT structure in memory, bounds-checked.
struct TIFFStructure {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        /// The value (SHORT or LONG, count 1) or the offset of the values.
        var value: UInt32
        /// Where the four value bytes are, for values that fit in them.
        var valueOffset: Int
    }

    let bytes: [UInt8]
    let littleEndian: Bool
    let firstIFDOffset: Int

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        let header = TIFFStructure(bytes: bytes, littleEndian: littleEndian, firstIFDOffset: 0)
        let first = Int(header.uint32(bytes, at: 4))
        guard header.uint16(bytes, at: 2) == 42, first >= 8, first < bytes.count else { return nil }
        self.init(bytes: bytes, littleEndian: littleEndian, firstIFDOffset: first)
    }

    private init(bytes: [UInt8], littleEndian: Bool, firstIFDOffset: Int) {
        self.bytes = bytes
        self.littleEndian = littleEndian
        self.firstIFDOffset = firstIFDOffset
    }

    /// The entries of the IFD at `offset`; nil when it does not fit.
    func ifd(at offset: Int) -> [Entry]? {
        guard offset >= 8, offset + 2 <= bytes.count else { return nil }
        let count = Int(uint16(bytes, at: offset))
        guard offset + 2 + 12 * count + 4 <= bytes.count else { return nil }
        return (0..<count).map { index in
            let at = offset + 2 + 12 * index
            let type = uint16(bytes, at: at + 2), count = Int(uint32(bytes, at: at + 4))
            // One SHORT sits in the first two bytes; more than two are elsewhere, at a LONG offset.
            let value = type == 3 && count <= 2 ? UInt32(uint16(bytes, at: at + 8)) : uint32(bytes, at: at + 8)
            return Entry(
                tag: uint16(bytes, at: at), type: type, count: count, value: value,
                valueOffset: at + 8)
        }
    }

    func nextIFDOffset(after offset: Int, entries: Int) -> Int? {
        let at = offset + 2 + 12 * entries
        guard at + 4 <= bytes.count else { return nil }
        return Int(uint32(bytes, at: at))
    }

    /// The bytes of an UNDEFINED entry's values.
    func bytes(of entry: Entry) -> [UInt8]? {
        guard entry.type == 7 else { return nil }
        if entry.count <= 4 { return Array(bytes[entry.valueOffset..<entry.valueOffset + entry.count]) }
        let start = Int(entry.value)
        guard start >= 8, start <= bytes.count, entry.count <= bytes.count - start else { return nil }
        return Array(bytes[start..<start + entry.count])
    }

    func uint16(_ data: [UInt8], at offset: Int) -> UInt16 {
        let (a, b) = (UInt16(data[offset]), UInt16(data[offset + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func uint32(_ data: [UInt8], at offset: Int) -> UInt32 {
        let (a, b) = (UInt32(uint16(data, at: offset)), UInt32(uint16(data, at: offset + 2)))
        return littleEndian ? a | b << 16 : a << 16 | b
    }
}
