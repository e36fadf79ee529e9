import TesseraFacts
import TesseraSystem

/// What a RAW's maker note says that its EXIF may not: the body's serial number and the lens.
struct MakerNoteFacts: Equatable {
    var serial: String?
    var lens: String?
}

extension IFDWalker {
    /// What the maker note the EXIF IFD (`exif`) points at says, each read where it is: a
    /// Nikon note holds its own offsets, a Canon note's count from the file's start.
    func makerNoteFacts(
        _ exif: [Entry]?, ifd0: [Entry], in bytes: borrowing FileReader
    ) throws(PhotoError) -> MakerNoteFacts {
        var facts = MakerNoteFacts()
        guard let note = exif?.first(where: { $0.tag == 0x927C && $0.type == 7 }),
            (18...Self.maxMakerNote).contains(note.count), Int64(note.value) <= bytes.size - Int64(note.count)
        else { return facts }
        if try bytes.photoBytes(at: Int64(note.value), count: 6, what: "the maker note").elementsEqual(
            Array("Nikon".utf8) + [0])
        {
            facts.serial = NikonMakerNote.serialNumber(
                Array(try bytes.photoBytes(at: Int64(note.value), count: note.count, what: "the maker note")))
        } else if try text(of: ifd0.first { $0.tag == 0x010F }, in: bytes)?.hasPrefix("Canon") == true,
            Int64(note.value) + Int64(note.count) <= Int64(RAWStructure.maxMetadata)
        {
            // (the file up to the note's end: a CR2's note lies in its first few hundred KiB)
            let head = Array(try bytes.photoBytes(at: 0, count: Int(note.value) + note.count, what: "the maker note"))
            (facts.serial, facts.lens) = (CanonMakerNote.serialNumber(head), CanonMakerNote.lens(head))
        }
        return facts
    }

    /// An ASCII entry's text, up to its first NUL; nil when it has none or more than 64 bytes.
    private func text(of entry: Entry?, in bytes: borrowing FileReader) throws(PhotoError) -> String? {
        guard let entry, entry.type == 2, (1...64).contains(entry.count) else { return nil }
        let stored: [UInt8] =
            entry.count <= 4
            ? (0..<entry.count).map { UInt8(truncatingIfNeeded: entry.raw >> (8 * UInt32(little ? $0 : 3 - $0))) }
            : Int64(entry.value) <= bytes.size - Int64(entry.count)
                ? Array(try bytes.photoBytes(at: Int64(entry.value), count: entry.count, what: "an IFD value")) : []
        let text = stored.prefix { $0 != 0 }
        return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
    }
}
