import TesseraMetadata
import TesseraSystem

/// A PNG's `tEXt` chunks, read and written at the chunk level without decoding its image: how
/// a freedesktop thumbnail carries its URI and modification time.
///
/// PNG (ISO/IEC 15948, section 11.3.4.3): a `tEXt` chunk holds a Latin-1 keyword of 1 to 79
/// bytes, a NUL, and Latin-1 text; every chunk is its length (4 bytes, big-endian), its type,
/// its data and the CRC-32 of type and data.
public enum PNGText {

    /// `png` with its `tEXt` chunks replaced by `entries`, in order, right after its header; nil
    /// when `png` is not a well-formed PNG or an entry cannot be written as Latin-1.
    public static func replacing(_ entries: [(key: String, value: String)], in png: [UInt8]) -> [UInt8]? {
        guard let chunks = chunks(of: png), chunks.first?.type == "IHDR" else { return nil }
        var output = PNGHeader.signature
        for (index, chunk) in chunks.enumerated() where chunk.type != "tEXt" {
            output += png[chunk.range]
            guard index == 0 else { continue }
            for entry in entries {
                guard (1...79).contains(entry.key.utf8.count), let key = latin1(entry.key),
                    let value = latin1(entry.value),
                    !key.contains(0), !value.contains(0)
                else { return nil }
                output += Self.encoded(type: "tEXt", data: key + [0] + value)
            }
        }
        return output
    }

    /// The `tEXt` entries of `png`, keyword to text (the first of a repeated keyword); empty
    /// when there are none or `png` is not a well-formed PNG.
    public static func entries(of png: [UInt8]) -> [String: String] {
        var entries: [String: String] = [:]
        for chunk in chunks(of: png) ?? [] where chunk.type == "tEXt" {
            let data = png[chunk.data]
            guard let nul = data.firstIndex(of: 0) else { continue }
            let key = String(data[..<nul].map { Character(Unicode.Scalar($0)) })
            let value = String(data[(nul + 1)...].map { Character(Unicode.Scalar($0)) })
            if entries[key] == nil { entries[key] = value }
        }
        return entries
    }

    private struct Chunk {
        var type: String
        /// The whole chunk: length, type, data and CRC.
        var range: Range<Int>
        var data: Range<Int>
    }

    /// Every chunk up to `IEND`, each checked against its CRC; nil when any is cut or damaged.
    private static func chunks(of png: [UInt8]) -> [Chunk]? {
        guard png.starts(with: PNGHeader.signature) else { return nil }
        var chunks: [Chunk] = []
        var at = PNGHeader.signature.count
        while at + 12 <= png.count {
            let length = Int(png.bigEndian(4, at: at))
            guard length <= png.count - at - 12 else { return nil }
            let type = String(decoding: png[at + 4..<at + 8], as: UTF8.self)
            let end = at + 12 + length
            let crc = png.bigEndian(4, at: end - 4)
            guard Inflate.crc32(png[at + 4..<end - 4]) == crc else { return nil }
            chunks.append(Chunk(type: type, range: at..<end, data: at + 8..<end - 4))
            if type == "IEND" { return chunks }
            at = end
        }
        return nil
    }

    private static func encoded(type: String, data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = Inflate.crc32(body)
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) }
    }

    /// ISO 8859-1 bytes of `text`, nil when it has a character outside Latin-1.
    private static func latin1(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value < 256 else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }
}
