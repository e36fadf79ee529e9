import Foundation

/// Where a face's descriptor falls in the index over descriptors (`face_buckets`), so that a new
/// face is compared with the faces near it, not with every face (docs/PEOPLE.md, "Grouping").
///
/// Locality-sensitive hashing by random hyperplanes: each of `tables` buckets is `bits` signs of
/// the descriptor, less the descriptors' mean, against fixed random directions. At 12 bits, two
/// faces of one person (about 31° apart around that mean, measured on the labelled faces) share
/// the bucket of a table one time in ten, and one of eight tables more than one time in two; two
/// people (about 90° apart) one time in 500, so a new face is compared with about 0.2 % of
/// 100,000 faces. A person with several faces is found through any of them.
///
/// Past 100,000 faces a bucket gets one sign more each time the faces double (`bits(for:)`), so
/// that it holds as many faces whatever the library's size. A search also looks in the buckets of
/// its least certain signs flipped one at a time (the signs a face of the same person most likely
/// has the other way): as many as keep it to about `compared` faces, at least one for each sign
/// past the twelfth; in a small library, every sign, which finds nine in ten of one person's pairs
/// that a table's bucket alone misses. A new face is compared with a number of faces that grows
/// with the logarithm of the library at most, not with the library.
enum FaceBuckets {
    static let tables = 8
    /// The signs of a bucket up to 100,000 faces, and the most it may have.
    static let fewestBits = 12
    static let mostBits = 20
    /// The number of values a descriptor has.
    static let dimensions = 128
    /// The `state` key of the bits `face_buckets` was made with (absent: before they grew, or
    /// not made yet: made again at the next grouping).
    static let stateKey = "face_bucket_bits"

    /// About how many faces a search compares a new face with, where the library has more.
    static let compared = 400

    /// The bits a bucket has for an index of `faces`: one more each time they double past 100,000.
    static func bits(for faces: Int) -> Int {
        var bits = fewestBits
        while bits < mostBits, faces > 100_000 << (bits - fewestBits) { bits += 1 }
        return bits
    }

    /// The buckets of `descriptor` at `bits`, one a table: `table << 32 | signs`.
    static func buckets(of descriptor: [Float], bits: Int) -> [Int64] {
        signs(of: descriptor, bits: bits).enumerated().map { table, signs in Int64(table) << 32 | signs.value }
    }

    /// How many signs of each table a search flips in an index of `faces` at `bits`: as many as
    /// keep it near `compared` faces, at least those past the twelfth, at most all.
    static func flips(faces: Int, bits: Int) -> Int {
        let room = compared << bits / (tables * max(1, faces)) - 1
        return min(bits, max(bits - fewestBits, room))
    }

    /// The buckets a search for faces near `descriptor` looks in: each table's, and those with
    /// one of its `flips` least certain signs the other way.
    static func probes(of descriptor: [Float], bits: Int, flips: Int) -> [Int64] {
        signs(of: descriptor, bits: bits).enumerated().flatMap { table, signs in
            let flips = signs.margins.indices.sorted { signs.margins[$0] < signs.margins[$1] }.prefix(flips)
            return ([signs.value] + flips.map { signs.value ^ (1 << Int64(bits - 1 - $0)) }).map {
                Int64(table) << 32 | $0
            }
        }
    }

    /// Each table's signs of `descriptor` (the first `bits` directions of the table), and how far
    /// from its plane the descriptor lies for each.
    private static func signs(of descriptor: [Float], bits: Int) -> [(value: Int64, margins: [Float])] {
        guard descriptor.count == dimensions, (fewestBits...mostBits).contains(bits) else { return [] }
        var centred = [Float](repeating: 0, count: dimensions)
        for index in 0..<dimensions { centred[index] = descriptor[index] - mean[index] }
        return (0..<tables).map { table in
            var signs: Int64 = 0
            var margins = [Float](repeating: 0, count: bits)
            for bit in 0..<bits {
                let plane = planes[plane(table: table, bit: bit)]
                var dot: Float = 0
                for index in 0..<dimensions { dot += plane[index] * centred[index] }
                signs = signs << 1 | (dot >= 0 ? 1 : 0)
                margins[bit] = abs(dot)
            }
            return (signs, margins)
        }
    }

