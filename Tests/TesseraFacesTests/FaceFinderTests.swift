import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraFaces

/// Faces found and described on real photos of real people (`../shared/faces`, read in place),
/// with the models the README's commands install (scripts/install-faces.sh puts `faces/`
/// beside the test binary, as beside `tessera`).
struct FaceFinderTests {
    static let models: FaceModels? = try? FaceModels.installed(
        environment: [:], executable: FilePath(CommandLine.arguments[0])
    ).get()

    static let faces = Corpus.root.deletingLastPathComponent().appendingPathComponent("faces")
    static let facesAvailable = FileManager.default.fileExists(
        atPath: faces.appendingPathComponent("MANIFEST.tsv").path)
    static let facesNote: Comment = "needs ../shared/faces beside the project; not found"

    static func finder() throws -> FaceFinder {
        let models = try #require(
            Self.models, "the face models are not installed beside the tests: \(FaceModels.howToInstall)")
        return try FaceFinder(models: models)
    }

    /// The photo at `relative` (under ../shared/faces), upright, at most `size` pixels long, as
    /// a scan gives it to its analyses.
    static func image(_ relative: String, size: Int = 1024) throws -> PixelBuffer {
        let rendered = try Renderer(options: RenderOptions()).render(
            file: FilePath(faces.appendingPathComponent(relative).path), specs: [], keeping: [.fit(size)],
            placeholder: false)
        return try #require(rendered.images[.fit(size)])
    }

    /// The manifest's files of one kind (`johns/`, `people/`), with their identities.
    static func labelled(under folder: String) throws -> [(file: String, identity: String)] {
        let text = try String(contentsOf: faces.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count > 1, cells[0].hasPrefix("faces/\(folder)/") else { return nil }
            return (String(cells[0].dropFirst("faces/".count)), cells[1])
        }
    }

    /// Five people's aligned face crops, eleven each: every crop gives one face, and of the
    /// pairs of one person at least 80 % are within the same-person distance, of two people at
    /// least 95 % beyond it.
    @Test(.enabled(if: facesAvailable, facesNote)) func facesOfOnePersonAreNearAndOfTwoFar() throws {
        let finder = try Self.finder()
        let crops = try Self.labelled(under: "johns")
        #expect(crops.count >= 50)
        var described: [(identity: String, descriptor: FaceDescriptor)] = []
        for crop in crops {
            let found = try finder.faces(in: try Self.image(crop.file))
            #expect(found.count == 1, "\(crop.file): \(found.count) faces")
            if let face = found.first { described.append((crop.identity, face.descriptor)) }
        }
        var same = (near: 0, all: 0), different = (far: 0, all: 0)
        for (i, a) in described.enumerated() {
            for b in described[(i + 1)...] {
                let near = a.descriptor.distance(to: b.descriptor) < FaceDescriptor.samePerson
                if a.identity == b.identity {
                    same = (same.near + (near ? 1 : 0), same.all + 1)
                } else {
                    different = (different.far + (near ? 0 : 1), different.all + 1)
                }
            }
        }
        print(
            "faces: \(same.near) of \(same.all) pairs of one person near, \(different.far) of \(different.all) of two far"
        )
        #expect(Double(same.near) >= 0.8 * Double(same.all))
        #expect(Double(different.far) >= 0.95 * Double(different.all))
    }

    /// Ordinary photos: one face each, of the right person; a photo of two people gives two
    /// faces, each nearest its own person's photo.
    @Test(.enabled(if: facesAvailable, facesNote)) func peopleInOrdinaryPhotosAreTold() throws {
        let finder = try Self.finder()
        let one = { (file: String) throws -> FaceDescriptor in
            let found = try finder.faces(in: try Self.image(file))
            try #require(found.count == 1, "\(file): \(found.count) faces")
            return found[0].descriptor
        }
        let obama = try one("people/obama/obama.jpg"), obama2 = try one("people/obama/obama2.jpg")
        let biden = try one("people/biden/biden.jpg")
        #expect(obama.distance(to: obama2) < FaceDescriptor.samePerson)
        #expect(obama.distance(to: biden) >= FaceDescriptor.samePerson)
        let kit = try one("people/kit_harington/john1.jpeg"), rose = try one("people/rose_leslie/img1.jpg")
        let couple = try finder.faces(in: try Self.image("people/test/kit_with_rose.jpg"))
        try #require(couple.count == 2, "\(couple.count) faces")
        let nearestKit = couple.min { $0.descriptor.distance(to: kit) < $1.descriptor.distance(to: kit) }
        let nearestRose = couple.min { $0.descriptor.distance(to: rose) < $1.descriptor.distance(to: rose) }
        #expect(nearestKit != nearestRose)
        #expect(try #require(nearestKit).descriptor.distance(to: kit) < FaceDescriptor.samePerson)
        #expect(try #require(nearestRose).descriptor.distance(to: rose) < FaceDescriptor.samePerson)
    }

    /// Test photos made from a real one: stored on its side with an EXIF orientation that turns
    /// it upright (the scan's decode applies it before faces are searched), and scaled down to
    /// 400 pixels, where the face is some 100 pixels (searched at twice the size): the same
    /// person each time.
    @Test(.enabled(if: facesAvailable, facesNote)) func turnedAndSmallPhotosShowTheSameFace() throws {
        let finder = try Self.finder()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let upright = try Self.image("people/obama/obama.jpg")
        let reference = try #require(try finder.faces(in: upright).first).descriptor
        for orientation in [6, 8, 3] {
            var exif = ExifBuilder()
            exif.orientation = orientation
            // (stored so that the orientation turns it back: 6 and 8 undo each other, 3 itself)
            let stored = upright.oriented(orientation == 6 ? 8 : orientation == 8 ? 6 : 3)
            let path = FilePath(directory.appending("turned-\(orientation).jpg"))
            try FileSystem.writeAtomically(try SampleImage.jpeg(stored, exif: exif), to: path)
            let rendered = try Renderer(options: RenderOptions()).render(
                file: path, specs: [], keeping: [.fit(1024)], placeholder: false)
            let found = try finder.faces(in: try #require(rendered.images[.fit(1024)]))
            try #require(found.count == 1, "orientation \(orientation): \(found.count) faces")
            #expect(found[0].descriptor.distance(to: reference) < 0.3, "orientation \(orientation)")
        }
        let small = try Self.image("people/obama/obama.jpg", size: 400)
        let found = try finder.faces(in: small)
        try #require(found.count == 1, "\(found.count) faces at 400 pixels")
        #expect(found[0].descriptor.distance(to: reference) < FaceDescriptor.samePerson)
        #expect(found[0].width > 60 && found[0].width < 160, "a face \(found[0].width) pixels wide at 400")
    }

    /// Small and damaged input: nothing found in a 1-pixel image or a flat one; an image past
    /// the search's size refused with a reason; missing or damaged models named, with how to
    /// install them.
    @Test func badInputGivesNoFaceOrAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        if let models = Self.models {
            let finder = try FaceFinder(models: models)
            #expect(try finder.faces(in: PixelBuffer(width: 1, height: 1, channels: 3, pixels: [0, 0, 0])).isEmpty)
            let flat = PixelBuffer(width: 300, height: 200, channels: 4, pixels: .init(repeating: 128, count: 240_000))
            #expect(try finder.faces(in: flat).isEmpty)
            let huge = PixelBuffer(
                width: 4000, height: 3000, channels: 3, pixels: .init(repeating: 0, count: 36_000_000))
            #expect(throws: FaceError.self) { try finder.faces(in: huge) }
            // A descriptor model cut short, and one that is not a model at all.
            let folder = FilePath(directory.appending("cut"))
            try FileSystem.createDirectories(folder)
            for model in [models.landmarks, models.detector] {
                let name = try #require(model.lastComponent)
                let bytes = try #require(FileSystem.smallFileContents(model, limit: 50 << 20))
                try FileSystem.writeAtomically(bytes, to: folder.appending(name))
            }
            let whole = try #require(FileSystem.smallFileContents(models.descriptor, limit: 50 << 20))
            try FileSystem.writeAtomically(
                Array(whole.prefix(whole.count / 2)), to: FaceModels(folder: folder).descriptor)
            #expect {
                try FaceFinder(models: FaceModels(folder: folder))
            } throws: { error in
                let text = "\(error)"
                return text.contains("dlib_face_recognition_resnet_model_v1.dat: damaged")
                    && text.contains("install-faces.sh")
            }
            // Of its size but not a model: read when the first face is found, and named then.
            try FileSystem.writeAtomically(
                [UInt8](repeating: 7, count: whole.count), to: FaceModels(folder: folder).descriptor)
            let garbled = try FaceFinder(models: FaceModels(folder: folder))
            #expect(try garbled.faces(in: flat).isEmpty)
            if Self.facesAvailable {
                let face = try Self.image("people/obama/obama.jpg")
                #expect {
                    try garbled.faces(in: face)
                } throws: { error in
                    "\(error)".contains("dlib_face_recognition_resnet_model_v1.dat")
                        && "\(error)".contains("install-faces.sh")
                }
            }
        }
        let missing = FaceModels.installed(
            environment: ["TESSERA_FACE_MODELS": directory.appending("none")], executable: nil)
        guard case .failure(let error) = missing else {
            Issue.record("models found in an empty folder")
            return
        }
        #expect(error.description.contains("shape_predictor_5_face_landmarks.dat: not installed"))
        #expect(error.description.contains("install-faces.sh"))
    }
}
