public import SystemPackage
public import TesseraFacts
import TesseraSystem

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
    public var gps: GPSPosition?
    /// Its place, as the index named it (docs/PLACES.md).
    public var place: PlaceName?
    /// The names of the people whose faces it shows, left to right (named and not hidden:
    /// docs/PEOPLE.md).
    public var people: [String] = []
    public var warnings: [String]
    public var contentHash: String?
    /// The rendition files, by kind then size.
    public var renditions: [RenditionEntry]
    /// The ThumbHash placeholder (see docs/INDEX.md).
    public var thumbhash: [UInt8]?
    /// A video's facts; nil for a photo.
    public var video: Video? = nil
    /// The stack it is the face of, if any (docs/DUPLICATES.md).
    public var stack: StackFace? = nil

    /// A stack, as its face knows it: its kind and its other members' ids, in order.
    public struct StackFace: Sendable, Equatable {
        public var kind: Stack.Kind
        public var memberIDs: [Int64] = []
    }
    /// A motion photo's embedded MP4: where it lies, and its facts.
    public var motion: EmbeddedVideo? = nil
    /// The web rendition of a motion photo's MP4 in the cache, made from its present content,
    /// when browsers cannot play the MP4 as it is (`web_videos`).
    public var motionWebVideo: String? = nil
    /// Apple's Live Photo identifier, shared by a still and its video.
    public var contentIdentifier: String? = nil
    /// A Live Photo still's video (the `live_photos` view); nil otherwise.
    public var livePhotoVideo: LivePhotoVideo? = nil

    public var path: FilePath { FilePath(rawBytes: pathBytes) }

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
        /// Its web rendition in the cache, made from its present content, when browsers
        /// cannot play it as it is (`web_videos`).
        public var webVideo: String? = nil

        public init(duration: Double?, codec: String?, rotation: Int?, frameRate: Double?, posterTime: Double?) {
            self.duration = duration
            self.codec = codec
            self.rotation = rotation
            self.frameRate = frameRate
            self.posterTime = posterTime
        }

        public init(facts: PhotoFacts.Video, posterTime: Double? = nil) {
            self.init(
                duration: facts.duration, codec: facts.codec, rotation: facts.rotation, frameRate: facts.frameRate,
                posterTime: posterTime)
        }

        private enum Key: String, CodingKey { case duration, codec, rotation, frameRate, posterTime, webVideo }

        /// Every key written, `null` when unknown, as the rest of the report.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(duration, forKey: .duration)
            try container.encode(codec, forKey: .codec)
            try container.encode(rotation, forKey: .rotation)
            try container.encode(frameRate, forKey: .frameRate)
            try container.encode(posterTime, forKey: .posterTime)
            try container.encode(webVideo, forKey: .webVideo)
        }
    }
}

extension PhotoRecord {
    /// What an analysis may read of the photo besides its pixels.
    public var analysisFacts: AnalysisFacts {
        AnalysisFacts(format: format, camera: camera, gps: gps, annotations: annotations)
    }
}
