import Foundation
public import SystemPackage
public import TesseraFacts
import TesseraJXL
public import TesseraSystem
import TesseraVideo

/// Reads a file's format, size, orientation, capture date and camera from its header only.
///
/// Example:
/// ```swift
/// let meta = try MetadataReader.read(at: "IMG_0042.jpg")
/// print(meta.displayWidth, meta.captureDate.wallClock.iso8601)
/// ```
public enum MetadataReader {
    /// Names what the readers read; when it changes, the next complete scan reads every file
    /// again, once, so that the index holds what they read now.
    public static let version =
        "4: XMP and sidecars, RAW TIFF IFDs and CR3 boxes, undated photos, exposure bias, maker-note serial numbers"

    /// Reads the metadata of the file at `path`.
    ///
    /// - Parameter followSymlinks: false refuses a symbolic link at `path`.
    /// - Throws: `PhotoError` naming the path: `.notAnImage` for other formats, `.notAFile`
    ///   for FIFOs and devices, `.io`, `.truncated`, `.corrupt` or `.unsupported` for bad files.
    public static func read(
        at path: FilePath, followSymlinks: Bool = true, sidecar: Sidecar? = nil, context: DateContext = DateContext()
    ) throws(PhotoError) -> PhotoMetadata {
        try FileReader.withPhoto(at: path, followSymlinks: followSymlinks) {
            (reader) throws(PhotoError) -> PhotoMetadata in
            try read(reader, sidecar: sidecar, context: context)
        }
    }

    /// Reads the metadata of a file already in memory.
    public static func read(
        contents: [UInt8], path: FilePath, mtime: FileTime, context: DateContext = DateContext()
    ) throws(PhotoError) -> PhotoMetadata {
        try FileReader.withBytes(contents, path: path, mtime: mtime) { (reader) throws(PhotoError) -> PhotoMetadata in
            try read(reader, context: context)
        }
    }

    /// Reads the metadata of an open file, and of its XMP sidecar when it has one; errors name its path.
    public static func read(
        _ reader: borrowing FileReader, sidecar: Sidecar? = nil, context: DateContext
    ) throws(PhotoError) -> PhotoMetadata {
        do {
            return try read(reader, name: reader.path.lastComponent?.string ?? "", sidecar: sidecar, context: context)
        } catch {
            throw error.path.isEmpty ? error.at(reader.path) : error
        }
    }

    static func read(
        _ bytes: borrowing FileReader, name: String, sidecar: Sidecar?, context: DateContext
    ) throws(PhotoError) -> PhotoMetadata {
        let format = ImageFormat.identify(bytes.prefix)
        guard let reader = PhotoHeaders.reader(of: format) else {
            if bytes.prefix.starts(with: [0x89, 0x50, 0x4E, 0x47])
                || bytes.prefix.starts(with: [0x89 & 0x7F, 0x50, 0x4E, 0x47])
            {
                throw PhotoError(.corrupt, "PNG signature damaged")
            }
            throw PhotoError(.notAnImage, bytes.prefix.isEmpty ? "empty file" : "not a photo format Tessera reads")
        }
        let header = try reader.read(bytes)
        let (width, height, depth) = header.storedSize
        var warnings = header.readWarnings
        let video = header as? VideoFacts

        var explanations: [FactExplanation] = []
        let exifFields = header.exifFields(context: context)
        warnings += exifFields?.warnings ?? []
        let (embedded, sidecarFields) = xmp(of: header, exif: exifFields, sidecar: sidecar, warnings: &warnings)
        let edited = Precedence.edited(sidecar: sidecarFields, embedded: embedded)
        var exif = Precedence.camera(exif: exifFields, xmp: edited)
        warnings += [embedded?.gpsWarning, sidecarFields?.gpsWarning.map { "sidecar: \($0)" }].compactMap { $0 }
        let position = Precedence.position(
            exif: exifFields?.gps, sidecar: sidecarFields?.gps, embedded: embedded?.gps)
        exif?.gps = position.value

        var (orientation, orientationRule) = header.ownOrientation ?? (1, "")
        if header.ownOrientation == nil {
            (orientation, orientationRule) = Precedence.orientation(
                exif: exifFields?.orientation, sidecar: sidecarFields?.orientation, embedded: embedded?.orientation,
                warnings: &warnings)
        }
        let date = CaptureDate.resolve(
            exif: exif, xmp: edited, png: header as? PNGHeader, video: video, name: name, context: context,
            warnings: &warnings,
            explanations: &explanations)
        let focal35 = Precedence.focalLength35mm(exif: exif, xmp: edited, imageWidth: width, imageHeight: height)
        if context.explaining {
            explanations += [
                FactExplanation(
                    fact: "orientation", value: String(orientation), rule: orientationRule,
                    candidates: [
                        ("EXIF Orientation", exifFields?.orientation), ("XMP tiff:Orientation", embedded?.orientation),
                        ("XMP tiff:Orientation (sidecar)", sidecarFields?.orientation),
                    ].compactMap { source, value in
                        value.map {
                            .init(
                                source: source, value: String($0),
                                outcome: orientationRule == source ? "chosen" : "not used")
                        }
                    }),
                FactExplanation(
                    fact: "35 mm focal length", value: focal35.map { String(format: "%.1f mm", $0.value) },
                    rule: focal35?.rule ?? "not recorded, and no sensor size to compute it from"),
                ratingExplanation(edited: edited, sidecar: sidecarFields, embedded: embedded),
                FactExplanation(
                    fact: "position", value: position.value.map { "\($0.latitude), \($0.longitude)" },
                    rule: position.rule, candidates: position.candidates),
                Self.placeWordsExplanation(sidecar: sidecarFields?.location, embedded: embedded?.location),
            ]
        }
        var metadata = PhotoMetadata(
            format: format, width: width, height: height, orientation: orientation, bitDepth: depth,
            coding: header.coding(as: format), header: header, exif: exif, xmp: edited,
            focalLength35mm: focal35?.value, captureDate: date, warnings: warnings)
        metadata.explanations = explanations
        if format.traits.holdsMotionPhotos, let hint = embedded?.motionPhoto {
            let (motion, warning) = MotionPhoto.locate(bytes, hint: hint)
            warning.map { metadata.warnings.append($0) }
            metadata.motion = motion
        }
        if format.traits.samsungMotionTrailer, metadata.motion == nil,
            exifFields?.make?.lowercased().hasPrefix("samsung") == true
        {
            // Samsung's older motion photos say so only in their SEF trailer; only Samsung's
            // JPEGs are read at their end, which costs every other JPEG nothing.
            metadata.motion = MotionPhoto.samsungTrailer(bytes)
        }
        if orientationRule.hasSuffix("(sidecar)") {
            var ignored: [String] = []
            let own = Precedence.orientation(
                exif: exifFields?.orientation, sidecar: nil, embedded: embedded?.orientation, warnings: &ignored)
            metadata.sidecarTurnsPhoto = own.value != orientation
        }
        return metadata
    }

