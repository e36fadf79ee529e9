public import SystemPackage

/// Why a JPEG XL file could not be read: the file, a code, and words a person can act on.
///
/// Codes are extensible static members, as `PhotoError`'s are.
public struct JXLError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case corrupt, truncated, unsupported, tooLarge }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The container or the codestream is damaged.
        public static let corrupt = Code(.corrupt)
        /// The file ends before what the image needs.
        public static let truncated = Code(.truncated)
        /// A valid file in a variant libjxl cannot decode.
        public static let unsupported = Code(.unsupported)
        /// Decoding would need more memory than allowed.
        public static let tooLarge = Code(.tooLarge)

        public var description: String { kind.rawValue }
    }

    public var code: Code
    /// The file concerned; empty when the bytes came from memory.
    public var path: FilePath
    /// One line saying what is wrong, without the path.
    public var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.path = FilePath()
        self.message = message
    }

    /// The same error, naming `path` (the public entry points name the file they read).
    func at(_ path: FilePath) -> JXLError {
        var copy = self
        copy.path = path
        return copy
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
