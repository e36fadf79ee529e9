public import TesseraFacts
import TesseraMetadata

/// A format's encoder, as the renderer sees it: the header (`PhotoHeader`) of the format it
/// writes, and how it writes an upright sRGB image with the rendering options.
protocol PhotoEncoding: Sendable {
    static var header: any PhotoHeader.Type { get }
    static func encode(_ image: PixelBuffer, options: RenderOptions) throws(PhotoError) -> [UInt8]
}

/// The formats Tessera writes renditions in: adding one is a `PhotoEncoding` and a line here,
/// and `encodable` in its `FormatTraits`.
public enum PhotoEncoders {
    static let all: [any PhotoEncoding.Type] = [JPEGEncoder.self, PNGEncoder.self, WebPCodec.self]

    /// What renditions are written in unless configured otherwise: the first encoder's format.
    public static let defaultFormat = all.first.flatMap { $0.header.formats.first } ?? .unsupported

    static func encoder(of format: ImageFormat) -> (any PhotoEncoding.Type)? {
        all.first { $0.header.formats.contains(format) }
    }
}
