public import SystemPackage

/// A failure opening, migrating, reading or writing the index file, with SQLite's result code.
///
/// Codes let callers act on the cause: wait and retry on `busy`, report `full`, stop on
/// `corrupt`. `catch let error as IndexError where error.code == .full`.
public struct IndexError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case busy, full, corrupt, readOnly, io, cannotOpen, missing, newerSchema, needsMigration, other
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// Another connection holds a lock (SQLITE_BUSY, SQLITE_LOCKED).
        public static let busy = Code(.busy)
        /// The disk is full (SQLITE_FULL, or an I/O error that is ENOSPC).
        public static let full = Code(.full)
        /// The file is damaged or not a database (SQLITE_CORRUPT, SQLITE_NOTADB).
        public static let corrupt = Code(.corrupt)
        /// The file or its directory cannot be written (SQLITE_READONLY).
        public static let readOnly = Code(.readOnly)
        /// The operating system reported an I/O error (SQLITE_IOERR).
        public static let io = Code(.io)
        /// The file cannot be opened (SQLITE_CANTOPEN).
        public static let cannotOpen = Code(.cannotOpen)
        /// There is no index at the path (read-only opening).
        public static let missing = Code(.missing)
        /// The file comes from a newer Tessera.
        public static let newerSchema = Code(.newerSchema)
        /// The file needs a migration that a read-only opening cannot make.
        public static let needsMigration = Code(.needsMigration)
        /// Anything else SQLite or GRDB reported.
        public static let other = Code(.other)

        public var description: String { kind.rawValue }

        /// The code for an SQLite primary result code (the low byte of an extended one).
        init(sqliteResultCode code: Int32) {
            switch code & 0xFF {
            case 5, 6: self = .busy
            case 13: self = .full
            case 11, 26: self = .corrupt
            case 8: self = .readOnly
            case 10: self = .io
            case 14: self = .cannotOpen
            default: self = .other
            }
        }
    }

    public var code: Code
    public var path: FilePath
    public var message: String
    /// SQLite's extended result code, when SQLite gave one.
    public var resultCode: Int32?

    public init(_ code: Code, path: FilePath, _ message: String, resultCode: Int32? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.resultCode = resultCode
    }

    public var description: String { "\(path): \(message)" }
}
