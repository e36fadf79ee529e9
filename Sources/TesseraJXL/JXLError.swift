/// Why a JPEG XL file could not be read: what kind of failure, in words a person can act on.
public struct JXLError: Error, Sendable {
    public enum Kind: Sendable {
        /// The container or the codestream is damaged.
        case corrupt
        /// The file ends before what the image needs.
        case truncated
        /// A valid file in a variant libjxl cannot decode.
        case unsupported
        /// Decoding would need more memory than allowed.
        case tooLarge
    }

    public var kind: Kind
    public var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
