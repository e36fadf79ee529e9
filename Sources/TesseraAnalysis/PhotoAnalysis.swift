public import TesseraFacts
public import TesseraImage

/// A per-photo analysis that runs after the photo's renditions (docs/ARCHITECTURE.md,
/// "Analyses"): given the photo upright in sRGB at a bounded size and its facts, it gives what
/// the index keeps of it.
///
/// A scan runs it on the pixels it decoded for the renditions, in the worker that made them (a
/// cluster's worker too); a photo it could not run on then, or read before it existed or before
/// its `version`, waits in the index's queue (`analysis_queue`) for the scan's analysis stage,
/// which gives it the photo's stored preview rendition. Its code links what it needs (a model,
/// a data file); the index links none of it.
public protocol PhotoAnalysis: Sendable {
    var name: AnalysisName { get }
    /// Raised when its outputs change for the same photo: every photo is analysed again.
    var version: Int { get }
    /// The long edge of the image it wants, in pixels: the whole photo at most this large (or
    /// at its own size when smaller).
    var imageSize: Int { get }
    /// What it found; throws `AnalysisError` for a photo it cannot analyse.
    func analyse(_ input: AnalysisInput) throws(AnalysisError) -> AnalysisOutput?
}

/// What an analysis is given of one photo.
public struct AnalysisInput: Sendable {
    /// The whole photo, upright, in sRGB: a video's poster frame.
    public var image: PixelBuffer
    /// What its metadata says (nil when only its pixels are known).
    public var facts: AnalysisFacts?

    public init(image: PixelBuffer, facts: AnalysisFacts?) {
        self.image = image
        self.facts = facts
    }
}

/// Why an analysis could not be done for one photo.
public struct AnalysisError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension PhotoAnalysis {
    /// Runs on `image` (the whole photo upright at about `imageSize`), or says why it did not.
    public func result(of image: PixelBuffer?, facts: AnalysisFacts?) -> AnalysisResult {
        guard let image else { return AnalysisResult(name: name, version: version, outcome: .pending) }
        do throws(AnalysisError) {
            let output = try analyse(AnalysisInput(image: image, facts: facts))
            return AnalysisResult(name: name, version: version, outcome: .done(output))
        } catch {
            return AnalysisResult(name: name, version: version, outcome: .failed(error.description))
        }
    }

    /// The image, among the whole-photo images a decode made, that this analysis reads: the
    /// smallest at least `imageSize` on its long edge, else the largest.
    public func image(among images: [PixelBuffer]) -> PixelBuffer? {
        let long = { (image: PixelBuffer) in max(image.width, image.height) }
        return images.filter { long($0) >= imageSize }.min { long($0) < long($1) } ?? images.max { long($0) < long($1) }
    }
}
