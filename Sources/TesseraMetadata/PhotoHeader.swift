public import TesseraFacts
public import TesseraSystem
import TesseraVideo

/// A format family's header reader, as the metadata reader sees it: one unit per family (JPEG,
/// PNG, WebP, HEIF and AVIF, JPEG XL, camera RAW, video), registered in `PhotoHeaders.all`.
///
/// Each gives what the formats differ in (size, coding, where its EXIF and XMP are, whether it
/// decides the orientation itself, how it describes colour); what they share (EXIF and XMP
/// precedence, capture dates, motion photos) the metadata reader does once for all of them.
public protocol PhotoHeader: Sendable {
    /// The formats (by magic bytes) whose headers this type reads.
    static var formats: Set<ImageFormat> { get }
    /// The format of these leading bytes (at most `ImageFormat.magicLength`), when it is one of
    /// `formats`.
    static func identify(_ bytes: [UInt8]) -> ImageFormat?
    /// Reads the header of the file `reader` holds; errors are the reader's `PhotoError`s.
    static func read(_ reader: borrowing FileReader) throws(PhotoError) -> Self
    /// The size the photo is shown at before orientation (a HEIF's clean aperture, not its
    /// stored grid), and the bits of each sample.
    var storedSize: (width: Int, height: Int, bitDepth: Int) { get }
    /// How it is coded, as `inspect` shows it ("progressive 3ch 8-bit", "h264, 30 fps").
    func coding(as format: ImageFormat) -> String
    /// Where its size was read, in words (`tessera explain`).
    var sizeRule: String { get }
    /// Its EXIF TIFF structure, when it carries one.
    var exifTIFF: [UInt8]? { get }
    /// The camera's facts as EXIF holds them: by default its EXIF structure's; a format that
    /// keeps them elsewhere (a RAW's separate IFDs, a video's container tags) completes them.
    func exifFields(context: DateContext) -> ExifFields?
    /// Its embedded XMP packet, when it carries one.
    var xmpPacket: [UInt8]? { get }
    /// What the reader noticed and recovered from.
    var readWarnings: [String] { get }
    /// The orientation the format itself records, and the rule that says so; nil when EXIF and
    /// XMP decide it.
    var ownOrientation: (value: Int, rule: String)? { get }
    /// Whether it describes its colours (an ICC profile or a colour box): colour management may
    /// change its pixels.
    var describesColour: Bool { get }
    /// PQ or HLG for a high dynamic range image.
    var hdr: HDRTransfer? { get }
}

extension PhotoHeader {
    public func exifFields(context: DateContext) -> ExifFields? { exifTIFF.map { ExifReader.read(tiff: $0) } }
    public var xmpPacket: [UInt8]? { nil }
    public var readWarnings: [String] { [] }
    public var ownOrientation: (value: Int, rule: String)? { nil }
    public var describesColour: Bool { false }
    public var hdr: HDRTransfer? { nil }
}

/// The table of format families: adding one is a `PhotoHeader` in its own file, and a line here
/// (and its decoder, in TesseraImage's `Renderer`).
public enum PhotoHeaders {
    public static let all: [any PhotoHeader.Type] = [
        JPEGHeader.self, PNGHeader.self, WebPHeader.self, HEIFHeader.self, JXLHeader.self, RAWHeader.self,
        VideoFacts.self,
    ]

    /// The header reader of `format`; nil for a format Tessera does not read.
    public static func reader(of format: ImageFormat) -> (any PhotoHeader.Type)? {
        all.first { $0.formats.contains(format) }
    }
}
