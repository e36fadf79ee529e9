import TesseraTestSupport
import Testing

@testable import TesseraLayout

/// Tiles choose their pattern and the photos' places in it from the photos' proportions.
struct TilesFitTests {
    static let shapes: [(Double, Double)] = [
        (4000, 3000), (3000, 4000), (1920, 1080), (1080, 1920), (1000, 1000), (3000, 1000), (2000, 3000),
        (6000, 1000), (800, 3000),
    ]

    @Test(arguments: [false, true])
    func noTileIsMoreThanTwiceOffItsPhotosProportions(fit: Bool) throws {
        var random = SplitMix(seed: 11)
        var config = LayoutConfig()
        config.style = .tiles
        config.pageWidth = 538
        config.pageHeight = 100_000
        config.tilesMargin = 0
        config.tilesSingleAspect = true
        config.tilesFitOrientation = fit
        config.groupBy = .none
        var worst = 1.0
        for trial in 0..<300 {
            let count = 1 + trial % 9
            let photos = (0..<count).map { number in
                let (width, height) = Self.shapes[Int(random.next() % UInt64(Self.shapes.count))]
                return LayoutPhoto(id: "p\(number)", pixelWidth: width, pixelHeight: height)
            }
            let items = try AlbumLayout.layout(photos, config: config).pages.flatMap(\.items)
            let byID = Dictionary(uniqueKeysWithValues: photos.map { ($0.id, $0.aspect.value) })
            // The section's first six photos, each once, the "+N" on one of them.
            #expect(items.compactMap(\.photoId).sorted() == photos.prefix(6).map(\.id).sorted())
            #expect(items.filter { $0.overlay != nil }.count == (count > 6 ? 1 : 0))
            for item in items {
                let aspect = try #require(byID[item.photoId ?? ""])
                let shape = item.width / item.height
                worst = max(worst, max(shape / aspect, aspect / shape))
            }
        }
        // The specification's fixed patterns put portraits in wide slots; fitted, none is past 2×.
        #expect(fit ? worst <= 2 + 1e-9 : worst > 2)
    }
}
