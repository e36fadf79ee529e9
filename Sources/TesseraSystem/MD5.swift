import Foundation

/// MD5, written from RFC 1321: not for security, only because the freedesktop thumbnail
/// cache names each thumbnail by the MD5 of its file's URI.
public enum MD5 {
    /// The digest of `bytes` as 32 lowercase hexadecimal digits.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        digest(bytes).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    /// The 16-byte digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }

        var (a0, b0, c0, d0): (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
        var words = [UInt32](repeating: 0, count: 16)
        for block in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let at = block + index * 4
                words[index] =
                    UInt32(message[at]) | UInt32(message[at + 1]) << 8 | UInt32(message[at + 2]) << 16
                    | UInt32(message[at + 3]) << 24
            }
            var (a, b, c, d) = (a0, b0, c0, d0)
            for step in 0..<64 {
                let mixed: UInt32
                let word: Int
                switch step {
                case 0..<16: (mixed, word) = ((b & c) | (~b & d), step)
                case 16..<32: (mixed, word) = ((d & b) | (~d & c), (5 * step + 1) % 16)
                case 32..<48: (mixed, word) = (b ^ c ^ d, (3 * step + 5) % 16)
                default: (mixed, word) = (c ^ (b | ~d), (7 * step) % 16)
                }
                let sum = mixed &+ a &+ constants[step] &+ words[word]
                (a, d, c) = (d, c, b)
                b = b &+ (sum << shifts[step] | sum >> (32 - shifts[step]))
            }
            (a0, b0, c0, d0) = (a0 &+ a, b0 &+ b, c0 &+ c, d0 &+ d)
        }
        return [a0, b0, c0, d0].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32($0 * 8)) } }
    }

    /// The per-step left rotations (RFC 1321, section 3.4).
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// floor(abs(sin(i + 1)) × 2^32), the table of RFC 1321.
    private static let constants: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296).rounded(.down)))
    }
}
