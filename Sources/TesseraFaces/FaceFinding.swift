import Synchronization
public import TesseraAnalysis
public import TesseraFacts
import TesseraImage

/// The faces of each photo (docs/PEOPLE.md): an analysis of the scan, run on the photo upright at
/// 1,024 pixels after its renditions, in the worker that made them.
public struct FaceFinding: PhotoAnalysis {
    public let name = AnalysisName.faces
    public let version = 1
    public let imageSize = 1024
    private let finders: FinderPool

    /// The finding with the models in `models`: loaded here once to check them (throws naming a
    /// file missing or damaged), then once for each thread that finds faces at the same time.
    public init(models: FaceModels) throws(FaceError) {
        finders = FinderPool(models: models)
        try finders.check()
    }

    public func analyse(_ input: AnalysisInput) throws(AnalysisError) -> AnalysisOutput? {
        let image = input.image
        do throws(FaceError) {
            let faces = try finders.use { finder throws(FaceError) in try finder.faces(in: image) }
            let (width, height) = (Double(image.width), Double(image.height))
            return .faces(
                faces.map { face in
                    FoundFace(
                        x: face.x / width, y: face.y / height, width: face.width / width, height: face.height / height,
                        confidence: face.confidence, descriptor: face.descriptor.values)
                })
        } catch {
            throw AnalysisError(error.description)
        }
    }
}

/// Loaded models for the threads that find faces at once: each takes one, made on first need,
/// and gives it back for the next photo.
final class FinderPool: Sendable {
    let models: FaceModels
    private let idle = Mutex<[FaceFinder]>([])

    init(models: FaceModels) {
        self.models = models
    }

    /// Loads one finder (kept for the first photo).
    func check() throws(FaceError) {
        let finder = try FaceFinder(models: models)
        idle.withLock { $0.append(finder) }
    }

    func use<T>(_ body: (FaceFinder) throws(FaceError) -> T) throws(FaceError) -> T {
        let waiting = idle.withLock { $0.popLast() }
        let finder: FaceFinder
        if let waiting { finder = waiting } else { finder = try FaceFinder(models: models) }
        defer { idle.withLock { $0.append(finder) } }
        return try body(finder)
    }
}
