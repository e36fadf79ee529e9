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
        try FileReader.withFile(at: path, followSymlinks: followSymlinks) { (reader) throws(PhotoError) -> PhotoMetadata in
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
        case .unsupported:
            if bytes.prefix.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.prefix.starts(with: [0x89 & 0x7F, 0x50, 0x4E, 0x47]) {
                throw PhotoError(.corrupt, "PNG signature damaged")
            }
            throw PhotoError(.notAnImage, bytes.prefix.isEmpty ? "empty file" : "not a JPEG or PNG file")
        }

        let exif = tiff.map(ExifReader.read(tiff:))
        warnings += exif?.warnings ?? []
        var orientation = 1
        if let raw = exif?.orientation {
            if (1...8).contains(raw) {
                orientation = raw
            } else {
                warnings.append("invalid EXIF orientation \(raw); using 1")
            }
        }
        let date = resolveDate(exif: exif, png: png, name: name, mtime: mtime, context: context, warnings: &warnings)
        return PhotoMetadata(
            format: format, width: width, height: height, orientation: orientation, bitDepth: depth,
            coding: coding, jpeg: jpeg, png: png, exif: exif, captureDate: date, warnings: warnings)
    }

    /// The capture date by precedence: EXIF original → digitized → PNG creation time →
    /// file name → EXIF DateTime → mtime. Blank and malformed dates are skipped with a warning.
    static func resolveDate(
        exif: ExifFields?, png: PNGHeader?, name: String, mtime: FileTime, context: DateContext,
        warnings: inout [String]
    ) -> CaptureDate {
        let zone = context.timeZone
        func fromExif(_ tag: ExifFields.DateTag?, _ label: String, _ source: DateSource) -> CaptureDate? {
            guard let tag else { return nil }
            guard var clock = DateText.exif(tag.dateTime) else {
                warnings.append(
                    DateText.isBlank(tag.dateTime)
                        ? "\(label) is blank; ignored" : "\(label) \"\(tag.dateTime)\" is malformed; ignored")
                return nil
            }
            if let subSeconds = tag.subSeconds.flatMap(DateText.subSeconds) {
                clock.fraction = subSeconds
            }
            var offset: UTCOffset?
            if let text = tag.offset, !text.trimmingSpaces.isEmpty, !DateText.isBlank(text) {
                offset = UTCOffset(parsing: text)
                if offset == nil { warnings.append("\(label) offset \"\(text)\" is malformed; ignored") }
            }
            return CaptureDate(wallClock: clock, utcOffset: offset, source: source, timeZone: zone)
        }
        if let date = fromExif(exif?.dateTimeOriginal, "DateTimeOriginal", .exifOriginal) { return date }
        if let date = fromExif(exif?.dateTimeDigitized, "DateTimeDigitized", .exifDigitized) { return date }
        if let text = png?.creationTime {
            if let (clock, offset) = DateText.pngCreationTime(text) {
                return CaptureDate(wallClock: clock, utcOffset: offset, source: .png, timeZone: zone)
            }
            warnings.append("PNG Creation Time \"\(text)\" is not a date; ignored")
        }
        if let time = png?.time {
            let clock = WallClock(
                year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
                second: time.second)
            if clock.isValid {
                return CaptureDate(wallClock: clock, utcOffset: UTCOffset(minutes: 0), source: .png, timeZone: zone)
            }
            warnings.append("PNG tIME is not a valid date; ignored")
        }
        let now = WallClock(utcSeconds: Int64(context.now.timeIntervalSince1970))
        if let clock = FilenameDate.parse(name, now: now) {
            return CaptureDate(wallClock: clock, utcOffset: nil, source: .filename, timeZone: zone)
        }
        if let date = fromExif(exif?.dateTime, "DateTime", .exifModified) { return date }
        return CaptureDate(
            instantSeconds: mtime.seconds, nanoseconds: mtime.nanoseconds, source: .mtime, timeZone: zone)
    }
}
