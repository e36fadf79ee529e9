import Foundation
import GRDB
import TesseraFacts

extension PhotoIndex {
    /// The copies among the indexed files that are present and were read (docs/DUPLICATES.md),
    /// as `DuplicateGroups.find` decides them.
    public func duplicateGroups(
        colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?
    ) throws(IndexError) -> [DuplicateGroup] {
        DuplicateGroups.find(try duplicateCandidates(), colourLimit: colourLimit, colours: colours)
    }

    /// The files that are copies of the one with row `id` by `DuplicateGroups.rule`, found by
    /// index lookups: the same content key, and the hashes near its own, band by band
    /// (docs/DUPLICATES.md); nearest first.
    public func copies(
        of id: Int64, colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?
    ) throws(IndexError) -> [(file: ComparedFile, rule: DuplicateGroup.Rule, distance: Int?)] {
        try read { db in
            let present = "status IN ('ok', 'warning') AND missing_since_ms IS NULL AND content_hash IS NOT NULL"
            guard
                let photo = try Row.fetchOne(
                    db, sql: "SELECT \(Self.candidateColumns) FROM photos WHERE id = ? AND \(present)", arguments: [id]
                ).map(Self.candidate)
            else { return [] }
            var found = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.candidateColumns) FROM photos INDEXED BY photos_thumbnail_key
                    WHERE thumbnail_key = (SELECT thumbnail_key FROM photos WHERE id = ?1) AND id <> ?1 AND \(present)
                    """, arguments: [id]
            ).map(Self.candidate)
            if let hash = photo.perceptualHash {
                let masks = NearHashes.masks(within: DuplicateGroups.threshold / NearHashes.bands)
                for band in 0..<NearHashes.bands {
                    let value = NearHashes.value(hash, band)
                    found += try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(Self.candidateColumns) FROM photos
                            WHERE phash IS NOT NULL AND \(Self.phashBand(band)) IN (\(databaseQuestionMarks(count: masks.count)))
                                AND id <> ? AND \(present)
                            """, arguments: StatementArguments(masks.map { Int64(value ^ $0) } + [id])
                    ).map(Self.candidate)
                }
            }
            var seen = Set<Int64>()
            return found.filter { seen.insert($0.id).inserted }
                .compactMap { other in
                    DuplicateGroups.rule(photo, other, colourLimit: colourLimit, colours: colours).map { rule in
                        let distance = photo.perceptualHash.flatMap { a in
                            other.perceptualHash.map { ($0 ^ a).nonzeroBitCount }
                        }
                        return (other, rule, rule == .sameBytes ? nil : distance)
                    }
                }
                .sorted { ($0.distance ?? -1, $0.file.id) < ($1.distance ?? -1, $1.file.id) }
        }
    }

    private static let candidateColumns = """
        id, path, format, kind, display_width, display_height, size, mtime_ns, content_hash, phash, captured_at,
        make, model, thumbhash, album_id, rating
        """

    private static func candidate(_ row: Row) -> ComparedFile {
        ComparedFile(
            id: row[0], pathBytes: [UInt8](row[1] as Data), format: ImageFormat(rawValue: row[2]) ?? .unsupported,
            isVideo: row[3] as String? == "video", width: row[4], height: row[5], bytes: row[6] ?? 0,
            mtimeNanoseconds: row[7] ?? 0, contentHash: row[8],
            perceptualHash: (row[9] as Int64?).map { UInt64(bitPattern: $0) }, capturedAt: row[10], make: row[11],
            model: row[12], placeholder: (row[13] as Data?).map { [UInt8]($0) }, albumID: row[14], rating: row[15])
    }

    /// The stacks among the indexed files that are present and were read (docs/DUPLICATES.md).
    public func stacks() throws(IndexError) -> [Stack] {
        StackGroups.find(try duplicateCandidates())
    }

    /// Every present, read file with what deciding copies needs of it.
    func duplicateCandidates() throws(IndexError) -> [ComparedFile] {
        try read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT \(Self.candidateColumns) FROM photos
                    WHERE status IN ('ok', 'warning') AND missing_since_ms IS NULL AND content_hash IS NOT NULL
                    """)
            var found: [ComparedFile] = []
            while let row = try rows.next() { found.append(Self.candidate(row)) }
            return found
        }
    }
}
