import Foundation
import GRDB
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// The albums as the folder tree: each under the folder above it, and every folder between an
/// album and its root a node too, though it holds no photo of its own (`Trips` above
/// `Trips/2023/Rome`): its page shows the albums inside it.
///
/// A folder's node has an id below zero, derived from its path (the same in every build), and
/// its descendants' photo count and dates.
///
/// The tree is a table of the site's state (`temp.nodes`, `SiteState`), made from the index one
/// album at a time and read a level and a few rows at a time: a build holds the nodes it is
/// drawing, never the tree.
struct AlbumTree: Sendable {
    /// One node, as read from the table.
    struct Node {
        /// A folder's: its photo count and dates are those of the albums below it.
        var album: AlbumRecord
        /// `albums/<name>` in the output.
        var folder: String
        var parent: Int64?
        /// The dates of the photos in the node and below it.
        var oldest: String?
        var newest: String?
        /// The name of the node above it, when there is one.
        var parentName: String?
        /// Whether this build has pages of it (so far: a node is drawn after those inside it).
        var shown: Bool

        var id: Int64 { album.id }
        /// Whether the node is a folder that holds albums only.
        var isFolder: Bool { album.id < 0 }

        /// The node's own name, below its parent ("Rome" in "Trips/2023/Rome").
        var title: String {
            let own = AlbumBuilder.title(album)
            guard let above = parentName, !above.isEmpty, own.hasPrefix(above + "/") else {
                return own.split(separator: "/").last.map(String.init) ?? own
            }
            return String(own.dropFirst(above.count + 1))
        }

        /// "2023-05-01 – 2024-07-02", or one day: the dates of its photos and those below it.
        var range: String {
            var dated = album
            (dated.oldestCapturedAt, dated.newestCapturedAt) = (oldest, newest)
            return AlbumBuilder.dateRange(dated)
        }
    }

    private let state: SiteState
    private let order: AlbumOrder
    /// The deepest node's level (a root's is 0).
    private let deepest: Int

    /// The most levels followed up from an album: deeper trees end there.
    static let maxDepth = 256

    /// Makes the tree of those albums `index` has that it `shows` (by id: not private ones).
    init(
        index: any PhotoReading, state: SiteState, order: AlbumOrder, shows: (Int64) -> Bool = { _ in true }
    ) throws(AlbumError) {
        self.state = state
        self.order = order
        try state.access { db in
            try db.execute(
                sql: """
                    DROP TABLE IF EXISTS temp.nodes;
                    CREATE TEMP TABLE nodes (
                        id INTEGER PRIMARY KEY, parent INTEGER, level INTEGER NOT NULL DEFAULT 0,
                        path BLOB NOT NULL UNIQUE, name TEXT NOT NULL, folder TEXT NOT NULL,
                        photo_count INTEGER NOT NULL, oldest TEXT, newest TEXT, cover INTEGER,
                        change INTEGER NOT NULL, span_oldest TEXT, span_newest TEXT,
                        shown INTEGER NOT NULL DEFAULT 0);
                    CREATE INDEX temp.nodes_parent ON nodes(parent);
                    CREATE INDEX temp.nodes_level ON nodes(level, path);
                    CREATE INDEX temp.nodes_folder ON nodes(folder);
                    """)
        }
        try Self.addAlbums(from: index, state: state, shows: shows)
        try Self.addFolders(state: state)
        deepest = try Self.measure(state: state)
    }

