import CLibRaw
import CLibRawStream
import Foundation
import SystemPackage
public import TesseraFacts
public import TesseraSystem

/// What a camera RAW file holds: sensor image size, orientation, camera, time, and the
/// embedded JPEG previews Tessera renders from (it never demosaics).
///
/// The previews and the metadata blocks come from the file's own structure (`RAWStructure`),
/// so that the common containers (TIFF-based, CR3) need no LibRaw; LibRaw identifies what it
/// reads (the sensor size, its reading of the orientation, its preview as a fallback).
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
    /// The JPEG previews found in the file's structure, largest first.
    public var previews: [RAWPreview] = []
    /// A preview whose bytes run past the end of the file (a truncated copy).
    public var cutPreview: CutPreview?
    /// Whether LibRaw read the file (else size and orientation come from its structure).
    public var readByLibRaw = true
    /// The metadata blocks of the file's structure, for the EXIF and XMP readers.
    var tiff: [UInt8]?
    var exifIFD: [UInt8]?
    var previewExif: [UInt8]?
    var xmp: [UInt8]?
    /// `RAWStructure.makerNote`.
    var makerNote = MakerNoteFacts()

    public struct CutPreview: Sendable, Equatable {
        public var offset: Int64
        public var length: Int
    }

    /// The largest preview read.
    public static let maxPreviewBytes = 64 << 20

    public static func read(_ reader: borrowing FileReader) throws(PhotoError) -> RAWHeader {
        // A structure Tessera cannot walk leaves LibRaw to read the file, as before it.
        let structure: RAWStructure
        do throws(PhotoError) {
            structure = try RAWStructure.read(reader)
        } catch  where error.code.isTransient {
            throw error
        } catch {
            structure = RAWStructure()
        }
        var header: RAWHeader
        do throws(PhotoError) {
            header = try readByLibRaw(reader)
        } catch  where error.code.isTransient {
            throw error
        } catch {
            // LibRaw refuses it (a format or camera newer than it, a truncated file): what the
            // structure holds still describes the photo, if it holds anything.
            guard structure.tiff != nil || !structure.previews.isEmpty || structure.cutPreview != nil else {
                throw error
            }
            let largest = structure.previews.max { $0.width * $0.height < $1.width * $1.height }
            guard let size = structure.size ?? largest.map({ ($0.width, $0.height) }) else {
                if let cut = structure.cutPreview { throw cutError(cut.offset, cut.length) }
                throw PhotoError(.corrupt, "RAW file without an image size or a preview")
            }
            header = RAWHeader(
                width: size.0, height: size.1, orientation: 1, make: "", model: "", timestamp: nil, previewWidth: nil,
                previewHeight: nil, readByLibRaw: false)
        }
        header.previews = structure.previews.sorted { $0.width * $0.height > $1.width * $1.height }
        if let largest = header.previews.first {
            (header.previewWidth, header.previewHeight) = (largest.width, largest.height)
        }
        header.cutPreview = structure.cutPreview.map { CutPreview(offset: $0.offset, length: $0.length) }
        (header.tiff, header.exifIFD, header.xmp) = (structure.tiff, structure.exifIFD, structure.xmp)
        header.previewExif = structure.previewExif
        header.makerNote = structure.makerNote
        return header
    }

    /// The error for a preview the file ends before.
    public static func cutError(_ offset: Int64, _ length: Int) -> PhotoError {
        PhotoError(.truncated, "file ends before its preview (offset \(offset), size \(length))")
    }

    private static func readByLibRaw(_ reader: borrowing FileReader) throws(PhotoError) -> RAWHeader {
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
                previewWidth: hasJPEG ? Int(thumbnail.twidth) : nil,
                previewHeight: hasJPEG ? Int(thumbnail.theight) : nil)
        }
    }

    /// The bytes of LibRaw's embedded JPEG preview.
    public static func previewJPEG(_ reader: borrowing FileReader) throws(PhotoError) -> [UInt8] {
        try withLibRaw(reader) { (data) throws(PhotoError) -> [UInt8] in
            let status = libraw_unpack_thumb(data)
            guard status == LIBRAW_SUCCESS.rawValue else {
                throw PhotoError(
                    .corrupt, "cannot read the embedded preview", cause: String(cString: libraw_strerror(status)))
            }
            let thumbnail = data.pointee.thumbnail
            guard thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG, let bytes = thumbnail.thumb, thumbnail.tlength > 0,
                Int(thumbnail.tlength) <= maxPreviewBytes
            else {
                throw PhotoError(.unsupported, "RAW file without an embedded JPEG preview (Tessera does not demosaic)")
            }
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

    /// How long LibRaw may read a file of `size` bytes: 2 s, and as long again as reading the
    /// whole file at 20 MB/s (a slow network disk) would take; what it reads of a real one takes
    /// milliseconds, and a crafted one can loop over its boxes for good.
    static func libRawSeconds(_ size: Int64) -> Double { 2 + Double(size) / 20e6 }

    private static func withLibRaw<Value>(
        _ reader: borrowing FileReader, _ body: (UnsafeMutablePointer<libraw_data_t>) throws(PhotoError) -> Value
    ) throws(PhotoError) -> Value {
        guard let data = libraw_init(0) else { throw PhotoError(.tooLarge, "cannot create a LibRaw decoder") }
        var stream: OpaquePointer?
        defer {
            libraw_close(data)
            tessera_libraw_stream_free(stream)
        }
        var status: Int32 = 0
        let seconds = libRawSeconds(reader.size)
        if let path = reader.descriptorPath {
            stream = path.withPlatformString { tessera_libraw_open_file(data, $0, seconds, &status) }
            guard status == LIBRAW_SUCCESS.rawValue else { throw openError(status, seconds: seconds) }
            return try body(data)
        }
        // A reader over bytes in memory: LibRaw reads them in place, so it is used inside.
        var bytes = reader.prefix
        let outcome = bytes.withUnsafeMutableBytes { buffer -> Result<Value, PhotoError> in
            stream = tessera_libraw_open_buffer(data, buffer.baseAddress, buffer.count, seconds, &status)
            guard status == LIBRAW_SUCCESS.rawValue else { return .failure(openError(status, seconds: seconds)) }
            return Result { () throws(PhotoError) -> Value in try body(data) }
        }
        return try outcome.get()
    }

    private static func openError(_ status: Int32, seconds: Double) -> PhotoError {
        if status == LIBRAW_CANCELLED_BY_CALLBACK.rawValue {
            return PhotoError(
                .corrupt,
                "LibRaw kept reading it (past its end, or for \(Wording.number(seconds, decimals: 1)) s): "
                    + "its structure leads nowhere")
        }
        let cause = String(cString: libraw_strerror(status))
        return status == LIBRAW_FILE_UNSUPPORTED.rawValue
            ? PhotoError(.unsupported, "not a RAW format LibRaw reads", cause: cause)
            : PhotoError(.corrupt, "cannot read the RAW file", cause: cause)
    }
}

extension RAWHeader: PhotoHeader {
    public static let formats: Set<ImageFormat> = [.raw]

    /// TIFF-based RAW (NEF, CR2, ARW, DNG, PEF; a plain TIFF too, which LibRaw then refuses),
    /// Olympus ORF, Panasonic RW2, Canon CRW and CR3, Fujifilm RAF.
    public static func identify(_ bytes: [UInt8]) -> ImageFormat? {
        let magic: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], Array("IIRO".utf8), Array("IIRS".utf8),
            Array("MMOR".utf8), [0x49, 0x49, 0x55, 0x00], Array("FUJIFILMCCD-RAW".utf8),
        ]
        if magic.contains(where: { bytes.starts(with: $0) }) { return .raw }
        if bytes.count >= 14 && bytes[6..<14].elementsEqual(Array("HEAPCCDR".utf8)) { return .raw }
        return ISOBox.brands(bytes)?.first == "crx " ? .raw : nil
    }
    public var storedSize: (width: Int, height: Int, bitDepth: Int) { (width, height, 16) }
    public func coding(as format: ImageFormat) -> String {
        "camera raw, "
            + (previewWidth.map { w in previewHeight.map { "\(w)×\($0) preview" } ?? "" } ?? "no preview")
    }
    public var sizeRule: String { "LibRaw's image size, or the RAW file's own IFDs" }
    public var exifTIFF: [UInt8]? { tiff }

    /// IFD0's fields; a CR3's separate EXIF IFD, and the EXIF of its preview, fill what IFD0
    /// lacks; and what LibRaw knows fills the rest: the camera, and the capture time (LibRaw
    /// reads the camera's clock as local time; it is turned back into that wall clock).
    public func exifFields(context: DateContext) -> ExifFields? {
        var exif = tiff.map { ExifReader.read(tiff: $0) } ?? ExifFields()
        if let exifIFD {
            exif = ExifReader.read(tiff: exifIFD, asExifIFD: true).filling(from: exif)
        }
        if let previewExif { exif = exif.filling(from: ExifReader.read(tiff: previewExif)) }
        if exif.make == nil && !make.isEmpty { exif.make = make }
        if exif.model == nil && !model.isEmpty { exif.model = model }
        if exif.serialNumber == nil { exif.serialNumber = makerNote.serial }
        if exif.lensModel == nil { exif.lensModel = makerNote.lens }
        if exif.dateTimeOriginal == nil, let timestamp {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second],
                from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
            if let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour,
                let minute = parts.minute, let second = parts.second
            {
                let text = String(format: "%04d:%02d:%02d %02d:%02d:%02d", year, month, day, hour, minute, second)
                exif.dateTimeOriginal = .init(dateTime: text)
            }
        }
        return exif
    }

    public var xmpPacket: [UInt8]? { xmp }
    /// LibRaw's flip, when LibRaw read the file; else EXIF and XMP decide.
    public var ownOrientation: (value: Int, rule: String)? {
        readByLibRaw ? (orientation, "LibRaw's reading of the RAW file") : nil
    }
}