    /// The XMP of the file (the first place that has a packet, Extended XMP filling what the
    /// main packet leaves) and of its sidecar, each read once.
    private static func xmp(
        of header: any PhotoHeader, exif: ExifFields?, sidecar: Sidecar?, warnings: inout [String]
    ) -> (embedded: XMPFields?, sidecar: XMPFields?) {
        var embedded: XMPFields?
        for packet in [header.xmpPacket, exif?.xmp].compactMap({ $0 }).prefix(1) {
            let (fields, warning) = XMPReader.read(packet: packet)
            warning.map { warnings.append($0) }
            embedded = fields
        }
        if let extended = (header as? JPEGHeader)?.extendedXMP {
            let (fields, warning) = XMPReader.read(packet: extended)
            warning.map { warnings.append("Extended \($0)") }
            if let fields { embedded = embedded?.filling(from: fields) ?? fields }
        }
        var sidecarFields: XMPFields?
        if let sidecar {
            let (fields, warning) = XMPReader.read(packet: sidecar.packet)
            warning.map { warnings.append("sidecar \(sidecar.name): \($0)") }
            sidecarFields = fields
        }
        return (embedded, sidecarFields)
    }

    /// Whose location words the photo has, for `explain` (the place they decide is the index's:
    /// `explain` shows it beside them).
    private static func placeWordsExplanation(sidecar: LocationWords?, embedded: LocationWords?) -> FactExplanation {
        let text = { (words: LocationWords) in
            [words.sublocation, words.city, words.region, words.country, words.countryCode].compactMap { $0 }
                .joined(separator: ", ")
        }
        let chosen = sidecar ?? embedded
        return FactExplanation(
            fact: "place words", value: chosen.map(text),
            rule: sidecar != nil
                ? "XMP photoshop:City/State/Country, Iptc4xmpCore or Iptc4xmpExt:LocationShown (sidecar)"
                : embedded != nil
                    ? "XMP photoshop:City/State/Country, Iptc4xmpCore or Iptc4xmpExt:LocationShown"
                    : "none recorded: the place is named from the position",
            candidates: [("sidecar", sidecar), ("embedded XMP", embedded)].compactMap { source, words in
                words.map {
                    .init(source: source, value: text($0), outcome: $0 == chosen ? "chosen" : "lower precedence")
                }
            })
    }

    /// Which XMP rating won, for `explain`.
    private static func ratingExplanation(
        edited: XMPFields?, sidecar: XMPFields?, embedded: XMPFields?
    ) -> FactExplanation {
        FactExplanation(
            fact: "rating", value: edited?.rating.map(String.init),
            rule: sidecar?.rating != nil
                ? "XMP xmp:Rating (sidecar)" : embedded?.rating != nil ? "XMP xmp:Rating" : "none recorded",
            candidates: [("XMP xmp:Rating (sidecar)", sidecar?.rating), ("XMP xmp:Rating", embedded?.rating)]
                .compactMap { source, value in
                    value.map {
                        .init(
                            source: source, value: String($0),
                            outcome: edited?.rating == $0 ? "chosen" : "lower precedence")
                    }
                })
    }
}
