public import Foundation
public import TesseraFacts
import TesseraJXL
public import TesseraVideo

/// Everything Tessera reads from one file without decoding its pixels.
public struct PhotoMetadata: Sendable {
    public var format: ImageFormat
    /// Stored pixel size from the JPEG SOF or PNG IHDR, before orientation.
    public var width: Int
    public var height: Int
    /// EXIF orientation 1–8; 1 when absent or invalid.
    public var orientation: Int
    public var bitDepth: Int
    /// JPEG process and component count, or PNG colour type; such as "progressive 3ch 8-bit".
    public var coding: String
    /// What its format's reader read (`PhotoHeaders`); the typed views below are this, by format.
    public var header: any PhotoHeader
    /// A motion photo's embedded MP4: the photo stays a photo.
    public var motion: EmbeddedVideo?
    /// The camera's facts: EXIF, completed from XMP where EXIF lacks one (`Precedence`).
    public var exif: ExifFields?
    /// What people edit (rating, label, title, description, keywords), sidecar over embedded.
    public var xmp: XMPFields?
    /// The 35 mm equivalent focal length: recorded, or computed from the sensor size.
    public var focalLength35mm: Double?
    /// Nil when the photo is undated: no date in the file, its XMP or its name.
    public var captureDate: CaptureDate?
    public var warnings: [String]
    /// Whether a sidecar turns the photo other than its file does: the renditions' key must then
    /// name the orientation, since the file's content hash does not. (A sidecar that repeats
    /// the file's orientation, as digiKam's do, leaves the renditions as they are.)
    public var sidecarTurnsPhoto = false
    /// How each fact was decided; filled only when the reader is asked to explain.
    public var explanations: [FactExplanation] = []

    public var jpeg: JPEGHeader? { header as? JPEGHeader }
    public var png: PNGHeader? { header as? PNGHeader }
    public var webp: WebPHeader? { header as? WebPHeader }
    public var heif: HEIFHeader? { header as? HEIFHeader }
    public var jxl: JXLHeader? { header as? JXLHeader }
    public var raw: RAWHeader? { header as? RAWHeader }
    /// A video's container facts; its renditions come from its poster frame.
    public var video: VideoFacts? { header as? VideoFacts }

    /// Throws `tooLarge` when the image declares more than `limit` pixels: the guard
    /// against decompression bombs, checked from the header before any pixel buffer exists.
    public func checkPixelLimit(_ limit: Int) throws(PhotoError) {
        // What a HEIF's codec will decode, when its configuration says more than its `ispe`.
        if let coded = heif?.largestCodedFrame, coded > limit {
            throw PhotoError(
                .tooLarge,
                "image whose codec frame has \((Double(coded) / 1e5).rounded() / 10) MP (its header says "
                    + "\(width)×\(height)) exceeds the pixel limit of \(limit / 1_000_000) MP")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard overflow || pixels > limit else { return }
        let megapixels = (Double(width) * Double(height) / 1e6 * 10).rounded() / 10
        throw PhotoError(
            .tooLarge,
            "image of \(width)×\(height) (\(megapixels) MP) exceeds the pixel limit of \(limit / 1_000_000) MP")
    }

    /// Whether the file describes its colours (an ICC profile, which may or may not be usable,
    /// or a HEIF `nclx` box): colour management may change its pixels.
    public var hasICCProfile: Bool { header.describesColour }

    /// The transfer of an HDR photo (a HEIF's `nclx`, a JPEG XL's colour encoding): its renditions
    /// are tone-mapped.
    public var hdrTransfer: HDRTransfer? { header.hdr }

    /// Size after orientation: width and height swap for orientations 5–8.
    public var displayWidth: Int { orientation >= 5 ? height : width }
    public var displayHeight: Int { orientation >= 5 ? width : height }

    /// What the index keeps of it: each fact as docs/METADATA.md's precedence decided it.
    public var facts: PhotoFacts {
        PhotoFacts(
            format: format, width: width, height: height, orientation: orientation, bitDepth: bitDepth,
            coding: coding, hdr: hdrTransfer, captureDate: captureDate,
            camera: Camera(
                make: exif?.make, model: exif?.model, lensModel: exif?.lensModel, exposureTime: exif?.exposureTime,
                exposureBias: exif?.exposureBias, fNumber: exif?.fNumber, iso: exif?.iso,
                focalLength: exif?.focalLength,
                focalLength35mm: focalLength35mm, serialNumber: exif?.serialNumber),
            gps: exif?.gps.flatMap { $0.isNullIsland ? nil : $0 }, location: xmp?.location,
            annotations: Annotations(
                rating: xmp?.rating, label: xmp?.label, title: xmp?.title, description: xmp?.description,
                keywords: xmp?.keywords ?? []),
            video: video.map {
                PhotoFacts.Video(duration: $0.duration, codec: $0.codec, rotation: $0.rotation, frameRate: $0.frameRate)
            },
            motion: motion, contentIdentifier: exif?.contentIdentifier, burstIdentifier: exif?.burstIdentifier,
            warnings: warnings, faceRegions: xmp?.faceRegions)
    }
}

/// How dates without an offset are read, and what "now" is for plausibility checks.
public struct DateContext: Sendable {
    public var timeZone: TimeZone
    public var now: Date
    /// Whether the reader records how it decided each fact (`tessera explain`).
    public var explaining: Bool

    public init(timeZone: TimeZone = .current, now: Date = Date(), explaining: Bool = false) {
        self.timeZone = timeZone
        self.now = now
        self.explaining = explaining
    }
}
