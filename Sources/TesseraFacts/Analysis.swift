import TesseraSystem

/// A per-photo analysis's name: its key in the index's queue (`analysis_queue`) and its name in
/// `status` (docs/ARCHITECTURE.md, "Analyses").
public struct AnalysisName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// What a photo shows, for finding copies (`PerceptualHash`).
    public static let pictureHashes = AnalysisName(rawValue: "picture-hashes")
    /// The faces in it, each described (docs/PEOPLE.md).
    public static let faces = AnalysisName(rawValue: "faces")

    public var description: String { rawValue }
}

/// What an analysis found of one photo, as the index keeps it.
public enum AnalysisOutput: Sendable, Equatable {
    /// Its 64-bit perceptual hash and 256-bit detail hash (`phash`, `phash_detail`).
    case pictureHashes(UInt64, DetailHash)
    /// The faces found, the most confident first (`faces`).
    case faces([FoundFace])

    /// The analysis it is of.
    public var name: AnalysisName {
        switch self {
        case .pictureHashes: .pictureHashes
        case .faces: .faces
        }
    }
}

/// A face a photo's XMP names (MWG's regions, as digiKam, Lightroom and Picasa write them, or
/// Microsoft's): the person's name and the box, as fractions of the photo as shown (its
/// orientation applied), from its top left.
public struct FaceRegion: Sendable, Equatable, Codable {
    public var name: String
    public var x, y, width, height: Double

    public init(name: String, x: Double, y: Double, width: Double, height: Double) {
        self.name = name
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// This region with its name trimmed, or nil when it names no one or is no box in the photo
    /// (a number that is none, a size of nothing or of more than the photo, a box far outside it).
    public var checked: FaceRegion? {
        let name = String(name.trimmingSpaces.prefix(256))
        let values = [x, y, width, height]
        guard !name.isEmpty, values.allSatisfy(\.isFinite), width > 0, height > 0, width <= 1.5, height <= 1.5,
            x >= -0.5, y >= -0.5, x + width <= 1.5, y + height <= 1.5
        else { return nil }
        return FaceRegion(name: name, x: x, y: y, width: width, height: height)
    }
}

/// A face found in a photo: where (fractions of the upright photo's width and height, from its
/// top left; a box may reach past the edges), how sure the detector was, and its descriptor.
public struct FoundFace: Sendable, Equatable {
    public var x, y, width, height: Double
    public var confidence: Double
    /// 128 numbers (dlib's ResNet): faces of one person lie within 0.6 of each other.
    public var descriptor: [Float]

    public init(x: Double, y: Double, width: Double, height: Double, confidence: Double, descriptor: [Float]) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
        self.confidence = confidence
        self.descriptor = descriptor
    }
}

/// How one analysis of one photo ended, or that it is still to run.
public struct AnalysisResult: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// Done; nil when there was nothing to keep.
        case done(AnalysisOutput?)
        /// It could not be done: not tried again until the photo changes or the analysis does.
        case failed(String)
        /// Not run with the renditions: the scan's analysis stage runs it from the stored preview.
        case pending
    }

    public var name: AnalysisName
    /// The analysis's version when it ran (`PhotoAnalysis.version`).
    public var version: Int
    public var outcome: Outcome

    public init(name: AnalysisName, version: Int, outcome: Outcome) {
        self.name = name
        self.version = version
        self.outcome = outcome
    }

    /// The output, when done with one.
    public var output: AnalysisOutput? {
        if case .done(let output) = outcome { output } else { nil }
    }
}

/// What an analysis may read of a photo besides its pixels: the facts the index keeps, whether
/// the photo was just read or is read back from the index.
public struct AnalysisFacts: Sendable, Equatable {
    public var format: ImageFormat
    public var camera: Camera
    public var gps: GPSPosition?
    public var annotations: Annotations

    public init(format: ImageFormat, camera: Camera, gps: GPSPosition?, annotations: Annotations) {
        (self.format, self.camera, self.gps, self.annotations) = (format, camera, gps, annotations)
    }
}

extension PhotoFacts {
    public var analysisFacts: AnalysisFacts {
        AnalysisFacts(format: format, camera: camera, gps: gps, annotations: annotations)
    }
}