    /// The index's albums the tree `shows`, one row each.
    private static func addAlbums(
        from index: any PhotoReading, state: SiteState, shows: (Int64) -> Bool
    ) throws(AlbumError) {
        try state.access { db in
            try db.inTransaction {
                let insert = try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO nodes (id, path, name, folder, photo_count, oldest, newest, cover, change,
                            span_oldest, span_newest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                var failure: (any Error)?
                try index.forEachAlbum { album in
                    guard shows(album.id) else { return true }
                    do {
                        try insert.execute(arguments: arguments(album))
                        return true
                    } catch {
                        failure = error
                        return false
                    }
                }
                if let failure { throw failure }
                return .commit
            }
        }
    }

    private static func arguments(_ album: AlbumRecord) -> StatementArguments {
        [
            album.id, Data(album.pathBytes), album.name, "albums/" + AlbumBuilder.folderName(album), album.photoCount,
            album.oldestCapturedAt, album.newestCapturedAt, album.coverPhotoID, album.contentChange,
            album.oldestCapturedAt, album.newestCapturedAt,
        ]
    }

    /// Up from each album one folder at a time, while still inside its root (its name is
    /// relative to it): each folder on the way that is no album becomes a node, and each node
    /// learns its parent.
    private static func addFolders(state: SiteState) throws(AlbumError) {
        var after: Int64 = 0
        while true {
            let albums = try state.access { db in
                try Row.fetchAll(
                    db, sql: "SELECT id, path, name FROM nodes WHERE id > ? ORDER BY id LIMIT 512", arguments: [after]
                ).map { row in (id: row[0] as Int64, path: [UInt8](row[1] as Data), name: row[2] as String) }
            }
            guard let last = albums.last else { return }
            after = last.id
            try state.access { db in
                try db.inTransaction {
                    for album in albums { try climb(from: album, db) }
                    return .commit
                }
            }
        }
    }

    private static func climb(from album: (id: Int64, path: [UInt8], name: String), _ db: Database) throws {
        var (child, path) = (album.id, album.path)
        var components = album.name.isEmpty ? [] : album.name.split(separator: "/", omittingEmptySubsequences: false)
        while !components.isEmpty, let slash = path.lastIndex(of: UInt8(ascii: "/")) {
            let above = Array(path[..<slash])
            components.removeLast()
            let existing = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM nodes WHERE path = ?"), arguments: [Data(above)])
            // The root itself is a node only when it is an album (photos directly in it).
            if components.isEmpty && existing == nil { return }
            if existing == nil {
                let folder = AlbumRecord(
                    id: folderID(above), pathBytes: above, name: components.joined(separator: "/"), photoCount: 0)
                try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO nodes (id, path, name, folder, photo_count, change)
                        VALUES (?, ?, ?, ?, 0, 0)
                        """
                ).execute(arguments: [folder.id, Data(above), folder.name, "albums/" + AlbumBuilder.folderName(folder)])
            }
            // (a path whose id another folder's has is left out: its albums stay roots)
            guard
                let parent = try existing
                    ?? Int64.fetchOne(
                        db.cachedStatement(sql: "SELECT id FROM nodes WHERE path = ?"), arguments: [Data(above)])
            else { return }
            try db.cachedStatement(sql: "UPDATE nodes SET parent = ? WHERE id = ?").execute(arguments: [parent, child])
            // An album, or a folder already climbed from: what is above it is in place.
            if existing != nil { return }
            (child, path) = (parent, above)
        }
    }

    /// Each node's level, and each album's photos and dates counted in every node above it;
    /// returns the deepest level.
    private static func measure(state: SiteState) throws(AlbumError) -> Int {
        var after = Int64.min
        var deepest = 0
        while true {
            let nodes = try state.access { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, parent, photo_count, oldest, newest FROM nodes WHERE id > ? ORDER BY id LIMIT 512
                        """,
                    arguments: [after]
                ).map { row in
                    (
                        id: row[0] as Int64, parent: row[1] as Int64?, count: row[2] as Int, oldest: row[3] as String?,
                        newest: row[4] as String?
                    )
                }
            }
            guard let last = nodes.last else { return deepest }
            after = last.id
            try state.access { db in
                try db.inTransaction {
                    let parentOf = try db.cachedStatement(sql: "SELECT parent FROM nodes WHERE id = ?")
                    let widen = try db.cachedStatement(
                        sql: """
                            UPDATE nodes SET span_oldest = coalesce(min(span_oldest, ?1), span_oldest, ?1),
                                span_newest = coalesce(max(span_newest, ?2), span_newest, ?2),
                                photo_count = photo_count + (CASE WHEN id < 0 THEN ?3 ELSE 0 END)
                            WHERE id = ?4
                            """)
                    for node in nodes {
                        var (level, above) = (0, node.parent)
                        while let ancestor = above, level < maxDepth {
                            // Folders count what is below them; albums are counted once, from themselves.
                            if node.id >= 0 {
                                try widen.execute(arguments: [node.oldest, node.newest, node.count, ancestor])
                            }
                            level += 1
                            above = try Int64.fetchOne(parentOf, arguments: [ancestor])
                        }
                        if level > 0 {
                            try db.execute(sql: "UPDATE nodes SET level = ? WHERE id = ?", arguments: [level, node.id])
                        }
                        deepest = max(deepest, level)
                    }
                    return .commit
                }
            }
        }
    }

    /// A folder's id: below zero, and the same for the same path in every build.
    private static func folderID(_ path: [UInt8]) -> Int64 {
        -Int64(XXH64.hash(path) >> 2) - 1
    }

    private static let columns = """
        n.id, n.path, n.name, n.folder, n.photo_count, n.oldest, n.newest, n.cover, n.change, n.parent,
        n.span_oldest, n.span_newest, p.name, n.shown FROM nodes n LEFT JOIN nodes p ON p.id = n.parent
        """

