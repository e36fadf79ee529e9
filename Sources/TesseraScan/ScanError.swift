public import TesseraIndex

/// Why a scan could not run or could not finish (single files failing never stop a scan).
public struct ScanError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case configuration, missingRoot, index, diskFull, busy
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// Nothing to scan, or settings that cannot work.
        public static let configuration = Code(.configuration)
        /// A photo folder is missing or unreadable.
        public static let missingRoot = Code(.missingRoot)
        /// The index could not be read or written.
        public static let index = Code(.index)
        /// The disk holding the index is full.
        public static let diskFull = Code(.diskFull)
        /// Another process holds the index.
        public static let busy = Code(.busy)

        public var description: String { kind.rawValue }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A failure to read the index, keeping "disk full" apart from the rest.
    public init(readingIndex error: IndexError) {
        self.init(error.code == .full ? .diskFull : .index, "cannot read the index: \(error)")
    }

    /// A failure to write the index, keeping "disk full" apart from the rest.
    public init(writingIndex error: IndexError) {
        self.init(error.code == .full ? .diskFull : .index, "cannot write the index: \(error)")
    }

    public var description: String { message }
}
