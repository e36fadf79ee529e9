import CExif
public import TesseraFacts
import TesseraSystem

/// The EXIF fields Tessera uses, as libexif reads them from a TIFF structure.
public struct ExifFields: Sendable, Equatable {
    public static func == (lhs: ExifFields, rhs: ExifFields) -> Bool {
        lhs.orientation == rhs.orientation && lhs.dateTimeOriginal == rhs.dateTimeOriginal
            && lhs.dateTimeDigitized == rhs.dateTimeDigitized && lhs.dateTime == rhs.dateTime && lhs.make == rhs.make
            && lhs.model == rhs.model && lhs.lensModel == rhs.lensModel && lhs.exposureTime == rhs.exposureTime
            && lhs.exposureBias == rhs.exposureBias && lhs.serialNumber == rhs.serialNumber
            && lhs.fNumber == rhs.fNumber && lhs.iso == rhs.iso && lhs.focalLength == rhs.focalLength
            && lhs.focalLength35mm == rhs.focalLength35mm && lhs.gps == rhs.gps && lhs.gpsInstant == rhs.gpsInstant
            && lhs.xmp == rhs.xmp && lhs.warnings == rhs.warnings
    }

    /// A date tag with the sub-second and offset tags that belong to it (EXIF 2.31 §4.6.5).
    public struct DateTag: Sendable, Equatable {
        public var dateTime: String
        public var subSeconds: String?
        public var offset: String?

        public init(dateTime: String, subSeconds: String? = nil, offset: String? = nil) {
            self.dateTime = dateTime
            self.subSeconds = subSeconds
            self.offset = offset
        }
    }

    /// The raw IFD0 Orientation value, when the tag is present.
    public var orientation: Int?
    public var dateTimeOriginal: DateTag?
    public var dateTimeDigitized: DateTag?
    /// IFD0 DateTime, the file's last modification as the camera or editor wrote it.
    public var dateTime: DateTag?
    public var make: String?
    public var model: String?
    public var lensModel: String?
    /// The camera body's serial number (`BodySerialNumber`, else a Canon or Nikon maker note's).
    public var serialNumber: String?
    /// Exposure time in seconds.
    public var exposureTime: Double?
    /// Exposure compensation (`ExposureBiasValue`), in EV: what an exposure bracket steps.
    public var exposureBias: Double?
    public var fNumber: Double?
    public var iso: Int?
    /// Focal length in millimetres.
    public var focalLength: Double?
    /// `FocalLengthIn35mmFilm`, in millimetres; nil when absent or 0 (unknown).
    public var focalLength35mm: Double?
    /// What the EXIF IFD says of the sensor's size, for a 35 mm equivalent the camera did not record.
    public var focalPlane: FocalPlane?
    public var gps: GPSPosition?
    /// `GPSDateStamp` and `GPSTimeStamp`: the instant of the position fix, in UTC, as whole
    /// seconds since the epoch.
    public var gpsInstant: Int64?
    /// The XMP packet in tag 700 (TIFF files and the RAW formats built on TIFF).
    public var xmp: [UInt8]?
    /// A Live Photo still's identifier, shared with its video (Apple's maker note, tag 0x0011).
    public var contentIdentifier: String?
    /// The identifier the frames of one burst share (Apple's maker note, tag 0x000B).
    public var burstIdentifier: String?
    public var warnings: [String] = []

    /// This block's fields, with those it lacks taken from `other`.
    func filling(from other: ExifFields) -> ExifFields {
        var merged = self
        merged.orientation = orientation ?? other.orientation
        merged.dateTimeOriginal = dateTimeOriginal ?? other.dateTimeOriginal
        merged.dateTimeDigitized = dateTimeDigitized ?? other.dateTimeDigitized
        merged.dateTime = dateTime ?? other.dateTime
        merged.make = make ?? other.make
        merged.model = model ?? other.model
        merged.lensModel = lensModel ?? other.lensModel
        merged.serialNumber = serialNumber ?? other.serialNumber
        merged.exposureTime = exposureTime ?? other.exposureTime
        merged.exposureBias = exposureBias ?? other.exposureBias
        merged.fNumber = fNumber ?? other.fNumber
        merged.iso = iso ?? other.iso
        merged.focalLength = focalLength ?? other.focalLength
        merged.focalLength35mm = focalLength35mm ?? other.focalLength35mm
        merged.focalPlane = focalPlane ?? other.focalPlane
        merged.gps = gps ?? other.gps
        merged.gpsInstant = gpsInstant ?? other.gpsInstant
        merged.xmp = xmp ?? other.xmp
        merged.contentIdentifier = contentIdentifier ?? other.contentIdentifier
        merged.burstIdentifier = burstIdentifier ?? other.burstIdentifier
        merged.warnings = warnings + other.warnings
        return merged
    }
}

