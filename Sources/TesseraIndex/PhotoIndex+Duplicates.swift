import Foundation
import GRDB
import TesseraFacts

extension PhotoIndex {
    /// The files that may be copies of the one with row `id`, found by index lookups (the
    /// same content key, and the hashes near its own, band by band: docs/DUPLICATES.md), each
    /// with `DuplicateGroups.verdict`'s: whether it is one, by which rule, and why; nearest first.
    public func comparisons(
        of id: Int64, colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?
    ) throws(IndexError) -> [(file: ComparedFile, verdict: DuplicateGroups.Verdict)] {
        try read { db in
            guard let photo = try Self.fetchCandidates(db, where: "id = ?", [id]).first else { return [] }
            return try Self.nearCandidates(db, of: photo)
                .map { ($0, DuplicateGroups.verdict(photo, $0, colourLimit: colourLimit, colours: colours)) }
                .sorted { ($0.verdict.distance ?? -1, $0.file.id) < ($1.verdict.distance ?? -1, $1.file.id) }
        }
    }

    /// The present files that may be copies of `photo`: the same content key, or a hash within
    /// `DuplicateGroups.threshold` bits, found by the band indexes (each candidate once).
    static func nearCandidates(_ db: Database, of photo: ComparedFile) throws -> [ComparedFile] {
        var found = try fetchCandidates(
            db, indexedBy: "photos_thumbnail_key",
            where: "thumbnail_key = (SELECT thumbnail_key FROM photos WHERE id = ?1) AND id <> ?1", [photo.id])
        if let hash = photo.perceptualHash {
            let masks = NearHashes.masks(within: DuplicateGroups.threshold / NearHashes.bands)
            for band in 0..<NearHashes.bands {
                let value = NearHashes.value(hash, band)
                found += try fetchCandidates(
                    db,
                    where: """
                        phash IS NOT NULL AND \(phashBand(band)) IN (\(databaseQuestionMarks(count: masks.count)))
                            AND id <> ?
                        """, StatementArguments(masks.map { Int64(value ^ $0) } + [photo.id]))
            }
        }
        var seen = Set<Int64>()
        return found.filter { other in
            guard seen.insert(other.id).inserted else { return false }
            if other.contentHash == photo.contentHash { return true }
            guard let a = photo.perceptualHash, let b = other.perceptualHash else { return false }
            return (a ^ b).nonzeroBitCount <= DuplicateGroups.threshold
        }
    }

    /// The present, read files (`filter` over `photos`) with what deciding copies needs of them.
    static func fetchCandidates(
        _ db: Database, indexedBy index: String? = nil, where filter: String, _ arguments: StatementArguments
    ) throws -> [ComparedFile] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(prefixedCandidateColumns) FROM photos \(index.map { "INDEXED BY \($0)" } ?? "")
                WHERE status IN ('ok', 'warning') AND missing_since_ms IS NULL AND content_hash IS NOT NULL
                    AND (\(filter))
                """, arguments: arguments)
        var found: [ComparedFile] = []
        while let row = try rows.next() { found.append(candidate(row, from: 0)) }
        return found
    }

    /// What `candidate` reads, of `photos`.
    static let prefixedCandidateColumns = [
        "id", "path", "format", "kind", "display_width", "display_height", "size", "mtime_ns", "content_hash", "phash",
        "captured_at", "make", "model", "thumbhash", "album_id", "rating", "exposure_bias", "burst_id", "camera_serial",
    ].map { "photos.\($0)" }.joined(separator: ", ")

    /// The file in `row`, its `prefixedCandidateColumns` from column `first` on.
    static func candidate(_ row: Row, from first: Int) -> ComparedFile {
        let at = { (column: Int) in first + column }
        return ComparedFile(
            id: row[at(0)], pathBytes: [UInt8](row[at(1)] as Data),
            format: ImageFormat(rawValue: row[at(2)]) ?? .unsupported, isVideo: row[at(3)] as String? == "video",
            width: row[at(4)], height: row[at(5)], bytes: row[at(6)] ?? 0, mtimeNanoseconds: row[at(7)] ?? 0,
            contentHash: row[at(8)], perceptualHash: (row[at(9)] as Int64?).map { UInt64(bitPattern: $0) },
            capturedAt: row[at(10)], make: row[at(11)], model: row[at(12)],
            placeholder: (row[at(13)] as Data?).map { [UInt8]($0) }, albumID: row[at(14)], rating: row[at(15)],
            exposureBias: row[at(16)], burstIdentifier: row[at(17)],
            serialNumber: row[at(18)])
    }
}
