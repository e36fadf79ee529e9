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
            case io, notAnImage, truncated, corrupt, unsupported, tooLarge, encode
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The file could not be opened, read or stat'ed.
        public static let io = Code(.io)
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

        public var description: String { kind.rawValue }
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