/// Reads EXIF through libexif, after checking the block is a plausible TIFF structure.
///
/// libexif is told neither to "follow the specification" (that option invents
/// mandatory tags, DateTime set to the current time among them) nor to drop
/// tags it finds in an unexpected IFD. See
/// https://libexif.github.io/api/exif-data_8h.html
public enum ExifReader {
    /// The six bytes that introduce EXIF in a JPEG APP1 segment.
    public static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]
    /// The largest EXIF block handed to libexif; an APP1 segment cannot exceed 64 KiB,
    /// and PNG blocks beyond this are not plausible.
    public static let maxLength = 4 * 1024 * 1024

    /// The fields of the TIFF structure `tiff` (an EXIF block without the `Exif\0\0` prefix).
    ///
    /// `asExifIFD`: its first IFD is an EXIF IFD (a CR3's CMT2), not IFD0.
    public static func read(tiff: [UInt8], asExifIFD: Bool = false) -> ExifFields {
        var fields = ExifFields()
        guard tiff.count >= 8 else {
            fields.warnings.append("EXIF block of \(tiff.count) bytes is too short; ignored")
            return fields
        }
        guard tiff.count <= maxLength else {
            fields.warnings.append("EXIF block of \(tiff.count) bytes is too large; ignored")
            return fields
        }
        let little = tiff.starts(with: [0x49, 0x49, 0x2A, 0x00])
        let big = tiff.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        guard little || big else {
            fields.warnings.append("EXIF block has no TIFF header; ignored")
            return fields
        }
        let firstIFD =
            little
            ? UInt32(tiff[4]) | UInt32(tiff[5]) << 8 | UInt32(tiff[6]) << 16 | UInt32(tiff[7]) << 24
            : tiff.bigEndian(4, at: 4)
        guard firstIFD >= 8, Int(firstIFD) + 2 <= tiff.count else {
            fields.warnings.append("EXIF IFD0 offset \(firstIFD) lies outside the block; ignored")
            return fields
        }

        guard let data = exif_data_new() else { return fields }
        defer { exif_data_unref(data) }
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        let block = exifPrefix + tiff
        block.withUnsafeBufferPointer { buffer in
            exif_data_load_data(data, buffer.baseAddress, UInt32(buffer.count))
        }
        let view = ExifView(data: data, exifIFDs: asExifIFD ? [EXIF_IFD_0, EXIF_IFD_EXIF] : [EXIF_IFD_EXIF])

        if let value = view.integer(EXIF_TAG_ORIENTATION, in: [EXIF_IFD_0]) {
            fields.orientation = value
        }
        fields.dateTimeOriginal = view.date(
            EXIF_TAG_DATE_TIME_ORIGINAL, subSec: EXIF_TAG_SUB_SEC_TIME_ORIGINAL,
            offset: EXIF_TAG_OFFSET_TIME_ORIGINAL)
        fields.dateTimeDigitized = view.date(
            EXIF_TAG_DATE_TIME_DIGITIZED, subSec: EXIF_TAG_SUB_SEC_TIME_DIGITIZED,
            offset: EXIF_TAG_OFFSET_TIME_DIGITIZED)
        fields.dateTime = view.date(EXIF_TAG_DATE_TIME, subSec: EXIF_TAG_SUB_SEC_TIME, offset: EXIF_TAG_OFFSET_TIME)
        fields.make = view.text(EXIF_TAG_MAKE, in: [EXIF_IFD_0])
        fields.model = view.text(EXIF_TAG_MODEL, in: [EXIF_IFD_0])
        fields.lensModel =
            view.text(EXIF_TAG_LENS_MODEL, in: view.exifIFDs)
            ?? (fields.make?.hasPrefix("Canon") == true ? CanonMakerNote.lens(tiff) : nil)
        fields.exposureTime = view.rational(EXIF_TAG_EXPOSURE_TIME, in: view.exifIFDs)
        fields.serialNumber =
            view.text(EXIF_TAG_BODY_SERIAL_NUMBER, in: view.exifIFDs)
            ?? (fields.make?.hasPrefix("Canon") == true ? CanonMakerNote.serialNumber(tiff) : nil)
        fields.exposureBias = view.signedRational(EXIF_TAG_EXPOSURE_BIAS_VALUE, in: view.exifIFDs)
        fields.fNumber = view.rational(EXIF_TAG_FNUMBER, in: view.exifIFDs)
        fields.iso = view.integer(EXIF_TAG_ISO_SPEED_RATINGS, in: view.exifIFDs)
        fields.focalLength = view.rational(EXIF_TAG_FOCAL_LENGTH, in: view.exifIFDs)
        if let value = view.integer(EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM, in: view.exifIFDs), value > 0 {
            fields.focalLength35mm = Double(value)
        }
        fields.focalPlane = view.focalPlane()
        let (gps, gpsWarning) = view.gps()
        fields.gps = gps
        gpsWarning.map { fields.warnings.append($0) }
        fields.gpsInstant = view.gpsInstant()
        if let entry = view.entry(EXIF_TAG_MAKER_NOTE, in: view.exifIFDs), let bytes = entry.pointee.data,
            entry.pointee.size > 0
        {
            let note = Array(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)))
            fields.contentIdentifier = AppleMakerNote.contentIdentifier(note)
            fields.burstIdentifier = AppleMakerNote.burstIdentifier(note)
            if fields.serialNumber == nil, fields.make?.uppercased().hasPrefix("NIKON") == true {
                fields.serialNumber = NikonMakerNote.serialNumber(note)
            }
        }
        if let entry = view.entry(EXIF_TAG_XML_PACKET, in: [EXIF_IFD_0]), let bytes = entry.pointee.data,
            entry.pointee.size > 0,
            Int(entry.pointee.size) <= XMPReader.maxLength
        {
            fields.xmp = Array(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)))
        }
        return fields
    }
}

