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
        var webp: WebPHeader?
        var heif: HEIFHeader?
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
        case .unsupported:
            if bytes.prefix.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.prefix.starts(with: [0x89 & 0x7F, 0x50, 0x4E, 0x47]) {
                throw PhotoError(.corrupt, "PNG signature damaged")
            }
            throw PhotoError(.notAnImage, bytes.prefix.isEmpty ? "empty file" : "not a photo format Tessera reads")
        }

        let exif = tiff.map(ExifReader.read(tiff:))
        warnings += exif?.warnings ?? []
        var orientation = heif?.orientation ?? 1
        // A HEIF is displayed by its transformations; an EXIF Orientation inside it is not applied.
        if heif == nil, let raw = exif?.orientation {
            if (1...8).contains(raw) {
                orientation = raw
            } else {
                warnings.append("invalid EXIF orientation \(raw); using 1")
            }
        }
        let date = CaptureDate.resolve(exif: exif, png: png, name: name, mtime: mtime, context: context, warnings: &warnings)
        return PhotoMetadata(
            format: format, width: width, height: height, orientation: orientation, bitDepth: depth,
            coding: coding, jpeg: jpeg, png: png, webp: webp, heif: heif, exif: exif, captureDate: date, warnings: warnings)
    }
}
