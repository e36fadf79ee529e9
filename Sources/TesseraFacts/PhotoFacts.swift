import Foundation
import TesseraSystem

/// What reading a file decided about it, as the index keeps it: the facts every reader of the
/// index works from, whichever format the file was and however its header said them.
///
/// TesseraMetadata makes these from what it reads (`PhotoMetadata.facts`); the index stores
/// them, so a program that reads the index needs no codec and no metadata library.
public struct PhotoFacts: Sendable, Codable {
    public var format: ImageFormat
    /// Stored pixel size, before orientation.
    public var width: Int
    public var height: Int
    /// EXIF orientation 1–8.
    public var orientation: Int
    public var bitDepth: Int
    /// The coding, such as "progressive 3ch 8-bit".
    public var coding: String
    /// PQ or HLG for a high dynamic range photo; nil for SDR.
    public var hdr: HDRTransfer?
    /// Nil when the photo is undated.
    public var captureDate: CaptureDate?
    public var camera: Camera
    public var gps: GPSPosition?
    /// The photo's own words for where it was taken (XMP), which win over a place named from `gps`.
    public var location: LocationWords?
    /// The faces its XMP names (docs/PEOPLE.md); nil in records written before they were read.
    public var faceRegions: [FaceRegion]?
    public var annotations: Annotations
    /// A video's container facts; nil for a photo.
    public var video: Video?
    /// A motion photo's embedded MP4.
    public var motion: EmbeddedVideo?
    /// Apple's Live Photo identifier, shared by a still and its video.
    public var contentIdentifier: String?
    /// The identifier the frames of one burst share (Apple's BurstUUID).
    public var burstIdentifier: String?
    public var warnings: [String]

    public init(
        format: ImageFormat, width: Int, height: Int, orientation: Int, bitDepth: Int, coding: String,
        hdr: HDRTransfer? = nil, captureDate: CaptureDate? = nil, camera: Camera = Camera(),
        gps: GPSPosition? = nil, location: LocationWords? = nil, annotations: Annotations = Annotations(),
        video: Video? = nil, motion: EmbeddedVideo? = nil,
        contentIdentifier: String? = nil, burstIdentifier: String? = nil, warnings: [String] = [],
        faceRegions: [FaceRegion]? = nil
    ) {
        self.faceRegions = faceRegions
        (self.format, self.width, self.height, self.orientation) = (format, width, height, orientation)
        (self.bitDepth, self.coding, self.hdr, self.captureDate) = (bitDepth, coding, hdr, captureDate)
        (self.camera, self.gps, self.annotations) = (camera, gps, annotations)
        (self.video, self.motion, self.contentIdentifier, self.warnings) = (video, motion, contentIdentifier, warnings)
        (self.burstIdentifier, self.location) = (burstIdentifier, location)
    }

    public var displayWidth: Int { orientation >= 5 ? height : width }
    public var displayHeight: Int { orientation >= 5 ? width : height }

    /// What a video's container says of it.
    public struct Video: Sendable, Equatable, Codable {
        /// Seconds, when the container says.
        public var duration: Double?
        /// The codec, as FFmpeg names it ("h264", "hevc", …).
        public var codec: String
        /// Clockwise degrees of its display matrix.
        public var rotation: Int
        public var frameRate: Double?

        public init(duration: Double?, codec: String, rotation: Int, frameRate: Double?) {
            (self.duration, self.codec, self.rotation, self.frameRate) = (duration, codec, rotation, frameRate)
        }
    }
}

/// Camera and exposure, from EXIF.
public struct Camera: Sendable, Equatable, Codable {
    public var make: String?
    public var model: String?
    public var lensModel: String?
    /// Seconds.
    public var exposureTime: Double?
    /// Exposure compensation, in EV.
    public var exposureBias: Double?
    public var fNumber: Double?
    public var iso: Int?
    /// Millimetres.
    public var focalLength: Double?
    /// The 35 mm equivalent, in millimetres.
    public var focalLength35mm: Double?
    /// The body's serial number: with the capture time, what pairs a RAW with its JPEG under
    /// another name.
    public var serialNumber: String?