    /// Where the direction of a table's sign is: the first twelve of each table as they were drawn
    /// before buckets grew (the grouping measured on the labelled faces), the others after them.
    private static func plane(table: Int, bit: Int) -> Int {
        bit < fewestBits
            ? table * fewestBits + bit
            : tables * fewestBits + table * (mostBits - fewestBits) + bit - fewestBits
    }

    /// The random directions, the same in every process and version: drawn from a fixed seed
    /// (SplitMix64, Box–Muller), so that the stored buckets stay right.
    private static let planes: [[Float]] = {
        var state: UInt64 = 0x7E55_E4A0_F0CE_5EED
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return (Double(z >> 11) + 0.5) / Double(1 << 53)
        }
        return (0..<tables * mostBits).map { _ in
            (0..<dimensions).map { _ in Float((-2 * log(next())).squareRoot() * cos(2 * .pi * next())) }
        }
    }()

    /// The mean of dlib's descriptors (of 142 faces of some 20 people, the labelled faces the
    /// tests read): they lie around it, far from zero, and the hyperplanes go through it.
    static let mean: [Float] = [
        -0.0850, 0.0937, 0.0594, -0.0479, -0.0859, -0.0096, -0.0140, -0.0901, 0.1460, -0.0723, 0.2141, -0.0249,
        -0.2393, -0.0563, -0.0071, 0.1165, -0.1434, -0.1233, -0.1219, -0.0628, 0.0267, 0.0250, 0.0069, 0.0196,
        -0.1445, -0.3091, -0.0742, -0.1108, 0.0318, -0.1109, 0.0114, 0.0446, -0.1699, -0.0631, 0.0133, 0.0442,
        -0.0500, -0.0669, 0.2083, -0.0007, -0.1718, 0.0170, 0.0373, 0.2464, 0.1974, -0.0033, 0.0372, -0.0609,
        0.1278, -0.2504, 0.0543, 0.1385, 0.1349, 0.0898, 0.0881, -0.1478, 0.0252, 0.1417, -0.1974, 0.0757,
        0.0650, -0.0976, -0.0352, -0.0372, 0.1724, 0.0814, -0.1048, -0.1350, 0.1610, -0.1337, -0.0430, 0.0734,
        -0.1119, -0.1722, -0.2732, 0.0462, 0.3500, 0.1381, -0.2045, 0.0070, -0.0854, -0.0118, 0.0323, 0.0444,
        -0.0567, -0.0435, -0.0878, 0.0181, 0.1864, -0.0184, -0.0223, 0.2172, 0.0126, -0.0158, 0.0364, 0.0412,
        -0.1088, -0.0235, -0.0949, 0.0056, 0.0304, -0.1000, -0.0106, 0.0932, -0.1755, 0.1799, -0.0245, -0.0095,
        -0.0266, -0.0241, -0.0727, -0.0015, 0.1683, -0.2574, 0.2023, 0.1709, 0.0014, 0.1328, 0.0456, 0.0569,
        -0.0155, -0.0090, -0.1598, -0.1023, 0.0410, -0.0230, 0.0278, 0.0333,
    ]

    /// A descriptor as the index keeps it: 128 32-bit floats, little-endian.
    static func blob(_ descriptor: [Float]) -> Data {
        var data = Data(capacity: descriptor.count * 4)
        for value in descriptor { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    /// The descriptor a blob holds; nil for one of another length (cut short, or not one).
    static func descriptor(_ blob: Data) -> [Float]? {
        guard blob.count == dimensions * 4 else { return nil }
        return blob.withUnsafeBytes { raw in
            (0..<dimensions).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
    }

    /// Euclidean.
    static func distance(_ a: [Float], _ b: [Float]) -> Float {
        var sum: Float = 0
        for index in 0..<min(a.count, b.count) { sum += (a[index] - b[index]) * (a[index] - b[index]) }
        return sum.squareRoot()
    }
}
