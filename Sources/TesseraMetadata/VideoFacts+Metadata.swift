import Foundation
public import TesseraFacts
public import TesseraSystem
public import TesseraVideo

extension VideoFacts {
    /// The EXIF orientation that turns the stored frame as the display matrix does.
    public var orientation: Int {
        switch rotation {
        case 90: 6
        case 180: 3
        case 270: 8
        default: 1
        }
    }

    /// "h264, 30 fps, 4.0 s, audio": what `inspect` shows as the coding.
    public var coding: String {
        var parts = [codec]
        if let frameRate { parts.append(String(format: "%g fps", (frameRate * 100).rounded() / 100)) }
        if let duration { parts.append(String(format: "%.1f s", duration)) }
        if hasAudio { parts.append("audio") }
        return parts.joined(separator: ", ")
    }

    /// The camera, place and Live Photo identifier the container's tags name, as EXIF would hold them: QuickTime's
    /// Keys (`com.apple.quicktime.*`), Android's (`com.android.*`), or the user data (`make`,
    /// `model`, `location`, an ISO 6709 point).
    var cameraFields: ExifFields {
        var fields = ExifFields()
        fields.make = Self.first(["com.apple.quicktime.make", "com.android.manufacturer", "make"], in: tags)
        fields.model = Self.first(["com.apple.quicktime.model", "com.android.model", "model"], in: tags)
        let point = Self.first(["com.apple.quicktime.location.ISO6709", "location"], in: tags)
        fields.gps = point.flatMap(Self.iso6709)
        // A Live Photo's video carries the identifier its still has in its maker note.
        fields.contentIdentifier = Self.first(["com.apple.quicktime.content.identifier"], in: tags)
        return fields
    }

    private static func first(_ keys: [String], in tags: [String: String]) -> String? {
        keys.lazy.compactMap { tags[$0]?.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
    }

    /// An ISO 6709 point in decimal degrees, as phones write it: `+52.4597+013.3220+042.123/`
    /// (latitude, longitude, optional altitude in metres).
    ///
    /// Nil for anything else or out of range.
    static func iso6709(_ text: String) -> GPSPosition? {
        var numbers: [Double] = []
        var current = ""
        for character in text {
            if character == "+" || character == "-" || character == "/" {
                if !current.isEmpty {
                    guard let value = Double(current) else { return nil }
                    numbers.append(value)
                }
                current = character == "/" ? "" : String(character)
                if character == "/" { break }
            } else if character.isASCII && (character.isNumber || character == ".") {
                current.append(character)
            } else {
                return nil
            }
        }
        if !current.isEmpty, let value = Double(current) { numbers.append(value) }
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        return GPSPosition(
            latitude: numbers[0], longitude: numbers[1], altitude: numbers.count > 2 ? numbers[2] : nil)
    }
}

extension PhotoError {
    /// What a video's failure means for the index: damaged files are corrupt, a container
    /// without pictures is no photo, a codec without a decoder is unsupported.
    public init(video error: VideoError) {
        let code: Code =
            switch error.code {
            case .corrupt, .timedOut: .corrupt
            case .truncated: .truncated
            case .noPicture: .notAnImage
            case .unsupported: .unsupported
            case .tooLarge: .tooLarge
            default: .corrupt
            }
        self.init(code, path: error.path, error.message)
    }
}

extension VideoFacts: PhotoHeader {
    public static let formats = Set(ImageFormat.all { $0.video != nil })

    /// ISO base media files by their brands, Matroska and WebM by their EBML header, AVI, a
    /// QuickTime movie from before `ftyp`, and MPEG transport streams.
    public static func identify(_ bytes: [UInt8]) -> ImageFormat? {
        if let brands = ISOBox.brands(bytes) {
            let format = videoFormat(brands: brands)
            return format == .unsupported ? nil : format
        }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            // The EBML header comes first and holds the DocType.
            return bytes.firstOffset(of: Array("webm".utf8)) != nil ? .webm : .matroska
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
        return nil
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

    /// The facts of the video `reader` holds, FFmpeg's failure as a photo error.
    public static func read(_ reader: borrowing FileReader) throws(PhotoError) -> VideoFacts {
        do throws(VideoError) {
            return try read(reader.stream())
        } catch {
            throw PhotoError(video: error)
        }
    }

    public var storedSize: (width: Int, height: Int, bitDepth: Int) { (width, height, 8) }
    public func coding(as format: ImageFormat) -> String { coding }
    public var sizeRule: String { "the video stream's coded frame size (FFmpeg), before its display rotation" }
    public var exifTIFF: [UInt8]? { nil }
    /// The camera, place and Live Photo identifier its container's tags name.
    public func exifFields(context: DateContext) -> ExifFields? { cameraFields }
    public var ownOrientation: (value: Int, rule: String)? { (orientation, "the video's display matrix") }
}
