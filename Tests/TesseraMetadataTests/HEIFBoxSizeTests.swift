import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import Testing

/// Box sizes come from the file: a claimed size near the top of Int64 must be an error, never a trap.
struct HEIFBoxSizeTests {
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        bigEndian(UInt32(8 + body.count)) + Array(type.utf8) + body
    }

    static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<T.bitWidth / 8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1".utf8))

    static func read(_ bytes: [UInt8]) throws {
        _ = try MetadataReader.read(
            contents: bytes, path: FilePath("lies.heic"), mtime: FileTime(seconds: 0, nanoseconds: 0))
    }

    @Test(arguments: ["free", "meta"])
    func aLargeSizeNearInt64MaxIsAnError(type: String) {
        let huge =
            Self.ftyp + Self.bigEndian(UInt32(1)) + Array(type.utf8) + Self.bigEndian(Int64.max)
            + [UInt8](repeating: 0, count: 16)
        #expect(throws: PhotoError.self) { try Self.read(huge) }
    }

    @Test func aBoxRunningPastTheEndEndsTheSearch() {
        let past = Self.ftyp + Self.bigEndian(UInt32(4_000_000_000)) + Array("mdat".utf8) + [1, 2, 3]
        #expect(throws: PhotoError.self) { try Self.read(past) }
    }
}
