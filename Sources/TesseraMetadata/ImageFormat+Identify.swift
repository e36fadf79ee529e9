public import TesseraFacts
import TesseraJXL
import TesseraSystem

extension ImageFormat {
    /// How many leading bytes `identify` needs to decide (four transport-stream packets).
    public static let magicLength = 1024

    /// The format whose signature `prefix` starts with.
    ///
    /// JPEG: SOI followed by the first byte of a marker (`FF D8 FF`).
    /// PNG: the full eight-byte signature, so a file mangled by a text-mode
    /// transfer is not mistaken for a PNG.
    public static func identify<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> ImageFormat {
        let bytes = Array(prefix.prefix(magicLength))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: PNGHeader.signature) { return .png }
        if bytes.starts(with: JXLContainer.signature) || bytes.starts(with: JXLContainer.codestreamSignature) {
            return .jxl
        }
        // RIFF, a little-endian length, then the form type.
        if bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8))
            && bytes[8..<12].elementsEqual(Array("WEBP".utf8))
        {
            return .webp
        }
        // TIFF-based RAW (NEF, CR2, ARW, DNG, PEF; a plain TIFF too, which LibRaw then refuses),
        // Olympus ORF, Panasonic RW2, Canon CRW, Fujifilm RAF.
        let rawMagic: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], Array("IIRO".utf8), Array("IIRS".utf8),
            Array("MMOR".utf8),
            [0x49, 0x49, 0x55, 0x00], Array("FUJIFILMCCD-RAW".utf8),
        ]
        if rawMagic.contains(where: { bytes.starts(with: $0) }) { return .raw }
        if bytes.count >= 14 && bytes[6..<14].elementsEqual(Array("HEAPCCDR".utf8)) { return .raw }
        if let brands = ISOBox.brands(bytes) {
            if brands.first == "crx " { return .raw }  // Canon CR3
            // The major brand and the compatible ones (ISO/IEC 23008-12 Annex B, AV1-ISOBMFF).
            if brands.contains(where: { ["avif", "avis"].contains($0) }) && !brands.contains("heic") { return .avif }
            if brands.contains(where: { ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains($0) })
            {
                return .heif
            }
            return videoFormat(brands: brands)
        }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            // The EBML header comes first and holds the DocType.
            return bytes.firstRange(of: Array("webm".utf8)) != nil ? .webm : .matroska
        }
        if bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8))
            && bytes[8..<12].elementsEqual(Array("AVI ".utf8))
        {
            return .avi
        }
        // A QuickTime file from before `ftyp`: a plausible first box of a movie's kinds.
        if bytes.count >= 8,
            ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(String(decoding: bytes[4..<8], as: UTF8.self)),
            bytes.bigEndian(4) >= 8 || bytes.bigEndian(4) == 1
        {
            return .mov
        }
        // Transport streams: a sync byte at the start of four packets in a row.
        for (start, packet) in [(0, 188), (4, 192)] {
            let syncs = (0..<4).map { start + $0 * packet }
            if syncs.allSatisfy({ $0 < bytes.count && bytes[$0] == 0x47 }) { return .mpegTS }
        }
        return .unsupported
    }

    /// The video format of an ISO base media file by its brands; `unsupported` for others.
    private static func videoFormat(brands: [String]) -> ImageFormat {
        let major = brands.first ?? ""
        if major == "qt  " { return .mov }
        if major.hasPrefix("M4V") { return .m4v }
        if major.hasPrefix("3gp") || major.hasPrefix("3g2") { return .threeGPP }
        let mp4Brands = [
            "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "mmp4", "MSNV", "XAVC",
            "f4v ",
        ]
        if brands.contains(where: mp4Brands.contains) { return .mp4 }
        if brands.contains("qt  ") { return .mov }
        return .unsupported
    }
}
