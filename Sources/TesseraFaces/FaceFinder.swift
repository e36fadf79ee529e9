import CFaces
import SystemPackage
public import TesseraImage
import TesseraSystem

/// Finds the faces of a photo and describes each (docs/PEOPLE.md), with dlib: its HOG face
/// detector by default, its 5-point landmarks to align each face and its ResNet descriptor.
///
/// Owns the loaded models (the landmarks and the descriptor's network, about 40 MB, read when
/// its first face is found); one thread uses it at a time (each worker takes its own from
/// `FinderPool`).
public final class FaceFinder: @unchecked Sendable {
    public enum Detector: Sendable {
        /// dlib's HOG detector: about 0.1 s a megapixel on one core; frontal faces and those
        /// turned up to about 45°.
        case hog
        /// dlib's CNN detector (`mmod_human_face_detector.dat`): turned and small faces too,
        /// at some 50 times the cost on a CPU.
        case cnn
    }

    /// At most this many faces of one photo are described (a crowd's most confident ones).
    public let maxFaces: Int
    private let handle: OpaquePointer

    /// Loads the models; throws naming the file that is missing or damaged.
    public init(models: FaceModels, detector: Detector = .hog, maxFaces: Int = 64) throws(FaceError) {
        try models.check()
        var error = [CChar](repeating: 0, count: 512)
        let hog = (try? FileSystem.status(of: models.hogDetector))?.type == .regular ? models.hogDetector : nil
        let detectorFile = detector == .cnn ? models.detector : hog
        let opened = (detectorFile?.string ?? "").withCString { detectorPath in
            models.landmarks.string.withCString { landmarks in
                models.descriptor.string.withCString { descriptor in
                    tessera_faces_open(
                        detector == .cnn ? TESSERA_FACES_CNN : TESSERA_FACES_HOG,
                        detectorFile == nil ? nil : detectorPath,
                        landmarks, descriptor, &error, error.count)
                }
            }
        }
        guard let opened else {
            throw FaceError("\(Self.text(error)) (\(FaceModels.howToInstall))")
        }
        handle = opened
        self.maxFaces = max(0, maxFaces)
    }

    deinit {
        tessera_faces_close(handle)
    }

    /// The most pixels a search looks at (once enlarged): 2,048 × 2,048, as the C side allows.
    static let mostPixels = 2048 * 2048
    /// Below this long edge an image is searched at twice its size, so that faces of 40 pixels
    /// meet the detector's 80-pixel window.
    public static let enlargeBelow = 1000

    /// The faces of `image` (upright, sRGB), the most confident first, in its pixels.
    public func faces(in image: PixelBuffer) throws(FaceError) -> [DetectedFace] {
        let rgb = image.flattened()
        let pixels = rgb.width * rgb.height
        guard pixels <= Self.mostPixels else {
            throw FaceError("an image of \(rgb.width) × \(rgb.height) is larger than faces are searched in")
        }
        let upsample = max(rgb.width, rgb.height) < Self.enlargeBelow && pixels * 4 <= Self.mostPixels ? 1 : 0
        var found = [tessera_face](repeating: tessera_face(), count: maxFaces)
        var error = [CChar](repeating: 0, count: 512)
        let count = rgb.pixels.withUnsafeBufferPointer { bytes in
            found.withUnsafeMutableBufferPointer { faces in
                tessera_faces_find(
                    handle, bytes.baseAddress, Int32(rgb.width), Int32(rgb.height), Int32(rgb.width * 3),
                    Int32(upsample), faces.baseAddress, Int32(maxFaces), &error, error.count)
            }
        }
        guard count >= 0 else { throw FaceError("\(Self.text(error)) (\(FaceModels.howToInstall))") }
        return found.prefix(min(Int(count), maxFaces)).map(DetectedFace.init)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// One face found in an image: where, how sure the detector was, and its descriptor.
public struct DetectedFace: Sendable, Equatable {
    /// In the image's pixels; it may reach past its edges.
    public var x, y, width, height: Double
    /// The detector's score: above 0 a face; the larger, the surer.
    public var confidence: Double
    /// The eyes' corners and the nose's base, in the image's pixels.
    public var landmarks: [(x: Double, y: Double)] {
        stride(from: 0, to: landmarkValues.count, by: 2).map { (landmarkValues[$0], landmarkValues[$0 + 1]) }
    }
    private var landmarkValues: [Double]
    /// 128 numbers: two faces of one person lie within `FaceDescriptor.samePerson` of each other.
    public var descriptor: FaceDescriptor

    init(_ face: tessera_face) {
        (x, y, width, height) = (Double(face.left), Double(face.top), Double(face.width), Double(face.height))
        confidence = Double(face.confidence)
        landmarkValues = withUnsafeBytes(of: face.landmarks) { Array($0.bindMemory(to: Float.self)).map(Double.init) }
        descriptor = FaceDescriptor(
            values: withUnsafeBytes(of: face.descriptor) { Array($0.bindMemory(to: Float.self)) })
    }
}

/// A face's 128-d descriptor: faces of one person are near, of two people far.
public struct FaceDescriptor: Sendable, Equatable {
    public var values: [Float]

    /// The distance under which dlib's model puts two faces of one person (99.38 % on LFW).
    public static let samePerson = 0.6

    public init(values: [Float]) {
        self.values = values
    }

    /// Euclidean.
    public func distance(to other: FaceDescriptor) -> Double {
        var sum: Float = 0
        for (a, b) in zip(values, other.values) { sum += (a - b) * (a - b) }
        return Double(sum).squareRoot()
    }
}
