import Testing

@testable import TesseraMetadata

/// The identifiers an iPhone's maker note gives a burst's frames and a Live Photo's still.
struct AppleMakerNoteTests {
    /// A note as an iPhone writes it: its header, then a big-endian IFD whose value offsets count
    /// from the note's start; `entries` as (tag, ASCII value), the long ones after the IFD.
    static func note(_ entries: [(tag: UInt16, value: String)], offsetShift: Int = 0) -> [UInt8] {
        func bigEndian(_ value: Int, _ bytes: Int) -> [UInt8] {
            (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        let header = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)
        var ifd = bigEndian(entries.count, 2)
        var data: [UInt8] = []
        let dataStart = header.count + 2 + 12 * entries.count + 4
        for (tag, value) in entries {
            let bytes = Array(value.utf8) + [0]
            ifd += bigEndian(Int(tag), 2) + bigEndian(2, 2) + bigEndian(bytes.count, 4)
            if bytes.count <= 4 {
                ifd += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                ifd += bigEndian(dataStart + data.count + offsetShift, 4)
                data += bytes
            }
        }
        return header + ifd + [0, 0, 0, 0] + data
    }

    @Test func theBurstAndTheLivePhotoIdentifiersAreRead() {
        let burst = "5B5AC42A-7D3C-4C4D-9E53-2B8C9B9A1D11"
        let note = Self.note([(0x000B, burst), (0x0011, "ABC")])
        #expect(AppleMakerNote.burstIdentifier(note) == burst)
        #expect(AppleMakerNote.contentIdentifier(note) == "ABC")
        #expect(AppleMakerNote.burstIdentifier(Self.note([(0x0011, "ABC")])) == nil)
    }

    @Test func aValueOutsideTheNoteIsNone() {
        let note = Self.note([(0x000B, "5B5AC42A-7D3C-4C4D-9E53-2B8C9B9A1D11")], offsetShift: 1_000)
        #expect(AppleMakerNote.burstIdentifier(note) == nil)
        #expect(AppleMakerNote.burstIdentifier(Array(note.prefix(20))) == nil)
    }
}
