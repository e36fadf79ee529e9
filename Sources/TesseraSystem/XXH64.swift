/// XXH64, the 64-bit xxHash of Yann Collet (BSD-2), written from its specification
/// (github.com/Cyan4973/xxHash, doc/xxhash_spec.md): the content hash of photo files.
public enum XXH64 {
    fileprivate static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    fileprivate static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    fileprivate static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    fileprivate static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    fileprivate static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    public static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    public static func hash(_ data: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hasher = Hasher(seed: seed)
        hasher.update(data)
        return hasher.finalize()
    }

    /// XXH64 over data that arrives in pieces (a file read in steps): the same value as
    /// hashing the concatenation at once, in constant memory.
    public struct Hasher: Sendable {
        private let seed: UInt64
        private var v1, v2, v3, v4: UInt64
        private var total = 0
        /// Bytes of an incomplete 32-byte stripe, waiting for the rest.
        private var pending: [UInt8] = []

        public init(seed: UInt64 = 0) {
            self.seed = seed
            v1 = seed &+ p1 &+ p2
            v2 = seed &+ p2
            v3 = seed
            v4 = seed &- p1
            pending.reserveCapacity(32)
        }

        public mutating func update(_ data: UnsafeRawBufferPointer) {
            total += data.count
            var offset = 0
            if !pending.isEmpty {
                let take = min(32 - pending.count, data.count)
                pending += data[0..<take]
                offset = take
                guard pending.count == 32 else { return }
                pending.withUnsafeBytes { stripe($0, at: 0) }
                pending.removeAll(keepingCapacity: true)
            }
            while offset + 32 <= data.count {
                stripe(data, at: offset)
                offset += 32
            }
            if offset < data.count { pending += data[offset...] }
        }

        private mutating func stripe(_ data: UnsafeRawBufferPointer, at offset: Int) {
            v1 = round(v1, lane(data, offset))
            v2 = round(v2, lane(data, offset + 8))
            v3 = round(v3, lane(data, offset + 16))
            v4 = round(v4, lane(data, offset + 24))
        }

        public func finalize() -> UInt64 {
            var accumulator: UInt64
            if total >= 32 {
                accumulator = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
                for v in [v1, v2, v3, v4] {
                    accumulator = (accumulator ^ round(0, v)) &* p1 &+ p4
                }
            } else {
                accumulator = seed &+ p5
            }
            accumulator &+= UInt64(total)
            return pending.withUnsafeBytes { data in
                let count = data.count
                var offset = 0
                while offset + 8 <= count {
                    accumulator = rotate(accumulator ^ round(0, lane(data, offset)), 27) &* p1 &+ p4
                    offset += 8
                }
                if offset + 4 <= count {
                    let word = UInt64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    accumulator = rotate(accumulator ^ (word &* p1), 23) &* p2 &+ p3
                    offset += 4
                }
                while offset < count {
                    accumulator = rotate(accumulator ^ (UInt64(data[offset]) &* p5), 11) &* p1
                    offset += 1
                }
                accumulator ^= accumulator >> 33
                accumulator &*= p2
                accumulator ^= accumulator >> 29
                accumulator &*= p3
                accumulator ^= accumulator >> 32
                return accumulator
            }
        }
    }

    /// 16 lowercase hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

@inline(__always) private func lane(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: data.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
}

@inline(__always) private func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
    rotate(accumulator &+ lane &* XXH64.p2, 31) &* XXH64.p1
}

@inline(__always) private func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    value << bits | value >> (64 - bits)
}
