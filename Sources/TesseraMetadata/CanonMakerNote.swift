/// The lens a Canon camera records only in its maker note (EXIF tag 0x927C of Canon photos),
/// as older bodies and their CR2s do (exiftool's MakerNotes:LensModel, Canon tag 0x0095).
///
/// Canon's note is a bare IFD, in the file's byte order, whose value offsets count from the
/// start of the TIFF structure, not from the note.
enum CanonMakerNote {
    /// Tag 0x0095 of the note in `tiff` (IFD0 → EXIF IFD → MakerNote), or nil.
    static func lensModel(_ tiff: [UInt8]) -> String? {
        guard let structure = TIFFStructure(tiff), let ifd0 = structure.ifd(at: structure.firstIFDOffset),
              let exifOffset = ifd0.first(where: { $0.tag == 0x8769 })?.value,
              let exif = structure.ifd(at: Int(exifOffset)),
              let note = exif.first(where: { $0.tag == 0x927C && $0.type == 7 && $0.count > 4 }),
              let entries = structure.ifd(at: Int(note.value)),
              let lens = entries.first(where: { $0.tag == 0x0095 && $0.type == 2 && $0.count > 0 && $0.count <= 256 })
        else { return nil }
        let start = lens.count <= 4 ? lens.valueOffset : Int(lens.value)
        guard start >= 8, start <= tiff.count - lens.count else { return nil }
        // The text up to its NUL, without the spaces Canon pads some fields with.
        let bytes = tiff[start..<(start + lens.count)].prefix { $0 != 0 }
        let space = UInt8(ascii: " ")
        guard let first = bytes.firstIndex(where: { $0 != space }), let last = bytes.lastIndex(where: { $0 != space }) else {
            return nil
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
