import TesseraFacts

/// Which value wins when a photo states a fact in more than one place: this file decides it,
/// and docs/METADATA.md says the same in words.
///
/// Dates are decided in `CaptureDate.resolve`.
///
/// - What people edit (rating, label, title, description, keywords): the sidecar's XMP, then
///   the XMP embedded in the file. A sidecar is where digiKam, darktable and Lightroom write
///   what their user changed; the embedded packet is what the file had before.
/// - What the camera measured (make, model, lens, exposure, aperture, ISO, focal length):
///   EXIF, then XMP (sidecar, then embedded) for what EXIF lacks.
/// - Position: a sidecar's `exif:GPSLatitude`/`exif:GPSLongitude` (a geotagger's, or a
///   correction made in a tool that never touches the file), then EXIF GPS, then embedded XMP.
/// - Location words (`photoshop:City`… `Iptc4xmpExt:LocationShown`): the sidecar's, then the
///   embedded packet's, never some of each; they win over the place named from the position.
/// - Orientation: a sidecar's `tiff:Orientation` (a rotation the user made in a tool that
///   never touches the file), then EXIF, then embedded XMP. A HEIF is displayed by its own
///   transformations, and a RAW file by what LibRaw reads of it when LibRaw reads it.
enum Precedence {
    static func edited(sidecar: XMPFields?, embedded: XMPFields?) -> XMPFields? {
        guard let sidecar else { return embedded }
        guard let embedded else { return sidecar }
        return sidecar.filling(from: embedded)
    }

    static func camera(exif: ExifFields?, xmp: XMPFields?) -> ExifFields? {
        guard let xmp else { return exif }
        var fields = exif ?? ExifFields()
        fields.make = fields.make ?? xmp.make
        fields.model = fields.model ?? xmp.model
        fields.lensModel = fields.lensModel ?? xmp.lensModel
        fields.serialNumber = fields.serialNumber ?? xmp.serialNumber
        fields.exposureTime = fields.exposureTime ?? xmp.exposureTime
        fields.exposureBias = fields.exposureBias ?? xmp.exposureBias
        fields.fNumber = fields.fNumber ?? xmp.fNumber
        fields.iso = fields.iso ?? xmp.iso
        fields.focalLength = fields.focalLength ?? xmp.focalLength
        return fields
    }

    /// The diagonal of a 35 mm frame (36 × 24 mm), which "35 mm equivalent" scales to.
    static let fullFrameDiagonal = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()

    /// `FocalLengthIn35mmFilm`; else the focal length scaled by the sensor's diagonal, as
    /// exiftool's `FocalLength35efl`; else XMP's `exif:FocalLengthIn35mmFilm`.
    static func focalLength35mm(
        exif: ExifFields?, xmp: XMPFields?, imageWidth: Int, imageHeight: Int
    ) -> (value: Double, rule: String)? {
        if let recorded = exif?.focalLength35mm { return (recorded, "EXIF FocalLengthIn35mmFilm") }
        if let focal = exif?.focalLength, focal > 0, let plane = exif?.focalPlane,
            let diagonal = plane.diagonal(make: exif?.make, imageWidth: imageWidth, imageHeight: imageHeight)
        {
            let source =
                exif?.make == "Canon" && plane.canonFormDiagonal != nil
                ? "Canon's FocalPlaneResolution" : "FocalPlaneResolution"
            return (focal * fullFrameDiagonal / diagonal, "focal length × 43.27 mm / sensor diagonal (\(source))")
        }
        if let recorded = xmp?.focalLength35mm { return (recorded, "XMP exif:FocalLengthIn35mmFilm") }
        return nil
    }

    /// The orientation of a photo that is not displayed by HEIF transformations or LibRaw.
    static func orientation(
        exif: Int?, sidecar: Int?, embedded: Int?, warnings: inout [String]
    ) -> (value: Int, rule: String) {
        let candidates = [
            ("XMP tiff:Orientation (sidecar)", sidecar), ("EXIF Orientation", exif),
            ("XMP tiff:Orientation", embedded),
        ]
        for case let (rule, value?) in candidates {
            if (1...8).contains(value) { return (value, rule) }
            warnings.append("invalid orientation \(value) in \(rule); ignored")
        }
        return (1, "none recorded: upright")
    }

    /// The position, as orientation is decided: what a sidecar says, then EXIF, then embedded XMP.
    static func position(
        exif: GPSPosition?, sidecar: GPSPosition?, embedded: GPSPosition?
    ) -> (value: GPSPosition?, rule: String, candidates: [FactExplanation.Candidate]) {
        let sources = [
            ("XMP exif:GPSLatitude/GPSLongitude (sidecar)", sidecar), ("EXIF GPSLatitude/GPSLongitude", exif),
            ("XMP exif:GPSLatitude/GPSLongitude", embedded),
        ]
        let chosen = sources.first { $0.1 != nil }
        let candidates = sources.compactMap { source, value in
            value.map {
                FactExplanation.Candidate(
                    source: source, value: "\($0.latitude), \($0.longitude)",
                    outcome: source == chosen?.0 ? "chosen" : "lower precedence")
            }
        }
        return (chosen?.1, chosen?.0 ?? "none recorded", candidates)
    }
}
