public import SystemPackage
import TesseraSystem

/// The JSON shape of one photo, shared by `tessera inspect --json` and `tessera list --json`.
///
/// Field names are a contract with front ends. Keys whose value is unknown are
/// written as `null`, not left out. `path` is the path as UTF-8; a name that is
/// not valid UTF-8 is shown there with U+FFFD and given exactly, as the
/// base64 of its bytes, in `pathBase64` (present only then).
public struct PhotoJSON: Encodable, Sendable {
    public var path: String
    public var pathBase64: String?
    public var format: String
    public var width: Int?
    public var height: Int?
    public var orientation: Int?
    public var displayWidth: Int?
    public var displayHeight: Int?
    public var capturedAt: String?
    public var utcOffset: String?
    public var dateSource: String?
    public var make: String?
    public var model: String?
    public var lensModel: String?
    public var exposureTime: Double?
    public var fNumber: Double?
    public var iso: Int?
    public var focalLength: Double?
    public var gps: ExifFields.GPS?
    public var coding: String?
    public var warnings: [String]
    public var error: String?
    /// Index fields (`tessera list`): nil for `inspect`, and then not written.
    public var album: String?
    public var thumbnails: [String: String]?
    public var status: String?

    /// A file whose metadata was read.
    public init(path: FilePath, metadata: PhotoMetadata) {
        (self.path, self.pathBase64) = Self.encode(path)
        format = metadata.format.rawValue
        width = metadata.width
        height = metadata.height
        orientation = metadata.orientation
        displayWidth = metadata.displayWidth
        displayHeight = metadata.displayHeight
        capturedAt = metadata.captureDate.wallClock.iso8601
        utcOffset = metadata.captureDate.utcOffset?.description
        dateSource = metadata.captureDate.source.rawValue
        make = metadata.exif?.make
        model = metadata.exif?.model
        lensModel = metadata.exif?.lensModel
        exposureTime = metadata.exif?.exposureTime
        fNumber = metadata.exif?.fNumber
        iso = metadata.exif?.iso
        focalLength = metadata.exif?.focalLength
        gps = metadata.exif?.gps
        coding = metadata.coding
        warnings = metadata.warnings
    }

    /// A file that could not be read (`error` set), or one whose fields the caller fills in.
    public init(path: FilePath, format: ImageFormat, error: String?) {
        (self.path, self.pathBase64) = Self.encode(path)
        self.format = format.rawValue
        self.warnings = []
        self.error = error
    }

    /// The UTF-8 text of `path`, plus its exact bytes in base64 when they are not valid UTF-8.
    public static func encode(_ path: FilePath) -> (String, String?) {
        let bytes = path.rawBytes
        if let text = String(validating: bytes, as: UTF8.self) {
            return (text, nil)
        }
        return (String(decoding: bytes, as: UTF8.self), Base64.encode(bytes))
    }

    private enum Key: String, CodingKey {
        case path, pathBase64, format, width, height, orientation, displayWidth, displayHeight, capturedAt
        case utcOffset, dateSource, make, model, lensModel, exposureTime, fNumber, iso, focalLength, gps
        case coding, warnings, error, album, thumbnails, status
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(pathBase64, forKey: .pathBase64)
        try container.encode(format, forKey: .format)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(orientation, forKey: .orientation)
        try container.encode(displayWidth, forKey: .displayWidth)
        try container.encode(displayHeight, forKey: .displayHeight)
        try container.encode(capturedAt, forKey: .capturedAt)
        try container.encode(utcOffset, forKey: .utcOffset)
        try container.encode(dateSource, forKey: .dateSource)
        try container.encode(make, forKey: .make)
        try container.encode(model, forKey: .model)
        try container.encode(lensModel, forKey: .lensModel)
        try container.encode(exposureTime, forKey: .exposureTime)
        try container.encode(fNumber, forKey: .fNumber)
        try container.encode(iso, forKey: .iso)
        try container.encode(focalLength, forKey: .focalLength)
        try container.encode(gps, forKey: .gps)
        try container.encode(coding, forKey: .coding)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(error, forKey: .error)
        try container.encodeIfPresent(album, forKey: .album)
        try container.encodeIfPresent(thumbnails, forKey: .thumbnails)
        try container.encodeIfPresent(status, forKey: .status)
    }
}

/// Standard base64 (RFC 4648 §4), with padding.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[Int(value >> (18 - 6 * position) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
