import TesseraTestSupport
import Testing

@testable import TesseraLayout

/// Masonry with `noEnlarge`: small photos framed at their own size, side by side in a column.
struct MasonryTests {
    static func config() -> LayoutConfig {
        var config = LayoutConfig()
        config.style = .masonry
        config.pageWidth = 1280
        config.pageHeight = 100_000
        config.groupBy = .none
        config.masonryColumns = 3
        config.masonryNoEnlarge = true
        return config
    }

    static func photos(_ sizes: [(Double, Double)]) -> [LayoutPhoto] {
        sizes.enumerated().map { LayoutPhoto(id: "p\($0.offset)", pixelWidth: $0.element.0, pixelHeight: $0.element.1) }
    }

    /// Three scans in a row share one column's width, each at its own size in the middle of
    /// the shelf, and the next large photo takes the shortest column again.
    @Test func smallPhotosShareAColumnAtTheirOwnSize() throws {
        let config = Self.config()
        let photos = Self.photos([(4000, 3000), (100, 68), (75, 100), (120, 80), (3000, 4000), (600, 400)])
        let items = try AlbumLayout.layout(photos, config: config).pages.flatMap(\.items).filter { $0.type == .photo }
        let frames = Dictionary(uniqueKeysWithValues: items.map { ($0.photoId ?? "", $0) })
        let cell = (config.contentWidth - 2 * config.masonrySpacing) / 3
        for (id, width, height) in [("p1", 100.0, 68.0), ("p2", 75, 100), ("p3", 120, 80)] {
            let frame = try #require(frames[id])
            #expect(abs(frame.width - width) < 0.01 && abs(frame.height - height) < 0.01, "\(id): \(frame)")
            // In the middle of the shelf, which is as tall as its tallest (the 100 px scan).
            #expect(abs(frame.y + frame.height / 2 - 50) < 0.01, "\(id): \(frame)")
        }
        let (first, second, third) = try (#require(frames["p1"]), #require(frames["p2"]), #require(frames["p3"]))
        #expect(abs(second.x - (first.x + 100 + config.masonrySpacing)) < 0.01)
        #expect(abs(third.x - (second.x + 75 + config.masonrySpacing)) < 0.01)
        #expect(third.x + third.width <= first.x + cell + 0.01)
        // The column continues under the shelf; the large photos fill columns.
        let portrait = try #require(frames["p4"])
        #expect(portrait.width == cell && portrait.y == 0)
        let wide = try #require(frames["p5"])
        #expect(
            wide.width == cell && abs(wide.x - first.x) < 0.01 && abs(wide.y - (100 + config.masonrySpacing)) < 0.01)
    }

    /// No photo is framed wider than its pixels at any column width, and no two frames overlap.
    @Test func noFrameIsLargerThanItsPhotoAndNoneOverlap() throws {
        let shapes: [(Double, Double)] = [
            (4000, 3000), (3000, 4000), (75, 100), (100, 68), (600, 400), (300, 200), (1000, 1000), (120, 1600),
        ]
        var random = SplitMix(seed: 5)
        for trial in 0..<200 {
            var config = Self.config()
            config.pageWidth = 320 + Double(random.next() % 2200)
            config.masonryColumns = 2 + Int(random.next() % 5)
            let photos = Self.photos(
                (0..<(1 + trial % 23)).map { _ in shapes[Int(random.next() % UInt64(shapes.count))] })
            let items = try AlbumLayout.layout(photos, config: config).pages.flatMap(\.items)
                .filter { $0.type == .photo }
            #expect(items.count == photos.count)
            for item in items {
                let photo = try #require(photos.first { $0.id == item.photoId })
                #expect(item.width <= (photo.pixelWidth ?? 0) + 1e-6 && item.height <= (photo.pixelHeight ?? 0) + 1e-6)
            }
            for a in items.indices {
                for b in items.indices where b > a {
                    let (p, q) = (items[a], items[b])
                    let apart =
                        p.x + p.width <= q.x + 1e-6 || q.x + q.width <= p.x + 1e-6
                        || p.y + p.height <= q.y + 1e-6 || q.y + q.height <= p.y + 1e-6
                    #expect(apart, "trial \(trial): \(p) overlaps \(q)")
                }
            }
        }
    }

    /// Without the setting, masonry is the specification's: every frame a column wide.
    @Test func withoutTheSettingEveryFrameIsAColumnWide() throws {
        var config = Self.config()
        config.masonryNoEnlarge = false
        let items = try AlbumLayout.layout(Self.photos([(100, 68), (75, 100)]), config: config).pages.flatMap(\.items)
            .filter { $0.type == .photo }
        let cell = (config.contentWidth - 2 * config.masonrySpacing) / 3
        #expect(items.count == 2 && items.allSatisfy { $0.width == cell })
    }
}
