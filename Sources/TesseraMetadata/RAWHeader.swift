public import TesseraSystem
import CLibRaw
import Foundation
import SystemPackage

/// What LibRaw identifies in a camera RAW file: sensor image size, orientation, camera, time,
/// and the embedded JPEG preview Tessera renders from (it never demosaics).
///
/// LibRaw opens the file itself, through this reader's descriptor (`/proc/self/fd/N`), so
/// what it reads is exactly the file the walker saw; a reader over bytes in memory hands it
/// the bytes. One `libraw_data_t` per call, closed on every path.
public struct RAWHeader: Sendable, Equatable {
    /// The image size LibRaw would output (before orientation).
    public var width: Int
    public var height: Int
    /// The EXIF orientation equivalent to LibRaw's `flip`.
    public var orientation: Int
    /// LibRaw's (normalised) make and model: used when the file has no readable EXIF.
    public var make: String
    public var model: String
    /// The capture time LibRaw read, as seconds since the epoch of the camera's clock taken
    /// as local time (LibRaw's reading); nil when unknown.
    public var timestamp: Int64?
    /// The size of the embedded preview, when there is one (JPEG or, rarely, a bitmap).
    public var previewWidth: Int?
    public var previewHeight: Int?

    /// The largest preview read.
    public static let maxPreviewBytes = 64 << 20

    public static func read(_ reader: borrowing FileReader) throws(PhotoError) -> RAWHeader {
        try withLibRaw(reader) { (data) throws(PhotoError) -> RAWHeader in
            let raw = data.pointee
            let (width, height) = (Int(raw.sizes.width), Int(raw.sizes.height))
            guard width > 0, height > 0 else { throw PhotoError(.corrupt, "RAW file without an image size") }
            // The preview's format is known only once it is unpacked (`previewJPEG`).
            let thumbnail = raw.thumbnail
            let hasJPEG = thumbnail.twidth > 0 && thumbnail.theight > 0
            return RAWHeader(
                width: width, height: height, orientation: orientation(flip: Int(raw.sizes.flip)),
                make: text(raw.idata.make), model: text(raw.idata.model),
                timestamp: raw.other.timestamp > 0 ? Int64(raw.other.timestamp) : nil,
                previewWidth: hasJPEG ? Int(thumbnail.twidth) : nil, previewHeight: hasJPEG ? Int(thumbnail.theight) : nil)
        }
    }

    /// The bytes of the embedded JPEG preview.
    public static func previewJPEG(_ reader: borrowing FileReader) throws(PhotoError) -> [UInt8] {
        try withLibRaw(reader) { (data) throws(PhotoError) -> [UInt8] in
            let status = libraw_unpack_thumb(data)
            guard status == LIBRAW_SUCCESS.rawValue else {
                throw PhotoError(.corrupt, "cannot read the embedded preview", cause: String(cString: libraw_strerror(status)))
            }
            let thumbnail = data.pointee.thumbnail
            guard thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG, let bytes = thumbnail.thumb, thumbnail.tlength > 0,
                  Int(thumbnail.tlength) <= maxPreviewBytes
            else { throw PhotoError(.unsupported, "RAW file without an embedded JPEG preview (Tessera does not demosaic)") }
            return bytes.withMemoryRebound(to: UInt8.self, capacity: Int(thumbnail.tlength)) {
                Array(UnsafeBufferPointer(start: $0, count: Int(thumbnail.tlength)))
            }
        }
    }

    /// LibRaw's flip: 0 none, 3 half a turn, 5 a quarter turn anticlockwise, 6 clockwise.
    static func orientation(flip: Int) -> Int {
        switch flip {
        case 3: 3
        case 5: 8
        case 6: 6
        default: 1
        }
    }

    private static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private static func withLibRaw<Value>(
        _ reader: borrowing FileReader, _ body: (UnsafeMutablePointer<libraw_data_t>) throws(PhotoError) -> Value
    ) throws(PhotoError) -> Value {
        guard let data = libraw_init(0) else { throw PhotoError(.tooLarge, "cannot create a LibRaw decoder") }
        defer { libraw_close(data) }
        if let path = reader.descriptorPath {
            let status = path.withPlatformString { libraw_open_file(data, $0) }
            guard status == LIBRAW_SUCCESS.rawValue else { throw openError(status) }
            return try body(data)
        }
        // A reader over bytes in memory: LibRaw reads them in place, so it is used inside.
        var bytes = reader.prefix
        let outcome = bytes.withUnsafeMutableBytes { buffer -> Result<Value, PhotoError> in
            let status = libraw_open_buffer(data, buffer.baseAddress, buffer.count)
            guard status == LIBRAW_SUCCESS.rawValue else { return .failure(openError(status)) }
            return Result { () throws(PhotoError) -> Value in try body(data) }
        }
        return try outcome.get()
    }

    private static func openError(_ status: Int32) -> PhotoError {
        let cause = String(cString: libraw_strerror(status))
        return status == LIBRAW_FILE_UNSUPPORTED.rawValue
            ? PhotoError(.unsupported, "not a RAW format LibRaw reads", cause: cause)
            : PhotoError(.corrupt, "cannot read the RAW file", cause: cause)
    }
}
