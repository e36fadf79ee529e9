import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

/// The frame a HEIF or AVIF codec will decode, read from its configuration: what budgets trust.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct CodedFrameSizeTests {
    static let files = ["formats/avif", "formats/heic"].flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: Corpus.path(folder))) ?? []).filter { $0.contains(".") }
            .map { "\(folder)/\($0)" }
    }

    @Test(arguments: files)
    func theCodedFrameCoversTheDeclaredImageOrTile(file: String) throws {
        let metadata = try MetadataReader.read(at: FilePath(Corpus.path(file)))
        let header = try #require(metadata.heif)
        let coded = header.largestCodedFrame
        if header.isGrid {
            // A grid's tiles: phones and cameras use 256 to 1024 pixel squares.
            #expect((256 * 256...1024 * 1024).contains(coded), "\(coded)")
        } else {
            // The image, or a little more (HEVC codes whole 8-pixel blocks and crops the rest).
            let declared = header.width * header.height
            #expect(
                coded >= declared && coded <= (header.width + 64) * (header.height + 64),
                "\(coded) for \(header.width)×\(header.height)")
        }
    }

    @Test(arguments: [("formats/avif/17000x17000.avif", 17000 * 17000), ("formats/heic/orientation5.heic", 160 * 480)])
    func anISPEPatchedSmallerStillBudgetsTheCodedFrame(file: String, coded: Int) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))))
        let ispe = try #require(bytes.indices.dropLast(16).first { bytes[$0..<$0 + 4].elementsEqual("ispe".utf8) })
        // Version and flags, then width and height: 64×64.
        bytes.replaceSubrange((ispe + 8)..<(ispe + 16), with: [0, 0, 0, 64, 0, 0, 0, 64])
        let metadata = try MetadataReader.read(
            contents: bytes, path: FilePath("patched.avif"), mtime: FileTime(seconds: 0, nanoseconds: 0))
        #expect((metadata.width, metadata.height) == (64, 64) || (metadata.width, metadata.height) == (64, 64))
        #expect(metadata.heif?.largestCodedFrame == coded)
        #expect(throws: PhotoError.self) { try metadata.checkPixelLimit(coded - 1) }
    }
}