    private static func node(_ row: Row) -> Node {
        var album = AlbumRecord(
            id: row[0], pathBytes: [UInt8](row[1] as Data), name: row[2], photoCount: row[4], newestCapturedAt: row[6],
            oldestCapturedAt: row[5], coverPhotoID: row[7], contentChange: row[8])
        let (oldest, newest): (String?, String?) = (row[10], row[11])
        if album.id < 0 { (album.oldestCapturedAt, album.newestCapturedAt) = (oldest, newest) }
        return Node(
            album: album, folder: row[3], parent: row[9], oldest: oldest, newest: newest, parentName: row[12],
            shown: row[13])
    }

    private func nodes(where condition: String, _ arguments: StatementArguments) throws(AlbumError) -> [Node] {
        try state.access { db in
            // (a few conditions, each asked once a node: prepared once)
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(Self.columns) WHERE \(condition)"), arguments: arguments
            ).map(Self.node)
        }
    }

    /// Calls `visit` with every node, deepest first (a node's albums come before it), then by path.
    func forEachNode(_ visit: (Node) throws(AlbumError) -> Void) throws(AlbumError) {
        for level in stride(from: deepest, through: 0, by: -1) {
            var after = Data()
            while true {
                let batch = try nodes(
                    where: "n.level = ? AND n.path > ? ORDER BY n.path LIMIT 256", [level, after])
                guard let last = batch.last else { break }
                after = Data(last.album.pathBytes)
                for node in batch { try visit(node) }
            }
        }
    }

    /// The nodes no other holds, in the site's order.
    func roots() throws(AlbumError) -> [Node] {
        sorted(try nodes(where: "n.parent IS NULL", []))
    }

    /// The nodes inside `node`, in the site's order.
    func children(of node: Node) throws(AlbumError) -> [Node] {
        sorted(try nodes(where: "n.parent = ?", [node.id]))
    }

    /// From the outermost node down to the node's parent.
    func ancestors(of node: Node) throws(AlbumError) -> [Node] {
        var chain: [Node] = []
        var above = node.parent
        while let id = above, chain.count < Self.maxDepth, let next = try nodes(where: "n.id = ?", [id]).first {
            chain.insert(next, at: 0)
            above = next.parent
        }
        return chain
    }

    /// Notes that this build has pages of the node (its card may be shown).
    func markShown(_ node: Node) throws(AlbumError) {
        try state.access { db in
            try db.cachedStatement(sql: "UPDATE nodes SET shown = 1 WHERE id = ?").execute(arguments: [node.id])
        }
    }

    /// Whether this build has pages of the node in `folder`.
    func isShown(folder: String) throws(AlbumError) -> Bool {
        try state.access { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM nodes WHERE folder = ? AND shown)"),
                arguments: [folder])
        } ?? false
    }

    /// Calls `visit` with the folder of every node this build has pages of, a few at a time.
    func forEachShownFolder(_ visit: (String) throws(AlbumError) -> Void) throws(AlbumError) {
        var after = ""
        while true {
            let folders = try state.access { db in
                try String.fetchAll(
                    db, sql: "SELECT folder FROM nodes WHERE shown AND folder > ? ORDER BY folder LIMIT 256",
                    arguments: [after])
            }
            guard let last = folders.last else { return }
            after = last
            for folder in folders { try visit(folder) }
        }
    }

    /// The folders of the albums `ids` (those the tree has).
    func folders(of ids: some Swift.Collection<Int64>) throws(AlbumError) -> [Int64: String] {
        var folders: [Int64: String] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids.dropFirst($0).prefix(500)) }) {
            let rows = try state.access { db in
                try Row.fetchAll(
                    db, sql: "SELECT id, folder FROM nodes WHERE id IN (\(databaseQuestionMarks(count: chunk.count)))",
                    arguments: StatementArguments(chunk))
            }
            for row in rows { folders[row[0]] = row[1] }
        }
        return folders
    }

    /// `nodes`, those with the newest photos first.
    func newestFirst(_ nodes: [Node]) -> [Node] {
        nodes.sorted { first, second in
            let (one, two) = (first.newest ?? "", second.newest ?? "")
            return one != two ? one > two : first.album.pathBytes.lexicographicallyPrecedes(second.album.pathBytes)
        }
    }

    private func sorted(_ nodes: [Node]) -> [Node] {
        let byName = { (first: Node, second: Node) -> Bool in
            switch first.album.name.compare(second.album.name, options: [.caseInsensitive, .numeric]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: first.album.pathBytes.lexicographicallyPrecedes(second.album.pathBytes)
            }
        }
        switch order {
        case .name: return nodes.sorted(by: byName)
        case .date:
            return nodes.sorted { first, second in
                let (one, two) = (first.newest ?? "", second.newest ?? "")
                return one != two ? one > two : byName(first, second)
            }
        }
    }
}
