import TesseraSystem

/// The MP4 a motion photo carries after its still (Google's Motion Photo and MicroVideo,
/// Samsung's): where it lies in the file, as found and checked.
public struct EmbeddedVideo: Sendable, Equatable {
    /// Bytes from the start of the file to the MP4's first box (`ftyp`).
    public var offset: Int64
    /// Bytes of its boxes (`ftyp`, `moov`, `mdat`…), up to the first bytes that are not a box.
    public var length: Int64

    public init(offset: Int64, length: Int64) {
        self.offset = offset
        self.length = length
    }
}

/// Finds the video of a motion photo from what its XMP says, and checks that an MP4 starts there.
enum MotionPhoto {
    /// Where the XMP says the video is: Google's Container directory gives the video item's
    /// length (it ends the file), MicroVideo its offset from the end.
    struct Hint: Sendable, Equatable {
        var videoItemLength: Int64?
        var microVideoOffset: Int64?
    }

    /// The most boxes followed from the MP4's start.
    static let maxBoxes = 256
    /// The top-level boxes of an MP4 (ISO/IEC 14496-12); a trailer after it (Samsung's `sefd`)
    /// is not one.
    static let topLevelBoxes: Set<String> = [
        "ftyp", "moov", "mdat", "free", "skip", "wide", "uuid", "meta", "pdin", "moof", "mfra", "styp", "sidx", "udta",
    ]

    /// The embedded video `hint` leads to, or a warning when the XMP promises one that is not there.
    static func locate(_ reader: borrowing FileReader, hint: Hint) -> (video: EmbeddedVideo?, warning: String?) {
        let candidates = [hint.videoItemLength, hint.microVideoOffset].compactMap { $0 }
            .filter { $0 > 0 && $0 < reader.size }.map { reader.size - $0 }
        guard !candidates.isEmpty else { return (nil, nil) }
        for candidate in candidates {
            var start = candidate
            // Samsung wraps the MP4 of a HEIC in a top-level `mpvd` box.
            if let (_, type) = box(reader, at: start), type == "mpvd" { start += 8 }
            guard let (size, type) = box(reader, at: start), type == "ftyp", (8...4096).contains(size) else { continue }
            var end = start
            var sawMovie = false
            for _ in 0..<maxBoxes {
                guard end < reader.size, let (size, type) = box(reader, at: end), topLevelBoxes.contains(type), size >= 8,
                      end + size <= reader.size
                else { break }
                sawMovie = sawMovie || type == "moov"
                end += size
            }
            if sawMovie { return (EmbeddedVideo(offset: start, length: end - start), nil) }
        }
        return (nil, "the XMP says this is a motion photo, but no MP4 starts where it says (offset \(candidates[0]))")
    }

    /// The size (a 64-bit size read; 0 meaning "to the end") and type of the box at `offset`;
    /// nil when the bytes there are not a box header.
    private static func box(_ reader: borrowing FileReader, at offset: Int64) -> (Int64, String)? {
        guard offset >= 0, offset + 8 <= reader.size, let header = try? reader.read(at: offset, count: 16), header.count >= 8 else {
            return nil
        }
        let type = header[4..<8]
        guard type.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        var size = Int64(header.bigEndian(4))
        if size == 1 {
            guard header.count >= 16 else { return nil }
            size = Int64(header.bigEndian(4, at: 8)) << 32 | Int64(header.bigEndian(4, at: 12))
        } else if size == 0 {
            size = reader.size - offset
        }
        return (size, String(decoding: type, as: UTF8.self))
    }
}
