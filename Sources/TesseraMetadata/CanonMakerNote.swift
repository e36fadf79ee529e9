/// The lens a Canon camera records only in its maker note (EXIF tag 0x927C of Canon photos),
/// as older bodies and their CR2s do.
///
/// Canon's note is a bare IFD, in the file's byte order, whose value offsets count from the
/// start of the TIFF structure, not from the note.
enum CanonMakerNote {
    /// The lens the note in `tiff` (IFD0 → EXIF IFD → MakerNote) names: its LensModel text
    /// (tag 0x0095, exiftool's MakerNotes:LensModel), which bodies from about 2007 on write, else
    /// its lens type number (`lensType`).
    static func lens(_ tiff: [UInt8]) -> String? {
        guard let structure = TIFFStructure(tiff), let ifd0 = structure.ifd(at: structure.firstIFDOffset),
            let exifOffset = ifd0.first(where: { $0.tag == 0x8769 })?.value,
            let exif = structure.ifd(at: Int(exifOffset)),
            let note = exif.first(where: { $0.tag == 0x927C && $0.type == 7 && $0.count > 4 }),
            let entries = structure.ifd(at: Int(note.value))
        else { return nil }
        if let model = entries.first(where: { $0.tag == 0x0095 }).flatMap({ structure.text(of: $0, atMost: 256) }) {
            return model
        }
        return entries.first(where: { $0.tag == 0x0001 }).flatMap { lensType($0, in: structure) }
    }

    /// The body's serial number: tag 0x000C, a LONG, as exiftool shows it for most bodies (ten
    /// digits, zeros first).
    static func serialNumber(_ tiff: [UInt8]) -> String? {
        guard let structure = TIFFStructure(tiff), let ifd0 = structure.ifd(at: structure.firstIFDOffset),
            let exifOffset = ifd0.first(where: { $0.tag == 0x8769 })?.value,
            let exif = structure.ifd(at: Int(exifOffset)),
            let note = exif.first(where: { $0.tag == 0x927C && $0.type == 7 && $0.count > 4 }),
            let entries = structure.ifd(at: Int(note.value)),
            let serial = entries.first(where: { $0.tag == 0x000C && $0.type == 4 && $0.count == 1 }), serial.value != 0
        else { return nil }
        let digits = String(serial.value)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }

    /// The lens CameraSettings (tag 0x0001, SHORTs) names by number (index 22, `CanonLensTypes`),
    /// when the focal range the body recorded beside it (indexes 23 and 24, in units of index 25)
    /// is the one in the name.
    ///
    /// The check is not optional: third-party lenses report Canon's
    /// numbers, and some bodies (the 7D) keep only the low byte of a number above 255.
    private static func lensType(_ entry: TIFFStructure.Entry, in tiff: TIFFStructure) -> String? {
        guard entry.type == 3, entry.count >= 26 else { return nil }
        let start = Int(entry.value)
        guard start >= 8, start <= tiff.bytes.count - 2 * 26 else { return nil }
        func value(_ index: Int) -> UInt16 { tiff.uint16(tiff.bytes, at: start + 2 * index) }
        guard let name = CanonLensTypes.names[value(22)], let named = focalRange(of: name) else { return nil }
        let units = Double(max(1, value(25)))
        let longest = Double(value(23)) / units, shortest = Double(value(24)) / units
        func agrees(_ recorded: Double, _ named: Double) -> Bool { abs(recorded - named) <= max(1, named * 0.02) }
        return agrees(shortest, named.shortest) && agrees(longest, named.longest) ? name : nil
    }

    /// The focal range a lens name states ("18-55mm", "50mm"), in millimetres.
    static func focalRange(of name: String) -> (shortest: Double, longest: Double)? {
        for word in name.split(separator: " ") where word.hasSuffix("mm") {
            let bounds = word.dropLast(2).split(separator: "-", omittingEmptySubsequences: false).map { Double($0) }
            switch bounds.count {
            case 1: if let focal = bounds[0] { return (focal, focal) }
            case 2: if let shortest = bounds[0], let longest = bounds[1] { return (shortest, longest) }
            default: break
            }
        }
        return nil
    }
}