/// Typed, bounds-checked reads of libexif entries; lives only while its `ExifData` does.
struct ExifView {
    let data: UnsafeMutablePointer<ExifData>
    /// Where the EXIF IFD's tags are.
    let exifIFDs: [ExifIfd]
    var order: ExifByteOrder { exif_data_get_byte_order(data) }

    /// The entry for `tag` in the first of `ifds` that has it.
    func entry(_ tag: ExifTag, in ifds: [ExifIfd]) -> UnsafeMutablePointer<ExifEntry>? {
        for ifd in ifds {
            let content = withUnsafeBytes(of: data.pointee.ifd) { raw in
                raw.load(
                    fromByteOffset: Int(ifd.rawValue) * MemoryLayout<UnsafeMutablePointer<ExifContent>?>.stride,
                    as: UnsafeMutablePointer<ExifContent>?.self)
            }
            if let content, let entry = exif_content_get_entry(content, tag) {
                return entry
            }
        }
        return nil
    }

    func text(_ tag: ExifTag, in ifds: [ExifIfd]) -> String? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data, entry.pointee.size > 0 else {
            return nil
        }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
        let end = buffer.firstIndex(of: 0) ?? buffer.endIndex
        let text = String(decoding: buffer[..<end], as: UTF8.self)
        let trimmed = text.trimmingSpaces
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A SHORT or LONG value (the first of an array).
    func integer(_ tag: ExifTag, in ifds: [ExifIfd]) -> Int? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data, entry.pointee.components >= 1 else {
            return nil
        }
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where entry.pointee.size >= 2:
            return Int(exif_get_short(bytes, order))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4:
            return Int(exif_get_long(bytes, order))
        default:
            return nil
        }
    }

    /// The first RATIONAL of an entry, as stored.
    func rawRational(_ tag: ExifTag, in ifds: [ExifIfd]) -> (numerator: UInt32, denominator: UInt32)? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data,
            entry.pointee.format == EXIF_FORMAT_RATIONAL, entry.pointee.components >= 1, entry.pointee.size >= 8
        else { return nil }
        let value = exif_get_rational(bytes, order)
        return (value.numerator, value.denominator)
    }

    /// The `index`-th RATIONAL of an entry, or nil when absent or its denominator is 0.
    func rational(_ tag: ExifTag, in ifds: [ExifIfd], index: Int = 0) -> Double? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data,
            entry.pointee.format == EXIF_FORMAT_RATIONAL,
            Int(entry.pointee.components) > index, Int(entry.pointee.size) >= 8 * (index + 1)
        else { return nil }
        let value = exif_get_rational(bytes + 8 * index, order)
        guard value.denominator != 0 else { return nil }
        return Double(value.numerator) / Double(value.denominator)
    }

    /// The first SRATIONAL of an entry, or nil when absent or its denominator is 0.
    func signedRational(_ tag: ExifTag, in ifds: [ExifIfd]) -> Double? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data,
            entry.pointee.format == EXIF_FORMAT_SRATIONAL, entry.pointee.components >= 1, entry.pointee.size >= 8
        else { return nil }
        let value = exif_get_srational(bytes, order)
        guard value.denominator != 0 else { return nil }
        return Double(value.numerator) / Double(value.denominator)
    }

    func date(_ tag: ExifTag, subSec: ExifTag, offset: ExifTag) -> ExifFields.DateTag? {
        // Cameras put dates in IFD0 or the EXIF IFD; look where the standard says first.
        let ifds = tag == EXIF_TAG_DATE_TIME ? [EXIF_IFD_0] + exifIFDs : exifIFDs + [EXIF_IFD_0]
        guard let value = rawText(tag, in: ifds) else { return nil }
        return ExifFields.DateTag(
            dateTime: value, subSeconds: text(subSec, in: exifIFDs + [EXIF_IFD_0]),
            offset: text(offset, in: exifIFDs + [EXIF_IFD_0]))
    }

    /// ASCII text without trimming, so a blank date stays visibly blank.
    func rawText(_ tag: ExifTag, in ifds: [ExifIfd]) -> String? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data, entry.pointee.size > 0 else {
            return nil
        }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
        let end = buffer.firstIndex(of: 0) ?? buffer.endIndex
        return String(decoding: buffer[..<end], as: UTF8.self)
    }

    /// `FocalPlaneX/YResolution` with their unit, and `PixelX/YDimension`.
    func focalPlane() -> FocalPlane? {
        let exif = exifIFDs
        guard let x = rawRational(EXIF_TAG_FOCAL_PLANE_X_RESOLUTION, in: exif), x.numerator > 0, x.denominator > 0
        else {
            return nil
        }
        let y =
            rawRational(EXIF_TAG_FOCAL_PLANE_Y_RESOLUTION, in: exif).flatMap {
                $0.numerator > 0 && $0.denominator > 0 ? $0 : nil
            } ?? x
        // ResolutionUnit: 2 inches (the default), 3 centimetres, 4 millimetres, 5 micrometres.
        let millimetres: Double =
            switch integer(EXIF_TAG_FOCAL_PLANE_RESOLUTION_UNIT, in: exif) ?? 2 {
            case 3: 10
            case 4: 1
            case 5: 0.001
            default: 25.4
            }
        var plane = FocalPlane(
            pitch: (
                x: millimetres * Double(x.denominator) / Double(x.numerator),
                y: millimetres * Double(y.denominator) / Double(y.numerator)
            ))
        if let width = integer(EXIF_TAG_PIXEL_X_DIMENSION, in: exif),
            let height = integer(EXIF_TAG_PIXEL_Y_DIMENSION, in: exif),
            width > 0, height > 0
        {
            plane.exifImageSize = (width, height)
        }
        // Canon writes FocalPlaneResolution as (image width × 1000) / (sensor width in
        // thousandths of an inch): the denominators give the sensor itself, whatever the image
        // was resized or cropped to. exiftool's checks on that form are kept.
        if x.numerator % 1000 == 0, y.numerator % 1000 == 0,
            (640_000..<10_000_000).contains(x.numerator), (480_000..<10_000_000).contains(y.numerator),
            (61..<1500).contains(x.denominator), (61..<1000).contains(y.denominator), x.denominator != y.denominator
        {
            let (w, h) = (Double(x.denominator), Double(y.denominator))
            plane.canonFormDiagonal = (w * w + h * h).squareRoot() * 0.0254
        }
        return plane
    }
}