    public init(
        make: String? = nil, model: String? = nil, lensModel: String? = nil, exposureTime: Double? = nil,
        exposureBias: Double? = nil, fNumber: Double? = nil, iso: Int? = nil, focalLength: Double? = nil,
        focalLength35mm: Double? = nil, serialNumber: String? = nil
    ) {
        (self.make, self.model, self.lensModel) = (make, model, lensModel)
        (self.exposureTime, self.exposureBias, self.fNumber, self.iso) = (exposureTime, exposureBias, fNumber, iso)
        (self.focalLength, self.focalLength35mm, self.serialNumber) = (focalLength, focalLength35mm, serialNumber)
    }

    /// "NIKON D90", "Canon EOS 7D", "Apple iPhone 4": make and model, the make left out when
    /// the model starts with its first word, as most cameras repeat it.
    public var name: String? {
        let make = (make ?? "").trimmingCharacters(in: .whitespaces),
            model = (model ?? "").trimmingCharacters(in: .whitespaces)
        let brand = make.split(separator: " ").first.map { $0.lowercased() } ?? ""
        let name =
            !brand.isEmpty && model.lowercased().hasPrefix(brand)
            ? model : [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? nil : name
    }

    /// "1/250 s, f/5.6, ISO 200, −1 EV, 18 mm (27 mm equivalent)": what was recorded of the
    /// exposure, rounded for people (the fields stay exact); empty when nothing was.
    public var exposure: String {
        var parts: [String] = []
        if let time = exposureTime, time > 0, time.isFinite {
            parts.append(
                time < 1 ? "1/\(Wording.number(1 / time, decimals: 0)) s" : "\(Wording.number(time, decimals: 1)) s"
            )
        }
        if let fNumber, fNumber > 0, fNumber.isFinite { parts.append("f/\(Wording.number(fNumber, decimals: 1))") }
        if let iso, iso > 0 { parts.append("ISO \(iso)") }
        if let bias = exposureBias, bias != 0, bias.isFinite {
            parts.append("\(bias > 0 ? "+" : "−")\(Wording.number(abs(bias), decimals: 1)) EV")
        }
        if let focalLength, focalLength > 0, focalLength.isFinite {
            var text = "\(Wording.number(focalLength, decimals: 1)) mm"
            if let equivalent = focalLength35mm, equivalent > 0, equivalent.isFinite,
                abs(equivalent - focalLength) >= 0.5
            {
                text += " (\(Wording.number(equivalent, decimals: 0)) mm equivalent)"
            }
            parts.append(text)
        }
        return parts.joined(separator: ", ")
    }
}

/// What people give a photo in their tools (XMP, embedded or in a sidecar).
public struct Annotations: Sendable, Equatable, Codable {
    /// -1 (rejected) to 5.
    public var rating: Int?
    public var label: String?
    public var title: String?
    public var description: String?
    public var keywords: [String]
    /// The sidecar's name beside the photo, when it has one.
    public var sidecar: String?

    public init(
        rating: Int? = nil, label: String? = nil, title: String? = nil, description: String? = nil,
        keywords: [String] = [], sidecar: String? = nil
    ) {
        (self.rating, self.label, self.title, self.description) = (rating, label, title, description)
        (self.keywords, self.sidecar) = (keywords, sidecar)
    }
}

/// The MP4 a motion photo carries after its still (Google's Motion Photo and MicroVideo,
/// Samsung's): where it lies in the file, as found and checked.
public struct EmbeddedVideo: Sendable, Equatable, Codable {
    /// Bytes from the start of the file to the MP4's first box (`ftyp`).
    public var offset: Int64
    /// Bytes of its boxes (`ftyp`, `moov`, `mdat`…), up to the first bytes that are not a box.
    public var length: Int64
    /// Seconds, from the movie header (`mvhd`).
    public var duration: Double?
    /// The video track's codec, as FFmpeg names it ("h264", "hevc"), from its sample description.
    public var codec: String?

    public init(offset: Int64, length: Int64, duration: Double? = nil, codec: String? = nil) {
        self.offset = offset
        self.length = length
        self.duration = duration
        self.codec = codec
    }
}
