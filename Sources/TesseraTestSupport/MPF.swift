/// JPEG files with embedded images, for tests of embedded previews.
public enum MPF {
    /// `jpeg` with an MPF index (CIPA DC-007) after SOI listing itself and `images`, which are
    /// appended after its end.
    ///
    /// Offsets count from the index's TIFF header, as the standard says.
    public static func jpeg(_ jpeg: [UInt8], images: [(type: UInt32, bytes: [UInt8])]) -> [UInt8] {
        let count = images.count + 1
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        let entriesOffset = 8 + 2 + 12 * 3 + 4
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42] + be32(8) + [0, 3]
        tiff += [0xB0, 0x00, 0, 7] + be32(4) + Array("0100".utf8)
        tiff += [0xB0, 0x01, 0, 4] + be32(1) + be32(count)
        tiff += [0xB0, 0x02, 0, 7] + be32(16 * count) + be32(entriesOffset)
        tiff += be32(0)
        let segmentLength = 2 + 4 + tiff.count + 16 * count
        let tiffStart = 2 + 4 + 4  // SOI, the APP2 marker and length, "MPF\0"
        let mainLength = jpeg.count + 4 + segmentLength - 2
        var position = mainLength
        tiff += be32(0x2003_0000) + be32(mainLength) + be32(0) + [0, 0, 0, 0]
        for image in images {
            tiff += be32(Int(image.type)) + be32(image.bytes.count) + be32(position - tiffStart) + [0, 0, 0, 0]
            position += image.bytes.count
        }
        let segment: [UInt8] =
            [0xFF, 0xE2, UInt8(segmentLength >> 8), UInt8(segmentLength & 0xFF)] + Array("MPF".utf8) + [0] + tiff
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...]) + images.flatMap(\.bytes)
    }
}
