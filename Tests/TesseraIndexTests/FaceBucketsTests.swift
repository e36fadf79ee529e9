import Foundation
import GRDB
import SystemPackage
import TesseraFacts
import TesseraTestSupport
import Testing

@testable import TesseraIndex

/// The index over the faces' descriptors (docs/PEOPLE.md, "Grouping"): buckets that grow with
/// the library, so that a new face is compared with about as many faces at any size, and searches
/// that still find a face one uncertain sign away.
struct FaceBucketsTests {
    /// A descriptor around the descriptors' mean, drawn from `seed`.
    static func descriptor(_ seed: UInt64, spread: Float = 0.07) -> [Float] {
        var state = seed
        return FaceBuckets.mean.map { value in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return value + spread * (Float(state >> 40) / Float(1 << 24) - 0.5)
        }
    }

    @Test func bucketsGainASignEachTimeTheFacesDouble() {
        #expect(FaceBuckets.bits(for: 0) == 12 && FaceBuckets.bits(for: 100_000) == 12)
        #expect(FaceBuckets.bits(for: 100_001) == 13 && FaceBuckets.bits(for: 1_000_000) == 16)
        #expect(FaceBuckets.bits(for: 1_000_000_000) == 20)
        // A search looks in each table's bucket, and at 16 bits in those of its four least
        // certain signs flipped: 8 × 5 buckets.
        let face = Self.descriptor(1)
        let buckets = FaceBuckets.buckets(of: face, bits: 16)
        let probes = FaceBuckets.probes(of: face, bits: 16, flips: 4)
        #expect(buckets.count == 8 && Set(probes).count == 40 && Set(buckets).isSubset(of: probes))
        #expect(FaceBuckets.probes(of: face, bits: 12, flips: 0) == FaceBuckets.buckets(of: face, bits: 12))
        // Flips keep a search near 400 faces: every sign in a small library, one at 100,000 faces,
        // those past the twelfth at a million.
        #expect(FaceBuckets.flips(faces: 50, bits: 12) == 12 && FaceBuckets.flips(faces: 100_000, bits: 12) == 1)
        #expect(FaceBuckets.flips(faces: 1_000_000, bits: 16) == 4)
        // Nothing for a descriptor of another length.
        #expect(FaceBuckets.buckets(of: [1, 2, 3], bits: 12).isEmpty)
    }

    /// Two faces of one person (a step apart as large as dlib's about the same face) meet in
    /// a bucket as often at 16 bits with the flipped signs as at 12 bits without them.
    @Test func searchesFindAsMuchWhenTheBucketsGrow() {
        var found = (twelve: 0, sixteen: 0, alone: 0)
        let pairs = 400
        for seed in UInt64(1)...UInt64(pairs) {
            let face = Self.descriptor(seed)
            let step = Self.descriptor(seed + 100_000, spread: 0.05)
            let near = zip(face, zip(step, FaceBuckets.mean)).map { $0 + $1.0 - $1.1 }
            let meets = { (bits: Int, probing: Bool) in
                !Set(
                    probing
                        ? FaceBuckets.probes(of: near, bits: bits, flips: bits - FaceBuckets.fewestBits)
                        : FaceBuckets.buckets(of: near, bits: bits)
                )
                .isDisjoint(with: FaceBuckets.buckets(of: face, bits: bits))
            }
            if meets(12, false) { found.twelve += 1 }
            if meets(16, true) { found.sixteen += 1 }
            if meets(16, false) { found.alone += 1 }
        }
        print("pairs meeting: \(found.twelve) at 12 bits, \(found.sixteen) at 16 with flips, \(found.alone) without")
        #expect(found.sixteen >= found.twelve * 9 / 10 && found.sixteen > found.alone, "\(found) of \(pairs)")
    }

    /// The index is made again, whole, when the faces outgrow it or it was made before it could
    /// grow; left alone otherwise.
    @Test func theIndexIsMadeAgainOnlyWhenItMust() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("index.sqlite")
        let index = try PhotoIndex(path: FilePath(path))
        try PhotoIndexTests.populate(index, root: "/photos")
        let photos = try #require(SQLite.integer(path, "SELECT COUNT(*) FROM photos"))
        try index.write { db in
            for photo in 1...photos {
                try PhotoIndex.replaceFaces(
                    of: Int64(photo),
                    with: [
                        FoundFace(
                            x: 0.4, y: 0.4, width: 0.2, height: 0.2, confidence: 1,
                            descriptor: Self.descriptor(UInt64(photo)))
                    ], db)
            }
        }
        // Never made (an index from before): made, 8 buckets a face.
        #expect(try index.fitFaceBuckets() == photos)
        #expect(SQLite.integer(path, "SELECT COUNT(*) FROM face_buckets") == 8 * photos)
        #expect(SQLite.query(path, "SELECT value FROM state WHERE key = 'face_bucket_bits'") == [["12"]])
        #expect(try index.fitFaceBuckets() == 0)
        // Made with more signs than the faces need: kept (it never shrinks back and forth).
        #expect(SQLite.write(path, "UPDATE state SET value = '14' WHERE key = 'face_bucket_bits'"))
        #expect(try index.fitFaceBuckets() == 0)
        // A value that is none: made again.
        #expect(SQLite.write(path, "UPDATE state SET value = 'x' WHERE key = 'face_bucket_bits'"))
        #expect(try index.fitFaceBuckets() == photos)
        #expect(try index.groupFaces() == photos)
    }
}
