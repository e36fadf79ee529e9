import Foundation
public import SystemPackage
public import TesseraFacts
import TesseraImage
public import TesseraIndex
public import TesseraMetadata
import TesseraSystem

/// The JSON shape of one photo, shared by `tessera inspect --json` and `tessera list --json`:
/// what other programs read of a photo, from its file or from the index.
///
/// Field names are a contract with front ends. Keys whose value is unknown are
/// written as `null`, not left out. `path` is the path as UTF-8; a name that is
/// not valid UTF-8 is shown there with U+FFFD and given exactly, as the
/// base64 of its bytes, in `pathBase64` (present only then).
public struct PhotoReport: Encodable, Sendable {
    public var path: String
    public var pathBase64: String?
    public var format: String
    /// `photo` or `video`.
    public var kind: String
    /// A video's duration, codec, rotation, frame rate and poster frame's time; nil for a photo.
    public var video: PhotoRecord.Video?
    /// A motion photo's embedded MP4 (offset, length, duration, codec); nil otherwise.
    public var motion: EmbeddedVideo?
    /// The web rendition of a motion photo's MP4, when browsers cannot play it (index only).
    public var motionWebVideo: String?
    /// The stack and the group of copies the index records it in (`inspect` of an indexed
    /// file: docs/DUPLICATES.md).
    public var stack: Group?
    public var copies: Group?

    /// A stack or a group of copies: by which rule (`raw-pair`, `burst`, `bracket`;
    /// `same-bytes`, `same-picture`), why its first is first (the face, or the copy to keep),
    /// and its files in order, each picture's hash distance in bits from the first's.
    public struct Group: Encodable, Sendable, Equatable {
        public var rule: String
        public var why: String
        public var files: [Member]

        public struct Member: Encodable, Sendable, Equatable {
            public var path: String
            public var distance: Int?
        }

        public init(rule: String, why: String, files: [(path: String, distance: Int?)]) {
            (self.rule, self.why) = (rule, why)
            self.files = files.map { Member(path: $0.path, distance: $0.distance) }
        }
    }
    /// The path of a Live Photo still's video (index only: `list`).
    public var livePhotoVideo: String?
    /// The Live Photo identifier a still and its video share (Apple's ContentIdentifier).
    public var contentIdentifier: String?
    public var width: Int?
    public var height: Int?
    public var orientation: Int?
    public var displayWidth: Int?
    public var displayHeight: Int?
    public var capturedAt: String?
    public var utcOffset: String?
    public var dateSource: String?
    public var camera = Camera()
    public var gps: GPSPosition?
    /// The photo's own words for its place (XMP).
    public var location: LocationWords?
    /// The place named from `location`, `gps` and the corrections (`inspect` only: `list` does not
    /// look it up).
    public var place: PlaceName?
    /// Why a position has no place named: the place data is not installed, or is damaged.
    public var placeUnknown: String?
    /// The faces the index found in it, with their people (`inspect` only).
    public var faces: [FaceSummary]?
    /// Rating, label, title, description, keywords, and the name of the XMP sidecar read with
    /// the photo, if any.
    public var annotations = Annotations()
    public var coding: String?
    /// `pq` or `hlg` for a high dynamic range photo; nil (not written) for SDR.
    public var hdr: String?
    /// A HEIF's `nclx` colour description (`inspect` only).
    public var nclx: [String: Int]?
    public var warnings: [String]
    public var error: String?
    /// Index fields (`tessera list`): nil for `inspect`, and then not written.
    public var id: Int64?
    public var album: String?
    /// Square renditions, size → path (the field from before fits).
    public var thumbnails: [String: String]?
    public var renditions: [Rendition]?
    /// The ThumbHash placeholder, base64.
    public var thumbhash: String?
    public var status: String?

    /// One rendition file of the photo.
    public struct Rendition: Encodable, Sendable {
        public var kind: String
        public var size: Int
        public var width: Int
        public var height: Int
        public var bytes: Int?
        public var path: String
        /// Where its pixels came from: `decoded`, `dc-scans`, `mpf-preview`, `exif-thumbnail`.
        public var source: String
    }

