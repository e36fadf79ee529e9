/// The container format of a file, decided by its magic bytes, never by its name.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg
    case png
    case webp
    /// HEIF with HEVC images (HEIC), or any other HEIF brand.
    case heif
    case avif
    /// A camera RAW file (NEF, CR2, CR3, ARW, DNG, ORF, RW2, RAF, PEF, CRW…), read by LibRaw.
    case raw
    case unsupported

    /// How many leading bytes `identify` needs to decide.
    public static let magicLength = 64

    /// The format whose signature `prefix` starts with.
    ///
    /// JPEG: SOI followed by the first byte of a marker (`FF D8 FF`).
    /// PNG: the full eight-byte signature, so a file mangled by a text-mode
    /// transfer is not mistaken for a PNG.
    public static func identify<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> ImageFormat {
        let bytes = Array(prefix.prefix(magicLength))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: PNGHeader.signature) { return .png }
        // RIFF, a little-endian length, then the form type.
        if bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && bytes[8..<12].elementsEqual(Array("WEBP".utf8)) {
            return .webp
        }
        // TIFF-based RAW (NEF, CR2, ARW, DNG, PEF; a plain TIFF too, which LibRaw then refuses),
        // Olympus ORF, Panasonic RW2, Canon CRW, Fujifilm RAF.
        let rawMagic: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], Array("IIRO".utf8), Array("IIRS".utf8), Array("MMOR".utf8),
            [0x49, 0x49, 0x55, 0x00], Array("FUJIFILMCCD-RAW".utf8),
        ]
        if rawMagic.contains(where: { bytes.starts(with: $0) }) { return .raw }
        if bytes.count >= 14 && bytes[6..<14].elementsEqual(Array("HEAPCCDR".utf8)) { return .raw }
        if let brands = ISOBMFF.brands(bytes) {
            if brands.first == "crx " { return .raw }  // Canon CR3
            // The major brand and the compatible ones (ISO/IEC 23008-12 Annex B, AV1-ISOBMFF).
            if brands.contains(where: { ["avif", "avis"].contains($0) }) && !brands.contains("heic") { return .avif }
            if brands.contains(where: { ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains($0) }) {
                return .heif
            }
        }
        return .unsupported
    }
}
