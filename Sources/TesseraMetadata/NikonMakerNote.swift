/// The camera body's serial number from a Nikon maker note (EXIF tag 0x927C of Nikon photos),
/// where older bodies keep it instead of EXIF's `BodySerialNumber`.
///
/// The note's layout (types 2 and 3), as exiftool documents it: "Nikon\0", a version, two
/// bytes, then a TIFF structure of its own whose offsets count from its header.
enum NikonMakerNote {
    /// Tag 0x001D, else 0x00A0 (the D50's and D70's), ASCII: exiftool's Nikon:SerialNumber.
    static func serialNumber(_ note: [UInt8]) -> String? {
        guard note.count > 18, note.starts(with: Array("Nikon".utf8) + [0]), note[6] == 2,
            let tiff = TIFFStructure(Array(note[10...])), let entries = tiff.ifd(at: tiff.firstIFDOffset),
            let entry = [0x001D, 0x00A0].lazy.compactMap({ tag in entries.first { $0.tag == tag && $0.type == 2 } })
                .first
        else { return nil }
        return tiff.text(of: entry, atMost: 64)
    }
}
