/// The container format of a file, decided by its magic bytes (`identify`, in TesseraMetadata),
/// never by its name: a photo's, or a video's (whose frames FFmpeg decodes).
///
/// What any part of Tessera asks of a format is in its `traits`, the one table of formats:
/// code asks a trait (`format.traits.isRaw`), never which format it is. A format's header
/// reader (`PhotoHeader`, in TesseraMetadata) names the formats it reads; its decoder and
/// encoder (TesseraImage) name that header (docs/ARCHITECTURE.md, "Formats as units").
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

    /// What Tessera knows of the format: the table.
    public var traits: FormatTraits {
        switch self {
        case .jpeg:
            FormatTraits(
                origin: .camera, extensions: ["jpg", "jpeg"], browsersDraw: true, holdsMotionPhotos: true,
                samsungMotionTrailer: true, encodable: true)
        case .png: FormatTraits(origin: .made, extensions: ["png"], browsersDraw: true, encodable: true)
        case .webp: FormatTraits(origin: .other, extensions: ["webp"], browsersDraw: true, encodable: true)
        case .heif:
            FormatTraits(
                origin: .camera, extensions: ["heic", "heif", "hif"], holdsMotionPhotos: true,
                readAgainWithNewDecoders: true)
        case .avif:
            FormatTraits(origin: .camera, extensions: ["avif"], browsersDraw: true, readAgainWithNewDecoders: true)
        case .jxl: FormatTraits(origin: .camera, extensions: ["jxl"])
        case .raw:
            FormatTraits(
                origin: .sensor,
                extensions: ["cr2", "cr3", "nef", "arw", "dng", "orf", "rw2", "raf", "pef", "srw", "crw"])
        case .mp4: FormatTraits(video: .browsersPlay, extensions: ["mp4"])
        case .mov: FormatTraits(video: .browsersPlay, extensions: ["mov", "qt"])
        case .m4v: FormatTraits(video: .browsersPlay, extensions: ["m4v"])
        case .webm: FormatTraits(video: .browsersPlay, extensions: ["webm"])
        case .threeGPP: FormatTraits(video: .other, extensions: ["3gp", "3g2"])
        case .matroska: FormatTraits(video: .other, extensions: ["mkv"])
        case .avi: FormatTraits(video: .other, extensions: ["avi"])
        case .mpegTS: FormatTraits(video: .other, extensions: ["mts", "m2ts", "ts"])
        case .unsupported: FormatTraits(origin: .other, extensions: [])
        }
    }

    /// Whether files of this format are videos.
    public var isVideo: Bool { traits.video != nil }

    /// Whether every current browser plays a video of this container whose picture is `codec`.
    ///
    /// `codec` as FFmpeg names it: H.264, VP8, VP9 and AV1 play, in MP4 (QuickTime and M4V are
    /// read as MP4) or WebM; HEVC, MPEG-4 part 2 or MJPEG do not, nor 3GPP, MPEG-TS, AVI or
    /// Matroska: those get a web video (`web_videos` in docs/INDEX.md).
    public func playsInBrowsers(codec: String?) -> Bool {
        guard let codec, traits.video == .browsersPlay else { return false }
        return ["h264", "vp8", "vp9", "av1"].contains(codec)
    }

    /// The formats that have a trait.
    public static func all(_ trait: (FormatTraits) -> Bool) -> [ImageFormat] {
        allCases.filter { trait($0.traits) }
    }

    /// The format a file-name extension names among those Tessera writes (`jpg`, `png`, `webp`,
    /// any case).
    public init?(encodingExtension fileExtension: String) {
        guard
            let format = Self.all(\.encodable).first(where: {
                $0.traits.extensions.contains(fileExtension.lowercased())
            })
        else { return nil }
        self = format
    }

    /// The extension of the files Tessera writes in this format, without the dot.
    public var fileExtension: String { traits.extensions.first ?? rawValue }
}

/// What the rest of Tessera asks of a format (`ImageFormat.traits`).
public struct FormatTraits: Sendable, Equatable {
    /// Where a format's files come from, for choosing which of several copies to keep: a
    /// camera's raw data first, then what cameras write, then what is made later.
    public enum Origin: Int, Sendable, Comparable {
        /// A camera's raw sensor data: the original of the images made from it.
        case sensor
        /// What cameras and phones write (JPEG, HEIF, AVIF, JPEG XL).
        case camera
        /// Mostly made later, losslessly (PNG).
        case made
        case other

        public static func < (a: Origin, b: Origin) -> Bool { a.rawValue < b.rawValue }
    }

    /// A video container, and whether browsers play the codecs they do in it.
    public enum Video: Sendable, Equatable {
        case browsersPlay
        case other
    }

    public var origin: Origin
    /// Nil for a still image.
    public var video: Video?
    /// The file-name extensions its files usually have, the one Tessera writes first.
    public var extensions: [String]
    /// Every current browser draws it, so an original can be shown at 1:1.
    public var browsersDraw: Bool
    /// It may hold a motion photo's video (Google's and Samsung's XMP says where).
    public var holdsMotionPhotos: Bool
    /// Samsung's older motion photos of this format say so only in a trailer at the file's end.
    public var samsungMotionTrailer: Bool
    /// Its files are read again when the decoders change: a new decoder may render them anew
    /// (HDR), and ones recorded as failed may be read now.
    public var readAgainWithNewDecoders: Bool
    /// Tessera writes renditions in it.
    public var encodable: Bool

    /// A camera RAW: paired with the images made from it (a stack), never a copy of them.
    public var isRaw: Bool { origin == .sensor }

    init(
        origin: Origin = .other, video: Video? = nil, extensions: [String], browsersDraw: Bool = false,
        holdsMotionPhotos: Bool = false, samsungMotionTrailer: Bool = false, readAgainWithNewDecoders: Bool = false,
        encodable: Bool = false
    ) {
        self.origin = origin
        self.video = video
        self.extensions = extensions
        self.browsersDraw = browsersDraw
        self.holdsMotionPhotos = holdsMotionPhotos
        self.samsungMotionTrailer = samsungMotionTrailer
        self.readAgainWithNewDecoders = readAgainWithNewDecoders
        self.encodable = encodable
    }
}
