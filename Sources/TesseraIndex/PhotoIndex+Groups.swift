import Foundation
import GRDB
import TesseraFacts

/// What one refresh of the recorded stacks and copies did.
public struct GroupRefresh: Sendable, Equatable {
    /// Files changed since the refresh before.
    public var changedFiles = 0
    /// Whether groups a removed file left behind (fewer than two, or without a first) were
    /// decided again.
    public var mended = false
    /// Whether copies were decided over the whole library, not only around what changed.
    public var whole = false
    /// Rows read to decide copies around what changed (each file once, however many changed
    /// files it is near).
    public var filesRead = 0

    /// Whether anything was decided again.
    public var ran: Bool { whole || changedFiles > 0 || mended }
}

extension PhotoIndex {
    /// What the recorded groups were decided by: a change decides them all again.
    static let groupRules =
        "1: \(StackGroups.rules); copies within \(DuplicateGroups.threshold) bits, \(DuplicateGroups.spread) across; "
        + "details within \(DuplicateGroups.detailThreshold), \(DuplicateGroups.detailSpread) across"

    /// Copies are decided over the whole library when more than one file in this many changed:
    /// beyond that, one lookup a changed file costs more than one pass over every hash.
    static let wholeLibraryShare = 200

    /// Decides again the stacks and copies of the files changed since the last refresh, and
    /// records them (`stacks`, `stack_members`, `copy_groups`, `copy_members`).
    ///
    /// A file changes when its row is written or found missing or back (the `group_pending`
    /// triggers say which). Stacks are decided again folder by folder, for each folder with a
    /// changed file (a stack never crosses folders). Copies of a changed file are found by
    /// index lookups (`comparisons(of:)`'s), and decided again with the groups of every file found;
    /// when many changed, or the rules did, over every file (`copiesOfWholeLibrary`).
    ///
    /// `sharpness` measures a burst's frame from its renditions (nil when it cannot).
    public func refreshGroups(
        colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?,
        sharpness: (_ renditions: [RenditionEntry]) -> Double? = { _ in nil }
    ) throws(IndexError) -> GroupRefresh {
        try write { db in
            var refresh = GroupRefresh()
            let rules = try String.fetchOne(db, sql: "SELECT value FROM state WHERE key = 'group_rules'")
            let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM group_pending") ?? 0
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos") ?? 0
            refresh.changedFiles = pending
            refresh.whole = rules != Self.groupRules || pending * Self.wholeLibraryShare > total
            refresh.mended = try Self.brokenGroups(db)
            guard refresh.ran else { return refresh }

            // Stacks: the folders of what changed, and of stacks a deletion left broken.
            let albums =
                refresh.whole
                ? try Int64.fetchAll(db, sql: "SELECT id FROM albums")
                : try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT album_id FROM photos WHERE id IN (SELECT photo_id FROM group_pending)
                        UNION SELECT p.album_id FROM stack_members m JOIN photos p ON p.id = m.photo_id
                            WHERE m.stack_id IN (\(Self.brokenStacks))
                        """)
            for album in albums {
                let files = try Self.fetchCandidates(db, where: "album_id = ?", [album])
                let stacks = StackGroups.find(files) { file in
                    try? Self.sharpness(of: file.id, db, measuring: sharpness)
                }
                try Self.recordStacks(db, stacks, replacing: files.map(\.id))
                if !refresh.whole { try Self.pairAcrossFolders(db, where: "album_id = ?", [album]) }
            }
            // (over the whole library, from the RAW side alone: a library holds far fewer RAWs)
            if refresh.whole {
                try Self.pairAcrossFolders(db, where: PhotoSQL.format(\.isRaw), [])
                try db.execute(
                    sql: """
                        DELETE FROM sharpness
                        WHERE key NOT IN (SELECT thumbnail_key FROM photos WHERE thumbnail_key IS NOT NULL)
                        """)
            }

            // Copies.
            if refresh.whole {
                let records = try Self.copiesOfWholeLibrary(db, colourLimit: colourLimit, colours: colours)
                try Self.recordCopies(db, records, replacing: nil)
            } else {
                // (the rows found first, then each read once: a hundred new frames of a timelapse
                // of 100,000 are not 100 reads of its 100,000 files)
                var around: [Int64: ComparedFile] = [:]
                var (nearIDs, near) = (Set<Int64>(), NearHashes())
                let changed = try Self.fetchCandidates(
                    db, where: "id IN (SELECT photo_id FROM group_pending)", [])
                for file in changed {
                    around[file.id] = file
                    nearIDs.formUnion(try Self.nearCandidateIDs(db, of: file, near: &near))
                }
                nearIDs.subtract(around.keys)
                let nearFiles = try Self.fetchCandidates(db, ids: nearIDs.sorted())
                for file in nearFiles { around[file.id] = file }
                // With the groups of all of them, and of groups left broken, each whole.
                let grouped = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT photo_id FROM copy_members WHERE group_id IN (
                            SELECT group_id FROM copy_members WHERE photo_id IN (SELECT photo_id FROM group_pending)
                            UNION \(Self.brokenCopyGroups))
                        """)
                let known = Set(around.keys)
                let ids = Set(grouped).union(
                    try Self.groupMates(db, of: Array(known))
                ).subtracting(known)
                let mates = try Self.fetchCandidates(db, ids: Array(ids))
                for file in mates { around[file.id] = file }
                refresh.filesRead = changed.count + nearFiles.count + mates.count
                let files = around.values.sorted { $0.id < $1.id }
                let groups = DuplicateGroups.find(files, colourLimit: colourLimit, colours: colours)
                try Self.recordCopies(db, groups.map(CopyRecord.init), replacing: Array(known.union(ids)))
            }
            try db.execute(sql: "DELETE FROM group_pending")
            try db.execute(
                sql: "INSERT OR REPLACE INTO state (key, value) VALUES ('group_rules', ?)", arguments: [Self.groupRules]
            )
            return refresh
        }
    }

    /// How sharp the photo with row `id` is: as recorded for its content (`sharpness`, by its
    /// renditions' key), else measured from its renditions and recorded, so that a burst's frame
    /// is measured once, however often its folder's stacks are decided again.
    private static func sharpness(
        of id: Int64, _ db: Database, measuring measure: (_ renditions: [RenditionEntry]) -> Double?
    ) throws -> Double? {
        guard let key = try String.fetchOne(db, sql: "SELECT thumbnail_key FROM photos WHERE id = ?", arguments: [id])
        else { return nil }
        if let known = try Double.fetchOne(db, sql: "SELECT value FROM sharpness WHERE key = ?", arguments: [key]) {
            return known
        }
        guard let value = try renditions(of: [id], db)[id].flatMap(measure) else { return nil }
        try db.execute(sql: "INSERT OR REPLACE INTO sharpness (key, value) VALUES (?, ?)", arguments: [key, value])
        return value
    }

    /// RAW pairs of the files `filter` selects in no stack with files in no stack in other
    /// folders: the same camera (its serial number too, where both have one) at the same
    /// instant, to the fraction of a second; found by the capture time's index.
    private static func pairAcrossFolders(
        _ db: Database, where filter: String, _ arguments: StatementArguments
    )
        throws
    {
        let unstacked = "id NOT IN (SELECT photo_id FROM stack_members) AND kind = 'photo'"
        // (their rows read 500 at a time: a library may hold a great many RAWs)
        let alone = try Int64.fetchAll(
            db, sql: "SELECT id FROM photos WHERE \(filter) AND captured_at LIKE '%.%' AND \(unstacked) ORDER BY id",
            arguments: arguments)
        for chunk in alone.chunks(of: 500) {
            let files = try fetchCandidates(db, ids: Array(chunk))
            for file in files.sorted(by: { $0.id < $1.id }) { try pair(db, file, unstacked: unstacked) }
        }
    }

    /// Records `file` and its RAW pair in another folder as a stack, when it has one.
    private static func pair(_ db: Database, _ file: ComparedFile, unstacked: String) throws {
        let partners = try fetchCandidates(
            db, where: "captured_at = ? AND album_id <> ? AND (\(PhotoSQL.format(\.isRaw))) <> ? AND \(unstacked)",
            [file.capturedAt, file.albumID, file.format.traits.isRaw]
        ).filter { $0.make == file.make && $0.model == file.model && StackGroups.sameBody($0, file) }
        let processed = (file.format.traits.isRaw ? partners : [file]).sorted {
            DuplicateGroups.preferred($0, over: $1)
        }
        let raws = (file.format.traits.isRaw ? [file] : partners).sorted {
            $0.pathBytes.lexicographicallyPrecedes($1.pathBytes)
        }
        guard let face = processed.first, let raw = raws.first else { return }
        try recordStacks(
            db,
            [
                Stack(
                    kind: .rawPair, members: [face, raw],
                    why: "the \(face.format.rawValue) the camera made at the RAW's instant, in another folder")
            ], replacing: [])
    }

    /// Stacks and copy groups a deleted file left with fewer than two members or without a first.
    private static let brokenStacks = """
        SELECT stack_id FROM stack_members GROUP BY stack_id HAVING COUNT(*) < 2 OR MIN(position) > 0
        UNION SELECT id FROM stacks WHERE id NOT IN (SELECT stack_id FROM stack_members)
        """
    static let brokenCopyGroups = """
        SELECT group_id FROM copy_members GROUP BY group_id HAVING COUNT(*) < 2 OR MIN(position) > 0
        """

    private static func brokenGroups(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (\(brokenStacks) UNION \(brokenCopyGroups))") ?? false
    }

    /// The members of the copy groups `ids` are in.
    private static func groupMates(_ db: Database, of ids: [Int64]) throws -> [Int64] {
        // (each group once: 100,000 files of one group are not 200 queries of 100,000 rows)
        var groups = Set<Int64>()
        for chunk in ids.chunks(of: 500) {
            groups.formUnion(
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT group_id FROM copy_members
                        WHERE photo_id IN (\(databaseQuestionMarks(count: chunk.count)))
                        """, arguments: StatementArguments(Array(chunk))))
        }
        var mates: [Int64] = []
        for chunk in Array(groups).chunks(of: 500) {
            mates += try Int64.fetchAll(
                db,
                sql: """
                    SELECT photo_id FROM copy_members
                    WHERE group_id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """,
                arguments: StatementArguments(Array(chunk)))
        }
        return mates
    }

    /// Replaces the stacks of the files `replacing` by `stacks`, unless they are already those.
    private static func recordStacks(_ db: Database, _ stacks: [Stack], replacing ids: [Int64]) throws {
        let old = try storedStacks(db, members: ids)
        let key = { (stack: Stack) in "\(stack.kind.rawValue) \(stack.why) \(stack.members.map(\.id))" }
        guard Set(old.map(key)) != Set(stacks.map(key)) else { return }
        for chunk in ids.chunks(of: 500) {
            try db.execute(
                sql: """
                    DELETE FROM stacks WHERE id IN (SELECT stack_id FROM stack_members
                        WHERE photo_id IN (\(databaseQuestionMarks(count: chunk.count))))
                    """, arguments: StatementArguments(Array(chunk)))
        }
        try db.execute(sql: "DELETE FROM stacks WHERE id IN (\(brokenStacks))")
        for stack in stacks {
            try db.cachedStatement(sql: "INSERT INTO stacks (kind, why) VALUES (?, ?)").execute(
                arguments: [stack.kind.rawValue, stack.why])
            let id = db.lastInsertedRowID
            for (position, member) in stack.members.enumerated() {
                try db.cachedStatement(sql: "INSERT INTO stack_members (photo_id, stack_id, position) VALUES (?, ?, ?)")
                    .execute(arguments: [member.id, id, position])
            }
        }
    }

    /// The recorded stacks, largest first.
    public func recordedStacks() throws(IndexError) -> [Stack] {
        try read { db in try Self.storedStacks(db, members: nil) }
    }

    /// The recorded copy groups, largest first.
    public func recordedCopyGroups() throws(IndexError) -> [DuplicateGroup] {
        try read { db in try Self.storedCopies(db, members: nil).map(\.group) }
    }

    /// The stack and the copy group the file with row `id` is in, as recorded.
    public func groups(of id: Int64) throws(IndexError) -> (stack: Stack?, copies: DuplicateGroup?) {
        try read { db in
            (try Self.storedStacks(db, members: [id]).first, try Self.storedCopies(db, members: [id]).first?.group)
        }
    }

    /// The recorded stacks that hold any of `members` (nil: all), largest first.
    private static func storedStacks(_ db: Database, members: [Int64]?) throws -> [Stack] {
        try stored(db, groups: "stacks", kind: "kind", members: "stack_members", by: "stack_id", holding: members).map {
            Stack(kind: Stack.Kind(rawValue: $0.rule) ?? .burst, members: $0.members, why: $0.why)
        }
    }

    /// The recorded copy groups that hold any of `members` (nil: all), largest first.
    private static func storedCopies(_ db: Database, members: [Int64]?) throws -> [(id: Int64, group: DuplicateGroup)] {
        try stored(db, groups: "copy_groups", kind: "rule", members: "copy_members", by: "group_id", holding: members)
            .map {
                (
                    $0.id,
                    DuplicateGroup(
                        rule: DuplicateGroup.Rule(rawValue: $0.rule) ?? .samePicture, members: $0.members, why: $0.why)
                )
            }
    }

    /// The recorded groups of table `groups` (whose members are in table `members`, by column
    /// `by`) that hold any of `holding` (nil: all), largest first: each one's row, `kind`
    /// column, why its first is first, and its files in order.
    private static func stored(
        _ db: Database, groups: String, kind: String, members: String, by group: String, holding: [Int64]?
    ) throws -> [(id: Int64, rule: String, why: String, members: [ComparedFile])] {
        try stored(
            db, groups: groups, kind: kind, members: members, by: group, holding: holding,
            columns: prefixedCandidateColumns, fromPhotos: true
        ) { candidate($0, from: 3) }
        .sorted { ($0.members.count, $1.members[0].id) > ($1.members.count, $0.members[0].id) }
    }

    /// The recorded groups of table `groups` that hold any of `holding` (nil: all), in no
    /// particular order, each member made by `member` of a row of `g.id, g.<kind>, g.why` and
    /// `columns` (of the member row `m`, and of `photos` when `fromPhotos`).
    static func stored<Member>(
        _ db: Database, groups: String, kind: String, members: String, by group: String, holding: [Int64]?,
        columns: String, fromPhotos: Bool, member: (Row) -> Member
    ) throws -> [(id: Int64, rule: String, why: String, members: [Member])] {
        var found: [Int64: (id: Int64, rule: String, why: String, members: [Member])] = [:]
        var earlier = Set<Int64>()
        for chunk in batches(holding) {
            let filter = chunk.map {
                "WHERE g.id IN (SELECT \(group) FROM \(members) "
                    + "WHERE photo_id IN (\(databaseQuestionMarks(count: $0.count))))"
            }
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT g.id, g.\(kind), g.why, \(columns) FROM \(groups) g JOIN \(members) m ON m.\(group) = g.id
                    \(fromPhotos ? "JOIN photos ON photos.id = m.photo_id" : "") \(filter ?? "")
                    ORDER BY g.id, m.position
                    """,
                arguments: StatementArguments(chunk ?? []))
            // (a group holding files of two statements' worth is read by both: kept once)
            var read = Set<Int64>()
            while let row = try rows.next() {
                let id: Int64 = row[0]
                guard !earlier.contains(id) else { continue }
                read.insert(id)
                found[id, default: (id, row[1], row[2], [])].members.append(member(row))
            }
            earlier.formUnion(read)
        }
        return Array(found.values)
    }
}

extension PhotoIndex {
    /// `ids` in statements' worth, or one statement for all rows when nil.
    static func batches(_ ids: [Int64]?) -> [[Int64]?] {
        ids.map { $0.chunks(of: 500).map { Array($0) } } ?? [nil]
    }
}

extension Array {
    /// The array in consecutive slices of at most `size` elements (SQLite's bound on one
    /// statement's arguments).
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
