/// The container format of a file, decided by its magic bytes (`identify`, in TesseraMetadata),
/// never by its name: a photo's, or a video's (whose frames FFmpeg decodes).
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg
    case png
    case webp
    /// HEIF with HEVC images (HEIC), or any other HEIF brand.
    case heif
    case avif
    /// JPEG XL: a bare codestream or an ISO BMFF-style container (ISO/IEC 18181-2).
    case jxl
    /// A camera RAW file (NEF, CR2, CR3, ARW, DNG, ORF, RW2, RAF, PEF, CRW…), read by LibRaw.
    case raw
    /// ISO base media (`ftyp` isom, mp41, mp42, avc1…), QuickTime (`ftyp qt  `, or a file that
    /// starts with a `moov`, `mdat`, `wide` or `free` box), iTunes M4V, 3GPP/3GPP2.
    case mp4
    case mov
    case m4v
    case threeGPP = "3gp"
    /// EBML with DocType "matroska" or "webm".
    case matroska
    case webm
    case avi
    /// 188-byte transport packets, or the 192-byte ones of M2TS (AVCHD, Blu-ray).
    case mpegTS = "mpeg-ts"
    case unsupported

    /// Whether files of this format are videos.
    public var isVideo: Bool {
        switch self {
        case .mp4, .mov, .m4v, .threeGPP, .matroska, .webm, .avi, .mpegTS: true
        case .jpeg, .png, .webp, .heif, .avif, .jxl, .raw, .unsupported: false
        }
    }

    /// Whether every current browser plays a video of this container whose picture is `codec`.
    ///
    /// `codec` as FFmpeg names it: H.264, VP8, VP9 and AV1 play, in MP4 (QuickTime and M4V are
    /// read as MP4) or WebM; HEVC, MPEG-4 part 2 or MJPEG do not, nor 3GPP, MPEG-TS, AVI or
    /// Matroska: those get a web video (`web_videos` in docs/INDEX.md).
    public func playsInBrowsers(codec: String?) -> Bool {
        guard let codec else { return false }
        switch self {
        case .mp4, .mov, .m4v, .webm: return ["h264", "vp8", "vp9", "av1"].contains(codec)
        default: return false
        }
    }
}
