import Foundation
public import GRDB
public import SystemPackage

/// The SQLite index file: one database pool for the life of the process.
///
/// Writers open it read-write, which runs pending migrations; readers open it
/// read-only at any time, also while a scan writes. The file is in WAL mode,
/// so readers see the last committed batch and never a partial one.
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
            // NORMAL is durable against process crashes in WAL mode; only power loss
            // can lose the last transactions, and never consistency.
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        do {
            if !readOnly {
                let directory = path.removingLastComponent()
                if !directory.isEmpty {
                    try FileManager.default.createDirectory(
                        atPath: directory.string, withIntermediateDirectories: true)
                }
            } else if !FileManager.default.fileExists(atPath: path.string) {
                throw IndexError(path: path, "no index file here; run `tessera scan` first")
            }
            pool = try DatabasePool(path: path.string, configuration: configuration)
            let version = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            guard version <= Self.schemaVersion else {
                throw IndexError(path: path, "index schema \(version) is newer than this Tessera (\(Self.schemaVersion))")
            }
            if !readOnly {
                try Self.migrator.migrate(pool)
            } else if version < Self.schemaVersion {
                throw IndexError(path: path, "index schema \(version) needs a scan to migrate it")
            }
        } catch let error as IndexError {
            throw error
        } catch {
            throw IndexError(path: path, "cannot open the index: \(Self.describe(error))")
        }
    }

    /// Runs `PRAGMA integrity_check`; "ok" when the file is sound.
    public func integrityCheck() throws(IndexError) -> String {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
    }

    func read<T>(_ body: (Database) throws -> T) throws(IndexError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw IndexError(path: path, Self.describe(error))
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(IndexError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw IndexError(path: path, Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return "\(error)"
    }
}
