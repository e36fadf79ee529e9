public import TesseraFacts
import TesseraSystem

extension ImageFormat {
    /// How many leading bytes `identify` needs to decide (four transport-stream packets).
    public static let magicLength = 1024

    /// The format whose signature `prefix` starts with: the first header reader of
    /// `PhotoHeaders.all` that knows it (each says how in its `identify`).
    public static func identify<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> ImageFormat {
        let bytes = Array(prefix.prefix(magicLength))
        for header in PhotoHeaders.all {
            if let format = header.identify(bytes) { return format }
        }
        return .unsupported
    }
}
