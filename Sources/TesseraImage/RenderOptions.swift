public import TesseraFacts

/// How renditions are rendered and encoded.
public struct RenderOptions: Sendable, Equatable {
    /// An sRGB colour, used as the background that transparent pixels are composited over.
    public struct Color: Sendable, Equatable {
        public var red, green, blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        public static let white = Color(red: 255, green: 255, blue: 255)

        /// Parses `#rrggbb` (the `#` optional); nil for anything else.
        public init?(hex: String) {
            let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
            guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
            self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        }
    }

    /// The qualities a JPEG or WebP rendition may be asked for.
    public static let qualities = 1...100
    /// The memory limits, in MiB, a decode may be given: below 32, no camera photo fits.
    public static let memoryLimitsMiB = 32...65_536

    /// The format rendition files are written in: one Tessera encodes (`FormatTraits.encodable`).
    public var format = PhotoEncoders.defaultFormat
    /// JPEG quality, 1–100.
    public var quality: Int = 85
    /// What transparent pixels become in a JPEG rendition.
    public var background: Color = .white
    /// Images declaring more pixels than this are refused from their header.
    public var pixelLimit: Int = 200_000_000
    /// Each worker's share of the memory decodes take from (decoded pixels, the codecs'
    /// buffers): see `MemoryPool`.
    ///
    /// A decode larger than the whole pool is refused before
    /// anything large is allocated.
    public var memoryLimit: Int = 192 << 20
    /// Convert photos with an embedded ICC profile to sRGB (off: pixels as stored).
    public var colorManagement = true
    /// Make renditions from a JPEG's embedded preview, or a HEIF's thumbnail item, when one
    /// covers them all (see `Renderer`); off: always from the photo itself.
    public var embeddedPreviews = true

    public init() {}

    /// The encoding settings, as text: the part of every cache key (see `RenderSettings`).
    public var encodingSettings: String {
        "\(format.rawValue):q\(quality):bg[\(background.red), \(background.green), \(background.blue)]"
    }
}