    /// What `inspect` reads of the file at `path` and its sidecar: its metadata, or why it
    /// could not be read (with the format its first bytes name).
    public static func read(
        at path: FilePath, sidecars: inout SidecarFinder, context: DateContext = DateContext()
    ) -> PhotoReport {
        do throws(PhotoError) {
            let sidecarPath = sidecars.sidecar(of: path)
            let sidecar = sidecarPath.flatMap(Sidecar.read(at:))
            var report = PhotoReport(
                path: path, metadata: try MetadataReader.read(at: path, sidecar: sidecar, context: context))
            report.annotations.sidecar = sidecar?.name
            if sidecar == nil, let name = sidecarPath?.lastComponent?.string {
                report.warnings.append(Sidecar.unreadable(name))
            }
            return report
        } catch {
            let prefix = (try? FileReader.withPhoto(at: path) { $0.prefix }) ?? []
            return PhotoReport(path: path, format: ImageFormat.identify(prefix), error: error.reason)
        }
    }

    /// What `inspect` read from a file.
    public init(path: FilePath, metadata: PhotoMetadata) {
        let facts = metadata.facts
        (self.path, self.pathBase64) = Self.encode(path.rawBytes)
        format = facts.format.rawValue
        kind = facts.format.isVideo ? "video" : "photo"
        video = facts.video.map { PhotoRecord.Video(facts: $0) }
        contentIdentifier = facts.contentIdentifier
        motion = facts.motion
        width = facts.width
        height = facts.height
        orientation = facts.orientation
        displayWidth = facts.displayWidth
        displayHeight = facts.displayHeight
        capturedAt = facts.captureDate?.wallClock.iso8601
        utcOffset = facts.captureDate?.utcOffset?.description
        dateSource = (facts.captureDate?.source ?? .undated).rawValue
        camera = facts.camera
        gps = facts.gps
        location = facts.location
        annotations = facts.annotations
        coding = facts.coding
        hdr = facts.hdr?.rawValue
        nclx = metadata.heif?.nclx.map { ["primaries": $0.primaries, "transfer": $0.transfer, "matrix": $0.matrix] }
        warnings = facts.warnings
    }

    /// A file `inspect` could not read.
    public init(path: FilePath, format: ImageFormat, error: String) {
        (self.path, self.pathBase64) = Self.encode(path.rawBytes)
        self.format = format.rawValue
        self.kind = format.isVideo ? "video" : "photo"
        self.warnings = []
        self.error = error
    }

    /// A row of the index.
    public init(record: PhotoRecord) {
        (path, pathBase64) = Self.encode(record.pathBytes)
        format = record.format.rawValue
        kind = record.format.isVideo ? "video" : "photo"
        video = record.video
        contentIdentifier = record.contentIdentifier
        motion = record.motion
        motionWebVideo = record.motionWebVideo
        width = record.width
        height = record.height
        orientation = record.orientation
        displayWidth = record.displayWidth
        displayHeight = record.displayHeight
        capturedAt = record.capturedAt
        utcOffset = record.utcOffset
        dateSource = record.dateSource?.rawValue
        camera = record.camera
        gps = record.gps
        annotations = record.annotations
        coding = record.coding
        hdr = record.hdr
        warnings = record.warnings
        error = record.error
        addIndexFields(of: record)
    }

    /// What the index holds of the file beside what was read from it: its row, album, status,
    /// renditions and placeholder, a Live Photo's video, and web videos.
    public mutating func addIndexFields(of record: PhotoRecord) {
        id = record.id
        album = record.albumName
        livePhotoVideo = record.livePhotoVideo.map { Self.encode($0.pathBytes).0 }
        video?.webVideo = record.video?.webVideo
        motionWebVideo = record.motionWebVideo
        let squares = record.renditions.filter { $0.spec.kind == .square }
        thumbnails = Dictionary(
            squares.map { (String($0.spec.size), $0.path) }, uniquingKeysWith: { first, _ in first })
        renditions = record.renditions.map {
            Rendition(
                kind: $0.spec.kind.rawValue, size: $0.spec.size, width: $0.width, height: $0.height, bytes: $0.bytes,
                path: $0.path, source: $0.source.rawValue)
        }
        thumbhash = record.thumbhash.map { Data($0).base64EncodedString() }
        status = record.status.rawValue
    }

