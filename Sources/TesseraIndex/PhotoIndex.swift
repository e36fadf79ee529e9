import CSQLiteConfig
import Foundation
import GRDB
public import SystemPackage
import TesseraSystem

/// The SQLite index file: one database pool for the life of the process.
///
/// Writers open it read-write, which runs pending migrations; readers open it
/// read-only at any time, also while a scan writes. The file is in WAL mode,
/// so readers see the last committed batch and never a partial one.
///
/// No connection checkpoints when it closes: that checkpoint takes an exclusive
/// lock on the file, and a reader opening it at that instant (`sqlite3
/// -readonly` has no busy timeout) would see "database is locked". A writer
/// calls `checkpoint()` before it lets go instead, which never blocks readers.
public final class PhotoIndex: Sendable {
    public let path: FilePath
    let pool: DatabasePool

    /// Opens (creating when `readOnly` is false) the index at `path`.
    ///
    /// - Throws: `IndexError` naming the path when the file cannot be opened,
    ///   is not a Tessera index, or comes from a newer Tessera.
    public init(path: FilePath, readOnly: Bool = false) throws(IndexError) {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            if let connection = db.sqliteConnection {
                _ = CSQLiteConfig_disable_checkpoint_on_close(UnsafeMutableRawPointer(connection))
            }
            // NORMAL is durable against process crashes in WAL mode; only power loss
            // can lose the last transactions, and never consistency.
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // The writer's inserts land all over the path and identity indexes once the
                // library outgrows SQLite's default 2 MiB cache: 16 MiB keeps their upper
                // levels in memory, for the writer alone, whatever the library's size.
                try db.execute(sql: "PRAGMA cache_size = -16384")
                // The writer's statement journals and temporary tables are a batch's worth: in
                // memory, not a temporary file written some twenty times per photo committed.
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
            }
        }
        do {
            if !readOnly {
                let directory = path.removingLastComponent()
                if !directory.isEmpty { try FileSystem.createDirectories(directory) }
            } else if (try? FileSystem.status(of: path)) == nil {
                throw IndexError(.missing, path: path, "no index file here; run `tessera scan` first")
            }
            pool = try DatabasePool(path: path.string, configuration: configuration)
            let version = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            guard version <= Self.schemaVersion else {
                throw IndexError(
                    .newerSchema, path: path,
                    "index schema \(version) is newer than this Tessera (\(Self.schemaVersion))")
            }
            if !readOnly {
                try Self.migrator().migrate(pool)
            } else if version == 0 {
                // An empty file, or one whose write-ahead log was deleted before its first checkpoint.
                throw IndexError(
                    .missing, path: path,
                    "holds no index: an empty file, or one whose write-ahead log (\(path)-wal) was lost; "
                        + "run `tessera scan` to build it")
            } else if version < Self.schemaVersion {
                throw IndexError(.needsMigration, path: path, "index schema \(version) needs a scan to migrate it")
            }
        } catch let error as IndexError {
            throw error
        } catch {
            throw Self.indexError(error, path: path, doing: "cannot open the index")
        }
    }

    /// Copies the WAL into the database and empties it, so the next process to open the
    /// file has nothing to recover.
    ///
    /// Readers are never blocked; a reader in the middle of a
    /// transaction only makes it wait (the busy timeout) and then leaves the WAL as it is.
    public func checkpoint() {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// Runs `PRAGMA integrity_check`; "ok" when the file is sound.
    public func integrityCheck() throws(IndexError) -> String {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
    }

    func read<T>(_ body: (Database) throws -> T) throws(IndexError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw Self.indexError(error, path: path)
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(IndexError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw Self.indexError(error, path: path)
        }
    }

    /// An `IndexError` that keeps SQLite's result code; `doing` prefixes the message.
    static func indexError(_ error: any Error, path: FilePath, doing: String? = nil) -> IndexError {
        if let error = error as? IndexError { return error }
        let prefix = doing.map { "\($0): " } ?? ""
        guard let error = error as? DatabaseError else { return IndexError(.other, path: path, prefix + "\(error)") }
        let extended = error.extendedResultCode.rawValue
        var code = IndexError.Code(sqliteResultCode: extended)
        // SQLITE_IOERR_WRITE and friends on a full disk: errno is ENOSPC.
        if code == .io, error.message?.contains("No space left") == true { code = .full }
        var message = error.message ?? "\(error.resultCode)"
        if code == .corrupt { message = damaged(message, path: path) }
        return IndexError(code, path: path, prefix + message, resultCode: extended)
    }
}
