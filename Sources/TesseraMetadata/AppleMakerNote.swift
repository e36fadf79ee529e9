import TesseraSystem

/// The few facts Tessera reads from an Apple maker note (EXIF tag 0x927C of iPhone photos).
///
/// Its layout, as exiftool documents it: "Apple iOS\0", a version, "MM", then a big-endian IFD
/// whose value offsets count from the start of the note.
enum AppleMakerNote {
    /// Tag 0x0011: the identifier a Live Photo's still shares with its video's
    /// `com.apple.quicktime.content.identifier` (exiftool's MediaGroupUUID / ContentIdentifier).
    static func contentIdentifier(_ note: [UInt8]) -> String? {
        text(note, tag: 0x0011)
    }

    /// Tag 0x000B: the identifier the frames of one burst share (exiftool's BurstUUID).
    static func burstIdentifier(_ note: [UInt8]) -> String? {
        text(note, tag: 0x000B)
    }

    /// The ASCII value of `tag` in the note's IFD; nil when absent, empty or malformed.
    static func text(_ note: [UInt8], tag: UInt64) -> String? {
        guard note.count >= 16, note.starts(with: Array("Apple iOS".utf8) + [0]), note[12] == 0x4D, note[13] == 0x4D
        else {
            return nil
        }
        let count = Int(note.bigEndian(2, at: 14))
        for index in 0..<count {
            let entry = 16 + index * 12
            guard entry + 12 <= note.count else { return nil }
            guard note.bigEndian(2, at: entry) == tag, note.bigEndian(2, at: entry + 2) == 2 else { continue }
            let length = Int(note.bigEndian(4, at: entry + 4))
            let start = length <= 4 ? entry + 8 : Int(note.bigEndian(4, at: entry + 8))
            guard length > 0, length <= 256, start >= 0, start + length <= note.count else { return nil }
            let text = String(decoding: note[start..<start + length].prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? nil : text
        }
        return nil
    }
}
