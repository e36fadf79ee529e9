import Glibc

/// Searches of bytes in a buffer by the C library's `memchr` and `memcmp` (vectorised), where
/// the standard library's generic `firstRange(of:)` spends itself in generic dispatch: the
/// XMP packet of every photo is searched so. (`memmem` is a GNU extension Swift's Glibc
/// module does not declare.)
extension Array where Element == UInt8 {
    /// The offset of the first `needle` at or after `start`; nil when there is none.
    public func firstOffset(of needle: [UInt8], from start: Int = 0) -> Int? {
        guard start >= 0, start <= count, !needle.isEmpty else { return nil }
        return withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard let base = haystack.baseAddress, let pattern = needle.baseAddress else { return nil }
                var offset = start
                // Each place the first byte is, compared whole.
                while haystack.count - offset >= needle.count,
                    let found = memchr(base + offset, Int32(needle[0]), haystack.count - offset - needle.count + 1)
                {
                    let at = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(found, pattern, needle.count) == 0 { return at }
                    offset = at + 1
                }
                return nil
            }
        }
    }

    /// The offset of the first `byte`; nil when there is none.
    public func firstOffset(of byte: UInt8) -> Int? {
        withUnsafeBytes { haystack in
            guard let base = haystack.baseAddress, let found = memchr(base, Int32(byte), haystack.count) else {
                return nil
            }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }
}
