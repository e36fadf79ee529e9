import Testing

@testable import TesseraIndex

/// An outline keeps what it is given in fewer bytes: sizes and orientations read back as they
/// were, or as unknown when no photo could have them.
struct PhotoOutlineTests {
    @Test func sizesAndOrientationsReadBackAsGiven() {
        let outline = PhotoOutline(
            id: 1, albumID: 2, width: 6000, height: 0, orientation: 8, capturedAt: "2024-05-01T10:00:00",
            isVideo: false)
        #expect(outline.width == 6000 && outline.height == 0 && outline.orientation == 8)
        let unknown = PhotoOutline(
            id: 1, albumID: 2, width: nil, height: Int(Int32.max) + 1, orientation: 9, capturedAt: nil, isVideo: true)
        #expect(unknown.width == nil && unknown.height == nil && unknown.orientation == nil)
        var changed = unknown
        (changed.width, changed.orientation) = (-5, 6)
        #expect(changed.width == nil && changed.orientation == 6)
        #expect(MemoryLayout<PhotoOutline>.stride <= 48)
    }
}
