extension TIFFStructure {
    /// The text of an ASCII entry of at most `limit` bytes, up to its NUL, without the spaces
    /// cameras pad fields with; nil when none is left, or the entry does not fit.
    func text(of entry: Entry, atMost limit: Int) -> String? {
        guard entry.type == 2, entry.count > 0, entry.count <= limit else { return nil }
        let start = entry.count <= 4 ? entry.valueOffset : Int(entry.value)
        guard start >= 8, start <= bytes.count - entry.count else { return nil }
        let text = bytes[start..<(start + entry.count)].prefix { $0 != 0 }
        let space = UInt8(ascii: " ")
        guard let first = text.firstIndex(where: { $0 != space }), let last = text.lastIndex(where: { $0 != space })
        else { return nil }
        return String(decoding: text[first...last], as: UTF8.self)
    }
}
