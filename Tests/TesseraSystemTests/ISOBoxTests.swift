import SystemPackage
import Testing

@testable import TesseraSystem

/// The one reader of ISO-BMFF box headers: sizes of 32 and 64 bits and "to the end", and every
/// way a header can lie, each ending the list with its reason and no box past the bytes.
struct ISOBoxTests {
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + body
    }

    static func large(_ type: String, size: UInt64, _ body: [UInt8]) -> [UInt8] {
        [0, 0, 0, 1] + Array(type.utf8) + (0..<8).map { UInt8(size >> (56 - 8 * UInt64($0)) & 0xFF) } + body
    }

    static func list(_ bytes: [UInt8]) throws -> ISOBox.List {
        try FileReader.withBytes(bytes, path: FilePath("boxes"), mtime: FileTime(seconds: 0, nanoseconds: 0)) {
            reader throws(FileReadError) in
            try reader.boxes()
        }
    }

    @Test func boxesOfEverySizeFormAreRead() throws {
        let bytes =
            Self.box("ftyp", Array("heic".utf8)) + Self.large("free", size: 20, [1, 2, 3, 4]) + [0, 0, 0, 0]
            + Array("mdat".utf8) + [9, 9]
        let list = try Self.list(bytes)
        #expect(list.stop == nil)
        #expect(list.boxes.map(\.type) == ["ftyp", "free", "mdat"])
        #expect(list.boxes.map(\.body) == [8, 28, 40])
        #expect(list.boxes.map(\.end) == [12, 32, 42])
        // The same in memory, by the slice's own indices.
        let slice = ([0xAA] + bytes)[1...]
        let inMemory = ISOBox.list(in: slice)
        #expect(inMemory.boxes.map(\.body) == [9, 29, 41])
        #expect(inMemory.boxes.last.map { Array($0.body(in: slice)) } == [9, 9])
    }

    @Test func aSizeNearInt64MaxOverrunsWithoutOverflowing() throws {
        let bytes = Self.box("ftyp", []) + Self.large("mdat", size: UInt64.max, [1, 2, 3])
        let list = try Self.list(bytes)
        #expect(list.boxes.map(\.type) == ["ftyp"])
        #expect(list.stop == .overruns(ISOBox(type: "mdat", start: 8, body: 24, end: Int64(bytes.count))))
    }

    @Test func aSizeSmallerThanItsHeaderEndsTheList() throws {
        let list = try Self.list(Self.box("ftyp", []) + [0, 0, 0, 4] + Array("moov".utf8))
        #expect(list.boxes.count == 1 && list.stop == .impossibleSize(type: "moov", at: 8, size: 4))
        // A 64-bit size smaller than its 16-byte header, too.
        #expect(
            try Self.list(Self.large("moov", size: 12, [0, 0, 0, 0])).stop
                == .impossibleSize(type: "moov", at: 0, size: 12))
    }

    @Test func aHeaderCutShortEndsTheList() throws {
        #expect(try Self.list(Self.box("ftyp", []) + [0, 0, 0]).stop == .cutShort(at: 8))
        #expect(try Self.list([0, 0, 0, 1] + Array("mdat".utf8) + [0, 0]).stop == .cutShort(at: 0))
    }

    @Test func noMoreThanTheLimitIsRead() throws {
        let list = try Self.list(Array(repeating: Self.box("free", []), count: ISOBox.maxBoxes + 5).flatMap { $0 })
        #expect(list.boxes.count == ISOBox.maxBoxes && list.stop == .tooMany)
    }

    @Test func theCallerMayRefuseWhatIsNotABox() throws {
        let bytes = Self.box("ftyp", []) + Self.box("moov", []) + Self.box("sefd", [1])
        let list = try FileReader.withBytes(bytes, path: FilePath("boxes"), mtime: FileTime(seconds: 0, nanoseconds: 0))
        {
            reader throws(FileReadError) in try reader.boxes(accept: { $0.type != "sefd" })
        }
        #expect(
            list.boxes.map(\.type) == ["ftyp", "moov"]
                && list.stop == .refused(ISOBox(type: "sefd", start: 16, body: 24, end: 25)))
    }

    @Test func brandsAreReadFromALeadingFileTypeBox() {
        #expect(ISOBox.brands(Self.box("ftyp", Array("heic\0\0\0\0mif1heic".utf8))) == ["heic", "mif1", "heic"])
        #expect(ISOBox.brands(Self.box("moov", Array("heic\0\0\0\0mif1".utf8))) == nil)
    }
}
