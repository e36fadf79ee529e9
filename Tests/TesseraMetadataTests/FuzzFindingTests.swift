import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import Testing

/// What the fuzzers (scripts/fuzz.sh) found, each reproducer in Fuzz/ fed to the function its
/// target calls: none may trap or hang, and each is told apart from a good file.
struct FuzzFindingTests {
    static func finding(_ name: String) throws -> [UInt8] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fuzz")
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// An APP2 ICC chunk saying the profile has 0 chunks made a range 1...0, which trapped; the
    /// file (a fuzzer's mutant) is read on to the damage that makes it corrupt.
    @Test func aJPEGWhoseICCProfileHasNoChunksIsAnErrorNotATrap() throws {
        let bytes = try Self.finding("jpeg-icc-chunk-count-zero.jpg")
        #expect {
            _ = try FileReader.withBytes(
                bytes, path: FilePath("finding.jpg"), mtime: FileTime(seconds: 0, nanoseconds: 0)
            ) {
                reader throws(PhotoError) in try JPEGHeader.read(reader)
            }
        } throws: { error in
            (error as? PhotoError)?.code == .corrupt
        }
    }

    /// 3 KB whose Phase One directory claims billions of entries kept LibRaw reading for good
    /// (minutes and more: every scan that met it hung); reads past the end of the file stop it.
    @Test func aRAWThatLibRawWouldReadForeverIsGivenUp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("finding.iiq")
        try Data(Self.finding("metadata-libraw-phase-one-loop.bin")).write(to: file)
        #expect {
            _ = try MetadataReader.read(at: FilePath(file.path))
        } throws: { error in
            (error as? PhotoError)?.code == .corrupt && "\(error)".contains("LibRaw kept reading it")
        }
    }

    /// 300 KB of CR3 boxes that LibRaw's parser walks round and round within the file: its reads
    /// are cut off at the deadline, 2 s for a file this small.
    @Test func aCR3WhoseBoxesLibRawWalksForeverIsGivenUpAtItsDeadline() throws {
        let bytes = try Self.finding("metadata-libraw-cr3-box-loop.bin")
        #expect {
            _ = try MetadataReader.read(
                contents: bytes, path: FilePath("finding.cr3"), mtime: FileTime(seconds: 0, nanoseconds: 0))
        } throws: { error in
            (error as? PhotoError)?.code == .corrupt && "\(error)".contains("LibRaw kept reading it")
        }
    }

    /// A TIFF-based RAW whose IFD gives two sides near 2^32 made their product overflow an Int,
    /// which trapped every scan that met it; the sides are multiplied in 64 unsigned bits.
    @Test func aRAWWhoseImageSidesOverflowAnIntIsNotATrap() throws {
        let bytes = try Self.finding("metadata-raw-ifd-size-overflow.bin")
        let outcome = Result { () throws(PhotoError) in
            try MetadataReader.read(
                contents: bytes, path: FilePath("finding.nef"), mtime: FileTime(seconds: 0, nanoseconds: 0))
        }
        // Read or refused, it comes back: a trap would have ended the test run.
        if case .success(let metadata) = outcome { #expect(metadata.width > 0 && metadata.height > 0) }
    }
}
