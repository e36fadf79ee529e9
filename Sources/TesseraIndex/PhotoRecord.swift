import Foundation
public import SystemPackage
public import TesseraMetadata
import TesseraSystem
public import TesseraVideo

/// One row of the `photos` table: what the index knows about a file, keyed by its row id.
///
/// Readers (the CLI, the album pages, the layout) work from this; JSON shapes are
/// the executable's business, not the index's.
public struct PhotoRecord: Sendable, Identifiable {
    /// What became of the file.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Indexed; its renditions exist.
        case ok
        /// Indexed, with recoverable problems (see `warnings`).
        case warning
        /// Could not be read or decoded (see `error`).
        case error
        /// Not a photo Tessera reads (see `error` for why).
        case unsupported
    }

    /// Camera and exposure, from EXIF.
    public struct Camera: Sendable, Equatable {
        public var make: String?
        public var model: String?
        public var lensModel: String?
        /// Seconds.
        public var exposureTime: Double?
        public var fNumber: Double?
        public var iso: Int?
        /// Millimetres.
        public var focalLength: Double?
        /// The 35 mm equivalent, in millimetres.
        public var focalLength35mm: Double?

        public init(
            make: String? = nil, model: String? = nil, lensModel: String? = nil, exposureTime: Double? = nil,
            fNumber: Double? = nil, iso: Int? = nil, focalLength: Double? = nil, focalLength35mm: Double? = nil
        ) {
            (self.make, self.model, self.lensModel) = (make, model, lensModel)
            (self.exposureTime, self.fNumber, self.iso) = (exposureTime, fNumber, iso)
            (self.focalLength, self.focalLength35mm) = (focalLength, focalLength35mm)
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

        /// "1/250 s, f/5.6, ISO 200, 18 mm (27 mm in 35 mm terms)": what was recorded of the
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
            if let focalLength, focalLength > 0, focalLength.isFinite {
                var text = "\(Wording.number(focalLength, decimals: 1)) mm"
                if let equivalent = focalLength35mm, equivalent > 0, equivalent.isFinite,
                    abs(equivalent - focalLength) >= 0.5
                {
                    text += " (\(Wording.number(equivalent, decimals: 0)) mm in 35 mm terms)"
                }
                parts.append(text)
            }
            return parts.joined(separator: ", ")
        }

        /// What the reader decided, by docs/METADATA.md's precedence.
        public init(metadata: PhotoMetadata) {
            let exif = metadata.exif
            self.init(
                make: exif?.make, model: exif?.model, lensModel: exif?.lensModel, exposureTime: exif?.exposureTime,
                fNumber: exif?.fNumber, iso: exif?.iso, focalLength: exif?.focalLength,
                focalLength35mm: metadata.focalLength35mm)
        }
    }

    /// What people give a photo in their tools (XMP, embedded or in a sidecar).
    public struct Annotations: Sendable, Equatable {
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

        /// What the reader decided: the sidecar's XMP over the embedded (the sidecar's name is
        /// the caller's to give).
        public init(metadata: PhotoMetadata) {
            let xmp = metadata.xmp
            self.init(
                rating: xmp?.rating, label: xmp?.label, title: xmp?.title, description: xmp?.description,
                keywords: xmp?.keywords ?? [])
        }
    }

    public var id: Int64
    /// The path's exact bytes.
    public var pathBytes: [UInt8]
    public var albumID: Int64
    /// The album's folder relative to its root ("" for the root itself).
    public var albumName: String
    public var status: Status
    /// Why the file failed or is unsupported.
    public var error: String?
    /// The `PhotoError` code of a failure (`io`, `corrupt`, `tooLarge`, …).
    public var errorCode: String?
    public var format: ImageFormat
    /// Stored pixel size, before orientation.
    public var width: Int?
    public var height: Int?
    /// EXIF orientation 1–8.
    public var orientation: Int?
    public var displayWidth: Int?
    public var displayHeight: Int?
    public var bitDepth: Int?
    public var coding: String?
    /// `pq` or `hlg` for a high dynamic range photo (its renditions are tone-mapped); nil for SDR.
    public var hdr: String?
    /// The wall clock of the capture, `YYYY-MM-DDTHH:MM:SS[.fff]`.
    public var capturedAt: String?
    public var utcOffset: String?
    public var dateSource: DateSource?
    public var sortInstantMilliseconds: Int64?
    public var camera: Camera
    public var annotations: Annotations
    public var gps: ExifFields.GPS?
    public var warnings: [String]
    public var contentHash: String?
    /// The rendition files, by kind then size.
    public var renditions: [RenditionEntry]
    /// The ThumbHash placeholder (see docs/INDEX.md).
    public var thumbhash: [UInt8]?
    /// A video's facts; nil for a photo.
    public var video: Video? = nil
    /// A motion photo's embedded MP4: where it lies, and its facts.
    public var motion: Motion? = nil
    /// Apple's Live Photo identifier, shared by a still and its video.
    public var contentIdentifier: String? = nil
    /// A Live Photo still's video (the `live_photos` view); nil otherwise.
    public var livePhotoVideo: LivePhotoVideo? = nil

    public var path: FilePath { FilePath(rawBytes: pathBytes) }

    /// The MP4 a motion photo carries: its bytes in the file, its duration and codec.
    public struct Motion: Sendable, Equatable, Encodable {
        public var offset: Int64
        public var length: Int64
        public var duration: Double?
        public var codec: String?

        public init(offset: Int64, length: Int64, duration: Double?, codec: String?) {
            self.offset = offset
            self.length = length
            self.duration = duration
            self.codec = codec
        }
    }

    /// What the index holds of a video beyond what a photo has.
    public struct Video: Sendable, Equatable, Encodable {
        /// Seconds, when the container says.
        public var duration: Double?
        public var codec: String?
        /// Clockwise degrees of its display matrix (also its orientation).
        public var rotation: Int?
        public var frameRate: Double?
        /// The time in seconds of the frame its renditions show.
        public var posterTime: Double?

        public init(duration: Double?, codec: String?, rotation: Int?, frameRate: Double?, posterTime: Double?) {
            self.duration = duration
            self.codec = codec
            self.rotation = rotation
            self.frameRate = frameRate
            self.posterTime = posterTime
        }

        public init(facts: VideoFacts, posterTime: Double? = nil) {
            self.init(
                duration: facts.duration, codec: facts.codec, rotation: facts.rotation, frameRate: facts.frameRate,
                posterTime: posterTime)
        }

        private enum Key: String, CodingKey { case duration, codec, rotation, frameRate, posterTime }

        /// Every key written, `null` when unknown, as the rest of the report.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(duration, forKey: .duration)
            try container.encode(codec, forKey: .codec)
            try container.encode(rotation, forKey: .rotation)
            try container.encode(frameRate, forKey: .frameRate)
            try container.encode(posterTime, forKey: .posterTime)
        }
    }
}
