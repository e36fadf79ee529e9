public import TesseraFacts
import TesseraImage

/// The perceptual and detail hashes of what a photo shows (`PerceptualHash`), by which copies
/// of one picture are found (docs/DUPLICATES.md): the first analysis stage.
public struct PictureHashing: PhotoAnalysis {
    public let name = AnalysisName.pictureHashes
    public let version = 1
    /// The placeholder's size: the hashes read the photo at 32 × 32 and finer is no better.
    public let imageSize = 100

    public init() {}

    public func analyse(_ input: AnalysisInput) throws(AnalysisError) -> AnalysisOutput? {
        let (hash, detail) = PerceptualHash.compute(input.image)
        return .pictureHashes(hash, detail)
    }
}
