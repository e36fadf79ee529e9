import TesseraFacts
import TesseraSystem

/// Finds the video of a motion photo from what its XMP says, and checks that an MP4 starts there.
enum MotionPhoto {
    /// Where the XMP says the video is: Google's Container directory gives the video item's
    /// length (it ends the file), MicroVideo its offset from the end.
    struct Hint: Sendable, Equatable {
        var videoItemLength: Int64?
        var microVideoOffset: Int64?
    }

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
            if reader.box(at: start)?.type == "mpvd" { start += 8 }
            if let video = mp4(reader, at: start, end: reader.size) { return (video, nil) }
        }
        return (nil, "the XMP says this is a motion photo, but no MP4 starts where it says (offset \(candidates[0]))")
    }

    /// The field type of a Samsung motion photo's video in its SEF trailer, and the field's name.
    static let samsungVideoField: [UInt8] = [0x30, 0x0A]
    static let samsungVideoName = Array("MotionPhoto_Data".utf8)
    /// The most SEF entries looked through; phones write a handful.
    static let maxSEFEntries = 64

    /// The video of a Samsung JPEG that says it is a motion photo only in its SEF trailer: the
    /// file ends "SEFT", after the directory's size; the directory ("SEFH", version, count,
    /// then per field 2 zero bytes, its type, its distance back from "SEFH" and its length,
    /// little-endian) names a field "MotionPhoto_Data" whose bytes after the name are an MP4.
    static func samsungTrailer(_ reader: borrowing FileReader) -> EmbeddedVideo? {
        let size = reader.size
        guard size > 24, let tail = try? reader.read(at: size - 8, count: 8), tail.count == 8,
            tail[4..<8].elementsEqual("SEFT".utf8)
        else { return nil }
        let directorySize = Int64(tail.littleEndian(4))
        let sefh = size - 8 - directorySize
        guard directorySize >= 12, sefh >= 0, let head = try? reader.read(at: sefh, count: 12), head.count == 12,
            head[0..<4].elementsEqual("SEFH".utf8)
        else { return nil }
        let count = min(Int(head.littleEndian(4, at: 8)), maxSEFEntries, Int((directorySize - 12) / 12))
        guard count > 0, let entries = try? reader.read(at: sefh + 12, count: 12 * count), entries.count == 12 * count
        else { return nil }
        for index in 0..<count {
            let entry = entries[(12 * index)...]
            guard entry.dropFirst(2).prefix(2).elementsEqual(samsungVideoField) else { continue }
            let field = sefh - Int64(entry.littleEndian(4, at: 4)), length = Int64(entry.littleEndian(4, at: 8))
            guard field >= 0, length > 8, field + length <= sefh,
                let header = try? reader.read(at: field, count: 8 + samsungVideoName.count),
                header.count == 8 + samsungVideoName.count,
                Int(header.littleEndian(4, at: 4)) == samsungVideoName.count,
                header.dropFirst(8).elementsEqual(samsungVideoName)
            else { continue }
            if let video = mp4(reader, at: field + 8 + Int64(samsungVideoName.count), end: field + length) {
                return video
            }
        }
        return nil
    }

    /// The MP4 whose `ftyp` starts at `start`: its top-level boxes up to `end` or the first bytes
    /// that are not one, with a `moov` among them; nil otherwise.
    private static func mp4(_ reader: borrowing FileReader, at start: Int64, end limit: Int64) -> EmbeddedVideo? {
        guard let list = try? reader.boxes(from: start, to: limit, accept: { topLevelBoxes.contains($0.type) }),
            let first = list.boxes.first, first.type == "ftyp", (8...4096).contains(first.end - first.start),
            let moov = list.first("moov"), let end = list.boxes.last?.end
        else { return nil }
        // Its facts are a bonus: a movie box too large or unreadable still marks a video.
        let body =
            moov.bodyLength <= MovieBox.maxSize ? try? reader.read(at: moov.body, count: Int(moov.bodyLength)) : nil
        let movie = MovieBox(body.map { $0[...] } ?? [])
        return EmbeddedVideo(offset: start, length: end - start, duration: movie.duration, codec: movie.codec)
    }
}

/// The duration and video codec in an MP4's `moov` box (ISO/IEC 14496-12): the movie header's
/// timescale and duration, and the sample description of the track whose handler is `vide`.
///
/// Read here so a motion photo's few facts never need a video library.
struct MovieBox {
    /// Phone motion photos' movie boxes are tens of kilobytes.
    static let maxSize: Int64 = 4 << 20

    var duration: Double?
    var codec: String?

    /// Sample entry types and FFmpeg's names for their codecs.
    static let codecs: [String: String] = [
        "avc1": "h264", "avc3": "h264", "hvc1": "hevc", "hev1": "hevc", "av01": "av1", "vp09": "vp9", "vp08": "vp8",
        "mp4v": "mpeg4", "s263": "h263", "jpeg": "mjpeg", "mjpa": "mjpeg", "apch": "prores", "apcn": "prores",
        "apcs": "prores", "apco": "prores", "ap4h": "prores", "dvh1": "hevc", "dvhe": "hevc",
    ]

    init(_ moov: ArraySlice<UInt8>) {
        let boxes = Self.children(moov)
        if let header = boxes.first(where: { $0.type == "mvhd" })?.body, let version = header.first {
            // Version 1 has 64-bit creation, modification and duration fields.
            let (scaleAt, durationAt, width) = version == 1 ? (20, 24, 8) : (12, 16, 4)
            if header.count >= durationAt + width {
                let scale = header.bigEndian(4, at: scaleAt)
                let duration =
                    width == 8
                    ? UInt64(header.bigEndian(4, at: durationAt)) << 32
                        | UInt64(header.bigEndian(4, at: durationAt + 4))
                    : UInt64(header.bigEndian(4, at: durationAt))
                // All ones means "unknown".
                if scale > 0, duration > 0, duration != (width == 8 ? UInt64.max : UInt64(UInt32.max)) {
                    self.duration = Double(duration) / Double(scale)
                }
            }
        }
        for track in boxes where track.type == "trak" {
            guard let media = Self.children(track.body).first(where: { $0.type == "mdia" }) else { continue }
            let parts = Self.children(media.body)
            // hdlr: version and flags, pre_defined, then the handler type.
            guard let handler = parts.first(where: { $0.type == "hdlr" })?.body, handler.count >= 12,
                handler.dropFirst(8).prefix(4).elementsEqual("vide".utf8)
            else { continue }
            let table = parts.first { $0.type == "minf" }.map { Self.children($0.body) }?.first { $0.type == "stbl" }
            // stsd: version and flags, entry count, then the first entry's size and type.
            guard let description = table.map({ Self.children($0.body) })?.first(where: { $0.type == "stsd" })?.body,
                description.count >= 16
            else { continue }
            let type = String(decoding: description.dropFirst(12).prefix(4), as: UTF8.self)
            codec = Self.codecs[type] ?? type.filter { $0 != " " }
            break
        }
    }

    private static func children(_ data: ArraySlice<UInt8>) -> [(type: String, body: ArraySlice<UInt8>)] {
        ISOBox.list(in: data).boxes.map { ($0.type, $0.body(in: data)) }
    }
}
