/// A per-photo analysis's name: its key in the index's queue (`analysis_queue`) and its name in
/// `status` (docs/ARCHITECTURE.md, "Analyses").
public struct AnalysisName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// What a photo shows, for finding copies (`PerceptualHash`).
    public static let pictureHashes = AnalysisName(rawValue: "picture-hashes")

    public var description: String { rawValue }
}

/// What an analysis found of one photo, as the index keeps it.
public enum AnalysisOutput: Sendable, Equatable {
    /// Its 64-bit perceptual hash and 256-bit detail hash (`phash`, `phash_detail`).
    case pictureHashes(UInt64, DetailHash)

    /// The analysis it is of.
    public var name: AnalysisName {
        switch self {
        case .pictureHashes: .pictureHashes
        }
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