/// The sensor's size as EXIF gives it, for a 35 mm equivalent the camera did not record.
public struct FocalPlane: Sendable {
    /// Millimetres a pixel covers across and down (`FocalPlaneX/YResolution` and their unit).
    var pitch: (x: Double, y: Double)
    /// `PixelX/YDimension`.
    var exifImageSize: (width: Int, height: Int)?
    /// The sensor's diagonal in millimetres read from the resolutions' denominators, when they
    /// have the form Canon writes; only a Canon's are read so (its CR3 keeps the make apart from
    /// the EXIF IFD, so the make is asked for later).
    var canonFormDiagonal: Double?

    /// The sensor's diagonal in millimetres, as exiftool's `ScaleFactor35efl` derives it: a
    /// Canon's own; else the pitch times the EXIF image size, or else the image's, the first
    /// whose aspect ratio is between 1:2 and 2:1.
    ///
    /// Nil outside 1–100 mm: a misreading, not a camera.
    func diagonal(make: String?, imageWidth: Int, imageHeight: Int) -> Double? {
        if make == "Canon", let canonFormDiagonal { return canonFormDiagonal }
        let sizes = [exifImageSize, (imageWidth, imageHeight)].compactMap { $0 }.filter { size in
            size.width > 0 && size.height > 0 && (0.5...2).contains(Double(size.width) / Double(size.height))
        }
        guard let size = sizes.first else { return nil }
        let (width, height) = (Double(size.width) * pitch.x, Double(size.height) * pitch.y)
        let diagonal = (width * width + height * height).squareRoot()
        return diagonal.isFinite && diagonal > 1 && diagonal < 100 ? diagonal : nil
    }
}
