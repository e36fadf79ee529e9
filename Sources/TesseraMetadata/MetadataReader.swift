public import TesseraSystem
import Foundation
public import SystemPackage

/// Reads a file's format, size, orientation, capture date and camera from its header only.
///
/// Example:
/// ```swift
/// let meta = try MetadataReader.read(at: "IMG_0042.jpg")
/// print(meta.displayWidth, meta.captureDate.wallClock.iso8601)
/// ```
public enum MetadataReader {
    /// Reads the metadata of the file at `path`.
    ///
    /// - Parameter followSymlinks: false refuses a symbolic link at `path`.
    /// - Throws: `PhotoError` naming the path: `.notAnImage` for other formats, `.notAFile`
    ///   for FIFOs and devices, `.io`, `.truncated`, `.corrupt` or `.unsupported` for bad files.
    public static func read(
        at path: FilePath, followSymlinks: Bool = true, context: DateContext = DateContext()
    ) throws(PhotoError) -> PhotoMetadata {
        try FileReader.withPhoto(at: path, followSymlinks: followSymlinks) { (reader) throws(PhotoError) -> PhotoMetadata in
            try read(reader, context: context)
        }
    }

    /// Reads the metadata of a file already in memory; `mtime` is the file's, for undated photos.
    public static func read(
        contents: [UInt8], path: FilePath, mtime: FileTime, context: DateContext = DateContext()
    ) throws(PhotoError) -> PhotoMetadata {
        try FileReader.withBytes(contents, path: path, mtime: mtime) { (reader) throws(PhotoError) -> PhotoMetadata in
            try read(reader, context: context)
        }
    }

    /// Reads the metadata of an open file; errors name its path.
    public static func read(_ reader: borrowing FileReader, context: DateContext) throws(PhotoError) -> PhotoMetadata {
        do {
            return try read(reader, name: reader.path.lastComponent?.string ?? "", mtime: reader.mtime, context: context)
        } catch {
            throw error.path.isEmpty ? error.at(reader.path) : error
        }
    }

    static func read(
        _ bytes: borrowing FileReader, name: String, mtime: FileTime, context: DateContext
    ) throws(PhotoError) -> PhotoMetadata {
        var warnings: [String] = []
        let format = ImageFormat.identify(bytes.prefix)
        var width = 0, height = 0, depth = 0
        var coding = ""
        var jpeg: JPEGHeader?
        var png: PNGHeader?
        var webp: WebPHeader?
        var heif: HEIFHeader?
        var raw: RAWHeader?
        var tiff: [UInt8]?
        switch format {
        case .jpeg:
            let header = try JPEGHeader.read(bytes)
            (width, height, depth) = (header.width, header.height, header.bitsPerSample)
            coding = "\(header.process.rawValue) \(header.components)ch \(header.bitsPerSample)-bit"
            tiff = header.exif
            warnings += header.warnings
            jpeg = header
        case .png:
            let header = try PNGHeader.read(bytes)
            (width, height, depth) = (header.width, header.height, header.bitDepth)
            coding = header.coding
            tiff = header.exif
            warnings += header.warnings
            png = header
        case .webp:
            let header = try WebPHeader.read(bytes)
            (width, height, depth) = (header.width, header.height, 8)
            coding = header.coding
            tiff = header.exif
            warnings += header.warnings
            webp = header
        case .heif, .avif:
            let header = try HEIFHeader.read(bytes)
            (width, height, depth) = (header.width, header.height, header.bitDepth)
            coding = header.coding(format)
            tiff = header.exif
            heif = header
        case .raw:
            let header = try RAWHeader.read(bytes)
            (width, height, depth) = (header.width, header.height, 16)
            coding = "camera raw, " + (header.previewWidth.map { w in header.previewHeight.map { "\(w)×\($0) preview" } ?? "" } ?? "no preview")
            // TIFF-based RAW files keep their EXIF in the TIFF structure at the start.
            if bytes.prefix.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.prefix.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
                tiff = try bytes.photoBytes(at: 0, count: Int(min(bytes.size, Int64(ExifReader.maxLength))))
            }
            raw = header
        case .unsupported:
            if bytes.prefix.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.prefix.starts(with: [0x89 & 0x7F, 0x50, 0x4E, 0x47]) {
                throw PhotoError(.corrupt, "PNG signature damaged")
            }
            throw PhotoError(.notAnImage, bytes.prefix.isEmpty ? "empty file" : "not a photo format Tessera reads")
        }

        var exif = tiff.map(ExifReader.read(tiff:))
        if let raw { exif = Self.filling(exif ?? ExifFields(), from: raw, context: context) }
        warnings += exif?.warnings ?? []
        var orientation = heif?.orientation ?? raw?.orientation ?? 1
        // A HEIF is displayed by its transformations, a RAW file by LibRaw's reading of it; an
        // EXIF Orientation inside either is not applied again.
        if heif == nil, raw == nil, let raw = exif?.orientation {
            if (1...8).contains(raw) {
                orientation = raw
            } else {
                warnings.append("invalid EXIF orientation \(raw); using 1")
            }
        }
        let date = CaptureDate.resolve(exif: exif, png: png, name: name, mtime: mtime, context: context, warnings: &warnings)
        return PhotoMetadata(
            format: format, width: width, height: height, orientation: orientation, bitDepth: depth,
            coding: coding, jpeg: jpeg, png: png, webp: webp, heif: heif, raw: raw, exif: exif, captureDate: date, warnings: warnings)
    }

    /// What LibRaw knows and the file's EXIF lacks: the camera, and the capture time (LibRaw
    /// reads the camera's clock as local time; it is turned back into that wall clock).
    static func filling(_ exif: ExifFields, from raw: RAWHeader, context: DateContext) -> ExifFields {
        var exif = exif
        if exif.make == nil && !raw.make.isEmpty { exif.make = raw.make }
        if exif.model == nil && !raw.model.isEmpty { exif.model = raw.model }
        if exif.dateTimeOriginal == nil, let timestamp = raw.timestamp {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
            if let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour,
               let minute = parts.minute, let second = parts.second {
                let text = String(format: "%04d:%02d:%02d %02d:%02d:%02d", year, month, day, hour, minute, second)
                exif.dateTimeOriginal = .init(dateTime: text)
            }
        }
        return exif
    }
}
