/// Pairs of 64-bit hashes within a Hamming radius, found by multi-index hashing (Norouzi,
/// Punjani and Fleet, 2012) with the generalized pigeonhole principle (Qin et al., 2018).
///
/// Each hash is split into four 16-bit bands. Two hashes at most `radius` apart differ by at
/// most its `tolerances` in at least one band, since those sum to `radius − 3`: only the
/// buckets within that many bits of one another are compared, not every pair.
enum NearPairs {
    static let bands = 4

    /// The bits by which each band may differ (−1: the band is not searched).
    static func tolerances(radius: Int) -> [Int] {
        let total = radius - bands + 1
        return (0..<bands).map { band in
            let (quotient, remainder) = (total + band).quotientAndRemainder(dividingBy: bands)
            return remainder < 0 ? quotient - 1 : quotient
        }
    }

    /// The 16-bit masks of at most `bits` bits: what turns a band's value into its neighbours.
    static func masks(within bits: Int) -> [UInt16] {
        (0...UInt16.max).filter { $0.nonzeroBitCount <= bits }
    }

    static func value(_ hash: UInt64, _ band: Int) -> UInt16 {
        UInt16(truncatingIfNeeded: hash >> (16 * UInt64(band)))
    }

    /// Calls `body(a, b, distance)` once for each pair of positions `a < b` whose hashes are at
    /// most `radius` apart, in no particular order; `visited` counts the pairs compared.
    ///
    /// One band at a time, bucket by bucket with the buckets near it (memory: 12 bytes a hash
    /// for the band in hand; time: the pairs those buckets hold, read in runs). A pair is
    /// given by the first band in which it is within tolerance, so once. Equal hashes are
    /// each other's pairs: callers pass each hash once.
    static func forEach(_ hashes: [UInt64], radius: Int, visited: inout Int, _ body: (Int, Int, Int) -> Void) {
        let tolerances = tolerances(radius: radius)
        func firstBand(_ x: UInt64, _ y: UInt64) -> Int {
            tolerances.indices.first { (value(x, $0) ^ value(y, $0)).nonzeroBitCount <= tolerances[$0] } ?? bands
        }
        for band in 0..<bands where tolerances[band] >= 0 {
            var starts = [Int32](repeating: 0, count: 65_537)
            for hash in hashes { starts[Int(value(hash, band)) + 1] += 1 }
            for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
            var next = starts
            var positions = [Int32](repeating: 0, count: hashes.count)
            var sorted = [UInt64](repeating: 0, count: hashes.count)
            for (position, hash) in hashes.enumerated() {
                let bucket = Int(value(hash, band))
                positions[Int(next[bucket])] = Int32(truncatingIfNeeded: position)
                sorted[Int(next[bucket])] = hash
                next[bucket] += 1
            }
            let masks = masks(within: tolerances[band])
            // (unchecked reads: every index is within a run `starts` bounds)
            sorted.withUnsafeBufferPointer { sorted in
                positions.withUnsafeBufferPointer { positions in
                    starts.withUnsafeBufferPointer { starts in
                        for bucket in 0..<65_536 where starts[bucket] < starts[bucket + 1] {
                            for mask in masks {
                                let other = bucket ^ Int(mask)
                                guard other >= bucket, starts[other] < starts[other + 1] else { continue }
                                for i in Int(starts[bucket])..<Int(starts[bucket + 1]) {
                                    let x = sorted[i]
                                    let from = other == bucket ? i + 1 : Int(starts[other])
                                    visited += Int(starts[other + 1]) - from
                                    for j in from..<Int(starts[other + 1]) {
                                        let distance = (x ^ sorted[j]).nonzeroBitCount
                                        guard distance <= radius, firstBand(x, sorted[j]) == band else { continue }
                                        let (p, q) = (Int(positions[i]), Int(positions[j]))
                                        p < q ? body(p, q, distance) : body(q, p, distance)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
