public import SystemPackage

/// Why a photo could not be read, decoded or encoded: the file's path, a code and a
/// reason a person can act on, plus the library's own message when one gave it.
///
/// Metadata and pixel work share this type because the index records one
/// reason per failed file, whichever stage failed. Codes are extensible
/// static members: `catch let error as PhotoError where error.code == .truncated`.
public struct PhotoError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case io, vanished, permission, notAFile, notAnImage, truncated, corrupt, unsupported, tooLarge, encode,
                crashed
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The code named `text` (as `description` writes it), or nil.
        public init?(_ text: String) {
            guard let kind = Kind(rawValue: text) else { return nil }
            self.kind = kind
        }

        /// The file could not be read (an I/O error, a stale mount, a full disk).
        public static let io = Code(.io)
        /// The file, or a directory above it, disappeared while Tessera worked on it.
        public static let vanished = Code(.vanished)
        /// Permissions forbid reading the file.
        public static let permission = Code(.permission)
        /// The path names a FIFO, a device, a socket or a link not followed: nothing to read.
        public static let notAFile = Code(.notAFile)
        /// The magic bytes match no supported format.
        public static let notAnImage = Code(.notAnImage)
        /// The file ends before its header does.
        public static let truncated = Code(.truncated)
        /// The header is malformed (bad marker, bad CRC, impossible value).
        public static let corrupt = Code(.corrupt)
        /// A valid image in a variant Tessera does not decode.
        public static let unsupported = Code(.unsupported)
        /// The image declares more pixels than the configured limit.
        public static let tooLarge = Code(.tooLarge)
        /// An encoder refused the pixels it was given.
        public static let encode = Code(.encode)
        /// Tessera stopped while reading the file (a crash, or killed), twice, the second time
        /// reading it alone: it is not read again until it changes.
        public static let crashed = Code(.crashed)

        public var description: String { kind.rawValue }

        /// Whether the same file may well read fine next time (I/O, permission, vanished):
        /// a file recorded with such an error is tried again even when it looks unchanged.
        public var isTransient: Bool { kind == .io || kind == .vanished || kind == .permission }
    }

    public var code: Code
    /// The file concerned; empty when the bytes came from memory.
    public var path: FilePath
    /// One line saying what is wrong, without the path.
    public var message: String
    /// The underlying library's message (TurboJPEG, libpng, errno), when it gave one.
    public var cause: String?

    public init(_ code: Code, path: FilePath = FilePath(), _ message: String, cause: String? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.cause = cause
    }

    /// The same error, naming `path`.
    public func at(_ path: FilePath) -> PhotoError {
        var copy = self
        copy.path = path
        return copy
    }

    /// The message and its cause, without the path: what the index records.
    public var reason: String {
        guard let cause, !cause.isEmpty, cause != message else { return message }
        return "\(message) (\(cause))"
    }

    public var description: String {
        path.isEmpty ? reason : "\(path): \(reason)"
    }
}
