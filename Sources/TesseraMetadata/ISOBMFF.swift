/// The ISO base media file format (ISO/IEC 14496-12) as far as HEIF and AVIF need it.
enum ISOBMFF {
    /// The major and compatible brands of a leading `ftyp` box, or nil without one.
    static func brands(_ prefix: [UInt8]) -> [String]? {
        guard prefix.count >= 16, prefix[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        let size = min(Int(prefix.bigEndian(4)), prefix.count)
        guard size >= 16 else { return nil }
        var brands = [String(decoding: prefix[8..<12], as: UTF8.self)]
        for start in stride(from: 16, to: size - 3, by: 4) {
            brands.append(String(decoding: prefix[start..<start + 4], as: UTF8.self))
        }
        return brands
    }
}
