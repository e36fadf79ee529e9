/// Unsigned integers read from bytes in either order: the one set of helpers every parser uses.
extension Collection<UInt8> {
    /// The big-endian unsigned integer in `width` (at most 4) bytes starting `offset` bytes in.
    public func bigEndian(_ width: Int, at offset: Int = 0) -> UInt32 {
        var value: UInt32 = 0
        var index = self.index(startIndex, offsetBy: offset)
        for _ in 0..<width {
            value = value << 8 | UInt32(self[index])
            index = self.index(after: index)
        }
        return value
    }

    /// The little-endian unsigned integer in `width` (at most 4) bytes starting `offset` bytes in.
    public func littleEndian(_ width: Int, at offset: Int = 0) -> UInt32 {
        var value: UInt32 = 0
        var index = self.index(startIndex, offsetBy: offset)
        for shift in 0..<width {
            value |= UInt32(self[index]) << (8 * shift)
            index = self.index(after: index)
        }
        return value
    }
}
