/// The container format of a file, decided by its magic bytes, never by its name.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg
    case png
    case unsupported

    /// How many leading bytes `identify` needs to decide.
    public static let magicLength = 8

    /// The format whose signature `prefix` starts with.
    ///
    /// JPEG: SOI followed by the first byte of a marker (`FF D8 FF`).
    /// PNG: the full eight-byte signature, so a file mangled by a text-mode
    /// transfer is not mistaken for a PNG.
    public static func identify<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> ImageFormat {
        let bytes = Array(prefix.prefix(magicLength))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: PNGHeader.signature) { return .png }
        return .unsupported
    }
}
