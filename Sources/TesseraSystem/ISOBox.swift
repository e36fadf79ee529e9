/// A box of the ISO base media file format (ISO/IEC 14496-12 §4.2) as its header gives it: the
/// one reader of box headers for every box-structured format (HEIF and AVIF, CR3, JPEG XL
/// containers, the MP4s inside motion photos), with one rule for sizes and one limit.
///
/// A header is a 32-bit big-endian size and a four-character type; size 1 means a 64-bit size
/// follows the type, size 0 that the box runs to the end of its parent. Offsets are where the
/// box's bytes are: in the file for boxes read from one, indices of the slice for boxes in memory.
public struct ISOBox: Sendable, Equatable {
    /// The four-character type ("meta", "xml ").
    public var type: String
    /// Where the header begins.
    public var start: Int64
    /// Where the body begins, after the header.
    public var body: Int64
    /// Where the box ends: past its last byte.
    public var end: Int64

    public var bodyLength: Int64 { end - body }

    /// The most boxes read at one level: real files have a handful, crafted ones millions.
    public static let maxBoxes = 10_000

    /// Why a list of boxes ended before its parent did.
    public enum Stop: Error, Equatable {
        /// The bytes left are too few for the header (or its 64-bit size).
        case cutShort(at: Int64)
        /// A size smaller than the header itself: no box.
        case impossibleSize(type: String, at: Int64, size: Int64)
        /// A box claims more bytes than its parent has left; `box` ends at the parent's end.
        case overruns(ISOBox)
        /// `maxBoxes` boxes were read.
        case tooMany
        /// The caller's test refused the next box (bytes that are not part of the structure).
        case refused(ISOBox)
    }

    /// The boxes found, whole, in order, and why the list ended early (nil: at the parent's end).
    public struct List: Sendable {
        public var boxes: [ISOBox] = []
        public var stop: Stop?

        /// The first whole box of `type`.
        public func first(_ type: String) -> ISOBox? { boxes.first { $0.type == type } }
    }

    /// The box whose header is at the start of `head` (its first 8 bytes, or 16 when there are
    /// that many), at `offset`, inside a parent ending at `limit`.
    static func parse(_ head: some Collection<UInt8>, at offset: Int64, limit: Int64) -> Result<ISOBox, Stop> {
        guard head.count >= 8, limit - offset >= 8 else { return .failure(.cutShort(at: offset)) }
        var size = Int64(head.bigEndian(4)), length: Int64 = 8
        let type = String(decoding: head.dropFirst(4).prefix(4), as: UTF8.self)
        if size == 1 {
            guard head.count >= 16, limit - offset >= 16 else { return .failure(.cutShort(at: offset)) }
            // A size past Int64.max is no box in any file.
            size = Int64(clamping: UInt64(head.bigEndian(4, at: 8)) << 32 | UInt64(head.bigEndian(4, at: 12)))
            length = 16
        } else if size == 0 {
            size = limit - offset
        }
        guard size >= length else { return .failure(.impossibleSize(type: type, at: offset, size: size)) }
        let box = ISOBox(type: type, start: offset, body: offset + length, end: offset + min(size, limit - offset))
        // Compared this way round, a claimed size near Int64.max cannot overflow.
        return size <= limit - offset ? .success(box) : .failure(.overruns(box))
    }

    /// Reads headers from `start` to `limit`, one after another, while `accept` takes them.
    static func list(
        from start: Int64, to limit: Int64, accept: (ISOBox) -> Bool, head: (Int64) throws(FileReadError) -> [UInt8]
    ) throws(FileReadError) -> List {
        var list = List()
        var offset = start
        while offset < limit {
            guard list.boxes.count < maxBoxes else {
                list.stop = .tooMany
                break
            }
            switch parse(try head(offset), at: offset, limit: limit) {
            case .success(let box):
                guard accept(box) else {
                    list.stop = .refused(box)
                    return list
                }
                list.boxes.append(box)
                offset = box.end
            case .failure(let stop):
                list.stop = stop
                return list
            }
        }
        return list
    }

    /// The boxes that fill `data` (a box's body, or a whole file in memory), while `accept`
    /// takes them; offsets are indices of `data`.
    public static func list(in data: ArraySlice<UInt8>, accept: (ISOBox) -> Bool = { _ in true }) -> List {
        // Reading from memory cannot fail.
        (try? list(from: Int64(data.startIndex), to: Int64(data.endIndex), accept: accept) { offset in
            Array(data[Int(offset)..<min(Int(offset) + 16, data.endIndex)])
        }) ?? List()
    }

    /// The major and compatible brands of the `ftyp` box that starts `prefix`, or nil without one.
    public static func brands(_ prefix: [UInt8]) -> [String]? {
        guard prefix.count >= 16, prefix[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = min(Int(prefix.bigEndian(4)), prefix.count)
        guard size >= 16 else { return nil }
        var brands = [String(decoding: prefix[8..<12], as: UTF8.self)]
        for start in stride(from: 16, to: size - 3, by: 4) {
            brands.append(String(decoding: prefix[start..<start + 4], as: UTF8.self))
        }
        return brands
    }

    /// The bytes of `box`'s body in `data`, the slice it was listed in.
    public func body(in data: ArraySlice<UInt8>) -> ArraySlice<UInt8> { data[Int(body)..<Int(end)] }
}

extension FileReader {
    /// The box whose header is at `offset`, whole or running past the end of the file (then
    /// ending there); nil when there is no box header there.
    public func box(at offset: Int64) -> ISOBox? {
        guard offset >= 0, offset < size, let head = try? read(at: offset, count: Int(min(16, size - offset))) else {
            return nil
        }
        switch ISOBox.parse(head, at: offset, limit: size) {
        case .success(let box), .failure(.overruns(let box)): return box
        default: return nil
        }
    }

    /// The boxes between `start` and `limit` of the file, while `accept` takes them: only their
    /// headers are read.
    public func boxes(
        from start: Int64 = 0, to limit: Int64? = nil, accept: (ISOBox) -> Bool = { _ in true }
    ) throws(FileReadError) -> ISOBox.List {
        let end = min(limit ?? size, size)
        return try ISOBox.list(from: start, to: end, accept: accept) { offset throws(FileReadError) in
            try read(at: offset, count: Int(min(16, end - offset)))
        }
    }
}
