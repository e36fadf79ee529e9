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

    /// The copy groups of every present file, by `DuplicateGroups.find`'s rules, from each
    /// file's `CopyFacts` (80 bytes) rather than its row: only the files that end in a group
    /// are read whole, to order them.
    static func copiesOfWholeLibrary(
        _ db: Database, colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?
    ) throws -> [CopyRecord] {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos WHERE \(presentAndRead)") ?? 0
        var ids: [Int64] = []
        var facts: [CopyFacts] = []
        ids.reserveCapacity(count)
        facts.reserveCapacity(count)
        var names = CopyFacts.Names()
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, kind, phash, content_hash, captured_at, make, model, phash_detail, format FROM photos
                WHERE \(presentAndRead) ORDER BY id
                """)
        while let row = try rows.next() {
            ids.append(row[0])
            facts.append(
                CopyFacts(
                    isVideo: row[1] as String? == "video",
                    perceptualHash: (row[2] as Int64?).map { UInt64(bitPattern: $0) },
                    detail: (row[7] as Data?).flatMap { DetailHash(bytes: $0) },
                    contentHash: row[3], capturedAt: row[4], make: row[5], model: row[6],
                    raw: (row[8] as String?).flatMap(ImageFormat.init(rawValue:))?.traits.isRaw ?? false,
                    names: &names))
        }
        let placeholder = try db.makeStatement(sql: "SELECT thumbhash FROM photos WHERE id = ?")
        let sets = CopySets.decide(facts, threshold: DuplicateGroups.threshold, colourLimit: colourLimit) { position in
            (try? Data.fetchOne(placeholder, arguments: [ids[position]])).flatMap { $0.map { colours([UInt8]($0)) } }
                ?? nil
        }.sets
        facts = []
        // The groups' files, read 500 at a time.
        var records: [CopyRecord] = []
        var (batch, batched): ([[Int64]], Int) = ([], 0)
        func readBatch() throws {
            var byID: [Int64: ComparedFile] = [:]
            for file in try fetchCandidates(db, ids: batch.flatMap { $0 }) { byID[file.id] = file }
            for set in batch {
                let found = set.compactMap { byID[$0] }
                if found.count > 1 { records.append(CopyRecord(DuplicateGroups.group(found))) }
            }
            (batch, batched) = ([], 0)
        }
        for set in sets {
            if batched + set.count > 500 { try readBatch() }
            batch.append(set.map { ids[$0] })
            batched += set.count
        }
        try readBatch()
        return records
    }

    /// A copy group as recorded: its rule, why its first is first, and its files' rows in
    /// order, each with its hash's distance from the first's.
    struct CopyRecord {
        var rule: DuplicateGroup.Rule
        var why: String
        var members: [Int64]
        var distances: [Int?]

        init(_ group: DuplicateGroup) {
            (rule, why, members) = (group.rule, group.why, group.members.map(\.id))
            let first = group.members[0].perceptualHash
            distances = group.members.map { member in
                group.rule == .sameBytes
                    ? nil : first.flatMap { a in member.perceptualHash.map { ($0 ^ a).nonzeroBitCount } }
            }
        }

        /// What makes it the same group when decided again.
        var key: String { "\(rule.rawValue) \(why) \(members)" }
    }

    /// Replaces the copy groups of the files `replacing` (nil: every group) by `records`,
    /// leaving a group as it is when it is decided the same again (its album is not changed).
    static func recordCopies(_ db: Database, _ records: [CopyRecord], replacing ids: [Int64]?) throws {
        var old: [String: Int64] = [:]
        for group in try stored(
            db, groups: "copy_groups", kind: "rule", members: "copy_members", by: "group_id", holding: ids,
            columns: "m.photo_id", fromPhotos: false, member: { $0[3] as Int64 })
        {
            old["\(group.rule) \(group.why) \(group.members)"] = group.id
        }
        let kept = Set(records.map(\.key)).intersection(old.keys)
        let gone = old.filter { !kept.contains($0.key) }.map(\.value)
        for chunk in gone.chunks(of: 500) {
            try db.execute(
                sql: "DELETE FROM copy_groups WHERE id IN (\(databaseQuestionMarks(count: chunk.count)))",
                arguments: StatementArguments(Array(chunk)))
        }
        try db.execute(sql: "DELETE FROM copy_groups WHERE id IN (\(brokenCopyGroups))")
        try db.execute(sql: "DELETE FROM copy_groups WHERE id NOT IN (SELECT group_id FROM copy_members)")
        for record in records where !kept.contains(record.key) {
            try db.cachedStatement(sql: "INSERT INTO copy_groups (rule, why) VALUES (?, ?)").execute(
                arguments: [record.rule.rawValue, record.why])
            let id = db.lastInsertedRowID
            for (position, (member, distance)) in zip(record.members, record.distances).enumerated() {
                try db.cachedStatement(
                    sql: "INSERT INTO copy_members (photo_id, group_id, position, distance) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [member, id, position, distance])
            }
        }
    }

    /// The present files that may be copies of `photo`: the same content key, or a hash within
    /// `DuplicateGroups.threshold` bits, found by the band indexes (each candidate once).
    static func nearCandidates(_ db: Database, of photo: ComparedFile) throws -> [ComparedFile] {
        var near = NearHashes()
        return try fetchCandidates(db, ids: nearCandidateIDs(db, of: photo, near: &near).sorted())
    }

    /// The rows of the files within `DuplicateGroups.threshold` bits of each hash looked up,
    /// kept by hash: the files of one picture share one, and its neighbours are looked up once
    /// however many of them changed.
    struct NearHashes {
        fileprivate var found: [UInt64: Set<Int64>] = [:]
    }

    /// The rows of `nearCandidates(of: photo)`, without reading them.
    static func nearCandidateIDs(_ db: Database, of photo: ComparedFile, near: inout NearHashes) throws -> Set<Int64> {
        var ids = Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM photos INDEXED BY photos_thumbnail_key WHERE \(presentAndRead)
                        AND thumbnail_key = (SELECT thumbnail_key FROM photos WHERE id = ?1) AND id <> ?1
                    """, arguments: [photo.id]))
        if let hash = photo.perceptualHash {
            if near.found[hash] == nil { near.found[hash] = try idsNear(db, hash) }
            ids.formUnion(near.found[hash] ?? [])
            ids.remove(photo.id)
        }
        return ids
    }

    /// The present files whose hash is within `DuplicateGroups.threshold` bits of `hash`.
    private static func idsNear(_ db: Database, _ hash: UInt64) throws -> Set<Int64> {
        var ids = Set<Int64>()
        let tolerances = NearPairs.tolerances(radius: DuplicateGroups.threshold)
        for band in 0..<NearPairs.bands where tolerances[band] >= 0 {
            let masks = NearPairs.masks(within: tolerances[band])
            let value = NearPairs.value(hash, band)
            // (the hashes first, each row once: equal hashes are found in every band)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, phash FROM photos WHERE \(presentAndRead) AND phash IS NOT NULL
                        AND \(phashBand(band)) IN (\(databaseQuestionMarks(count: masks.count)))
                    """, arguments: StatementArguments(masks.map { Int64(value ^ $0) }))
            while let row = try rows.next() {
                let other = UInt64(bitPattern: row[1])
                if (other ^ hash).nonzeroBitCount <= DuplicateGroups.threshold { ids.insert(row[0]) }
            }
        }
        return ids
    }

    /// The present, read files of rows `ids`, 500 a query.
    static func fetchCandidates(_ db: Database, ids: [Int64]) throws -> [ComparedFile] {
        var found: [ComparedFile] = []
        for chunk in ids.chunks(of: 500) {
            found += try fetchCandidates(
                db, where: "id IN (\(databaseQuestionMarks(count: chunk.count)))", StatementArguments(Array(chunk)))
        }
        return found
    }

    /// The present, read files (`filter` over `photos`) with what deciding copies needs of them.
    static func fetchCandidates(
        _ db: Database, indexedBy index: String? = nil, where filter: String, _ arguments: StatementArguments
    ) throws -> [ComparedFile] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(prefixedCandidateColumns) FROM photos \(index.map { "INDEXED BY \($0)" } ?? "")
                WHERE \(presentAndRead) AND (\(filter))
                """, arguments: arguments)
        var found: [ComparedFile] = []
        while let row = try rows.next() { found.append(candidate(row, from: 0)) }
        return found
    }

    /// The rows of files present and read.
    static let presentAndRead =
        "\(PhotoSQL.shown()) AND content_hash IS NOT NULL"

    /// What `candidate` reads, of `photos`.
    static let prefixedCandidateColumns = [
        "id", "path", "format", "kind", "display_width", "display_height", "size", "mtime_ns", "content_hash", "phash",
        "captured_at", "make", "model", "thumbhash", "album_id", "rating", "exposure_bias", "burst_id", "camera_serial",
        "phash_detail",
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
            serialNumber: row[at(18)], detailHash: (row[at(19)] as Data?).flatMap { DetailHash(bytes: $0) })
    }
}