    /// The UTF-8 text of a path, plus its exact bytes in base64 when they are not valid UTF-8.
    static func encode(_ bytes: [UInt8]) -> (String, String?) {
        if let text = String(validating: bytes, as: UTF8.self) {
            return (text, nil)
        }
        return (String(decoding: bytes, as: UTF8.self), Data(bytes).base64EncodedString())
    }

    private enum Key: String, CodingKey {
        case path, pathBase64, format, kind, video, motion, motionWebVideo, stack, copies, livePhotoVideo,
            contentIdentifier,
            width,
            height,
            orientation, displayWidth, displayHeight, capturedAt
        case utcOffset, dateSource, make, model, lensModel, exposureTime, exposureBias, fNumber, iso, focalLength,
            focalLength35mm,
            gps, place
        case rating, label, title, description, keywords, sidecar
        case coding, hdr, nclx, warnings, error, id, album, thumbnails, renditions, thumbhash, status, faces
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(pathBase64, forKey: .pathBase64)
        try container.encode(format, forKey: .format)
        try container.encode(kind, forKey: .kind)
        try container.encode(video, forKey: .video)
        try container.encode(motion, forKey: .motion)
        if motion != nil && id != nil { try container.encode(motionWebVideo, forKey: .motionWebVideo) }
        // (only where they were looked for: `inspect`; `list` does not)
        try container.encodeIfPresent(stack, forKey: .stack)
        try container.encodeIfPresent(copies, forKey: .copies)
        try container.encode(contentIdentifier, forKey: .contentIdentifier)
        if id != nil { try container.encode(livePhotoVideo, forKey: .livePhotoVideo) }
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(orientation, forKey: .orientation)
        try container.encode(displayWidth, forKey: .displayWidth)
        try container.encode(displayHeight, forKey: .displayHeight)
        try container.encode(capturedAt, forKey: .capturedAt)
        try container.encode(utcOffset, forKey: .utcOffset)
        try container.encode(dateSource, forKey: .dateSource)
        try container.encode(camera.make, forKey: .make)
        try container.encode(camera.model, forKey: .model)
        try container.encode(camera.lensModel, forKey: .lensModel)
        try container.encode(camera.exposureTime, forKey: .exposureTime)
        try container.encode(camera.exposureBias, forKey: .exposureBias)
        try container.encode(camera.fNumber, forKey: .fNumber)
        try container.encode(camera.iso, forKey: .iso)
        try container.encode(camera.focalLength, forKey: .focalLength)
        try container.encode(camera.focalLength35mm, forKey: .focalLength35mm)
        try container.encode(gps, forKey: .gps)
        if gps != nil || place != nil { try container.encode(place, forKey: .place) }
        try container.encode(annotations.rating, forKey: .rating)
        try container.encode(annotations.label, forKey: .label)
        try container.encode(annotations.title, forKey: .title)
        try container.encode(annotations.description, forKey: .description)
        try container.encode(annotations.keywords, forKey: .keywords)
        try container.encode(annotations.sidecar, forKey: .sidecar)
        try container.encode(coding, forKey: .coding)
        try container.encodeIfPresent(hdr, forKey: .hdr)
        try container.encodeIfPresent(nclx, forKey: .nclx)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(error, forKey: .error)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(album, forKey: .album)
        try container.encodeIfPresent(thumbnails, forKey: .thumbnails)
        try container.encodeIfPresent(renditions, forKey: .renditions)
        if id != nil { try container.encode(thumbhash, forKey: .thumbhash) }
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(faces, forKey: .faces)
    }
}
