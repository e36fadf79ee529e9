import Foundation
import GRDB
import SystemPackage
import TesseraSystem

/// What the last build left in the output, in `.tessera-album.sqlite`, and the folder tree of
/// this one: on disk, so that a build holds none of a library's albums in memory, however many
/// it has.
///
/// - `site`: the options the pages were written with, and the index's change counter they show;
/// - `albums`, `months`: each album's and month's entry (`SiteManifest.Album`, `.Month`, as
///   JSON), an album's written as soon as its pages are in place;
/// - `temp.nodes`: this build's folder tree (`AlbumTree`), in a temporary table of the
///   connection (a file SQLite removes itself), never in the output.
///
/// A build that changes nothing writes nothing here. One connection, serialized: the build's two
/// writers share it.
final class SiteState: Sendable {
    static let fileName = ".tessera-album.sqlite"
    /// Where builds before this file kept their entries: removed.
    static let formerManifest = ".tessera-album.json"

    let queue: DatabaseQueue
    let path: FilePath
    /// Whether the entries were written with these options; else there are none.
    let matches: Bool
    /// The index's change counter the last build's pages show.
    let change: Int64

    /// Opens the state in `output` (made when missing, made again when unreadable or of other
    /// options: then it holds no entries).
    init(output: OutputFolder, options: String) throws(AlbumError) {
        path = output.path(Self.fileName)
        if (try? FileSystem.linkStatus(of: output.path(Self.formerManifest))) != nil {
            try output.remove(Self.formerManifest)
        }
        // SQLite opens what a name points to: a link (or a folder) put in place of the file or
        // its log is removed, so the state is never written outside the output.
        for name in [Self.fileName, Self.fileName + "-wal", Self.fileName + "-shm"] {
            if let status = try? FileSystem.linkStatus(of: output.path(name)), status.type != .regular {
                try output.remove(name)
            }
        }
        var opened: (DatabaseQueue, Bool, Int64)?
        do {
            opened = try Self.open(path, options: options)
        } catch {
            // Not a database, or not ours: it is the build's own file, made again.
            try output.remove(Self.fileName)
        }
        do {
            (queue, matches, change) = try opened ?? Self.open(path, options: options)
        } catch {
            throw AlbumError(.output, "\(path): cannot keep the build's state: \(error)")
        }
    }

    private static func open(_ path: FilePath, options: String) throws -> (DatabaseQueue, Bool, Int64) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // An entry committed per album: a write-ahead log syncs at checkpoints, not at each
            // (a crash loses none; a power cut at most the last entries, whose pages are then
            // written again).
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // An album's entry deleted (a folder made private) leaves no trace in the file's free pages.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // Bounded caches: the tree and the entries are read a few rows at a time.
            try db.execute(sql: "PRAGMA cache_size = -512")
            try db.execute(sql: "PRAGMA temp_store = FILE")
            try db.execute(sql: "PRAGMA temp.cache_size = -512")
        }
        let queue = try DatabaseQueue(path: path.string, configuration: configuration)
        // Read first, written only when it must be: an unchanged build leaves the file as it was.
        let (version, row) = try queue.inDatabase { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA user_version"),
                try? Row.fetchOne(db, sql: "SELECT options, change FROM site")
            )
        }
        if version == 1, let row, row["options"] as String? == options {
            return (queue, true, row["change"] as Int64? ?? 0)
        }
        try queue.inTransaction { db in
            try db.execute(
                sql: """
                    DROP TABLE IF EXISTS site; DROP TABLE IF EXISTS albums; DROP TABLE IF EXISTS months;
                    CREATE TABLE site (options TEXT NOT NULL, change INTEGER NOT NULL);
                    CREATE TABLE albums (folder TEXT PRIMARY KEY, entry TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE months (month TEXT PRIMARY KEY, entry TEXT NOT NULL) WITHOUT ROWID;
                    PRAGMA user_version = 1;
                    """)
            try db.execute(sql: "INSERT INTO site VALUES (?, 0)", arguments: [options])
            return .commit
        }
        return (queue, false, 0)
    }

    /// Closes the connection: SQLite folds the log into the file and removes it and its index,
    /// so the output holds the one file once the build is over, whoever still holds this.
    func close() {
        try? queue.close()
    }

    /// Runs `body` on the state's connection.
    func access<T>(_ body: (Database) throws -> T) throws(AlbumError) -> T {
        do {
            return try queue.inDatabase(body)
        } catch let error as AlbumError {
            throw error
        } catch {
            throw AlbumError(.output, "\(path): cannot keep the build's state: \(error)")
        }
    }

    /// The last build's entry of the album in `folder`.
    func album(_ folder: String) throws(AlbumError) -> SiteManifest.Album? {
        try access { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT entry FROM albums WHERE folder = ?"), arguments: [folder])
        }.flatMap { Self.decode($0) }
    }

    /// Records the album's entry, unless it is `old` already.
    func setAlbum(_ folder: String, _ entry: SiteManifest.Album, old: SiteManifest.Album?) throws(AlbumError) {
        guard entry != old else { return }
        let text = try Self.encode(entry)
        try access { db in
            let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO albums VALUES (?, ?)")
            try insert.execute(arguments: [folder, text])
        }
    }

    /// Forgets the entries of the albums this build has no pages of.
    func removeAlbums(keeping shown: AlbumTree) throws(AlbumError) {
        try access { db in
            let gone = "SELECT folder FROM albums WHERE folder NOT IN (SELECT folder FROM temp.nodes WHERE shown)"
            // (asked first: a statement that deletes nothing still takes the write lock)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (\(gone))") == true {
                try db.execute(sql: "DELETE FROM albums WHERE folder IN (\(gone))")
            }
        }
    }

    /// The last build's months: a few hundred at most (one a month), kept whole.
    func months() throws(AlbumError) -> [String: SiteManifest.Month] {
        let rows = try access { db in
            try Row.fetchAll(db, sql: "SELECT month, entry FROM months").map {
                ($0[0] as String? ?? "", $0[1] as String? ?? "")
            }
        }
        var months: [String: SiteManifest.Month] = [:]
        for (month, text) in rows { months[month] = Self.decode(text) }
        return months
    }

    /// Records this build's months where they differ from `old`, and the change counter its
    /// pages show.
    func finish(
        months: [String: SiteManifest.Month], old: [String: SiteManifest.Month], change: Int64
    ) throws(AlbumError) {
        var changed: [(String, String)] = []
        for (month, entry) in months where old[month] != entry { changed.append((month, try Self.encode(entry))) }
        let gone = old.keys.filter { months[$0] == nil }
        guard !changed.isEmpty || !gone.isEmpty || change != self.change else { return }
        try access { db in
            try db.inTransaction {
                for (month, text) in changed {
                    try db.execute(sql: "INSERT OR REPLACE INTO months VALUES (?, ?)", arguments: [month, text])
                }
                for month in gone { try db.execute(sql: "DELETE FROM months WHERE month = ?", arguments: [month]) }
                try db.execute(sql: "UPDATE site SET change = ?", arguments: [change])
                return .commit
            }
        }
    }

    private static func encode(_ entry: some Encodable) throws(AlbumError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(entry) else {
            throw AlbumError(.output, "cannot encode the build's state")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Nil for an entry no longer readable (of an older build): its pages are written again.
    private static func decode<T: Decodable>(_ text: String) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
