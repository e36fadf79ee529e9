import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraLayout

/// Outside input never traps: any option value, any photo record, a layout or an error.
struct LayoutFuzzTests {
    static let keys = [
        "page.width", "page.height", "page.insets", "paging.mode", "paging.count", "paging.sectionStartsNewPage",
        "sections.groupBy", "sections.headerHeight", "sections.sectionSpacing", "style", "tiles.margin",
        "tiles.singleHeight", "tiles.threeSub", "tiles.fourSub", "tiles.fiveSub", "tiles.fiveMainHeight",
        "tiles.sixSub",
        "tiles.maxShown", "masonry.columns", "masonry.spacing", "masonry.insets", "masonry.bodyHeight",
        "masonry.maxImageHeightRatio", "grid.itemWidth", "grid.itemHeight", "grid.minimumColumnGap", "grid.insets",
        "grid.preloadBuffer", "strip.height", "strip.cellScale", "strip.spacing", "strip.offset", "strip.zoomShift",
        "justified.algorithm", "justified.targetRowHeight", "justified.spacing", "justified.padding",
        "justified.tolerance",
        "justified.showWidows", "justified.widowLayoutStyle", "justified.maxNumRows", "justified.forceAspectRatio",
        "justified.fullWidthBreakoutRowCadence", "justified.photoPadding", "justified.minPhotosPerRow",
        "justified.maxPhotosPerRow", "justified.maxRowHeight", "justified.lastRow", "output.rounding", "output.scale",
    ]

    static let values = [
        "0", "-0", "-1", "1e-300", "-1e-300", "1e300", "-1e300", "nan", "inf", "-inf", "1", "2", "3", "0.5", "0.999",
        "100", "65536", "4e9", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "null", "true",
        "false", "x", "", "1,2,3,4", "1e300,1,1,1", "focusIndex:9223372036854775807", "focusIndex:-5",
        "proposedOffset:1e300", "proposedOffset:nan", "greedy", "optimal", "ragged", "pixel", "count", "viewport",
        "tiles", "masonry", "grid", "strip", "justified", "month", "none", "center", "justify",
    ]

    static let numbers: [Double?] = [nil, 0, -0.0, -1, 1e-300, 1e300, .nan, .infinity, -.infinity, 1, 3, 4000, 1e9]

    @Test func randomOptionsAndRecordsGiveALayoutOrAnError() {
        var random = SplitMix(seed: 2024)
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        var laidOut = 0, refused = 0
        for _ in 0..<3000 {
            var config = LayoutConfig()
            for _ in 0..<(1 + random.next() % 4) {
                try? config.set(pick(Self.keys), pick(Self.values))
            }
            let photos = (0..<Int(random.next() % 40)).map { index in
                LayoutPhoto(
                    id: "p\(index)", pixelWidth: pick(Self.numbers), pixelHeight: pick(Self.numbers),
                    orientation: pick([nil, 0, 1, 6, 8, 9, -3, Int.max]),
                    capturedAt: pick([
                        nil, "2024-05-03T10:00:00", "2024-02-30T10:00:00", "x", "9999-12-31T23:59:59+14:00",
                    ]),
                    bodyHeight: pick(Self.numbers))
            }
            do {
                _ = try AlbumLayout.layout(photos, config: config)
                laidOut += 1
            } catch {
                #expect(!error.error.field.isEmpty && !(error.error.message ?? "").isEmpty)
                refused += 1
            }
        }
        #expect(laidOut > 500 && refused > 500, "laid out \(laidOut), refused \(refused)")
    }

    @Test func referenceEntryPointsAnswerAnyInput() throws {
        var random = SplitMix(seed: 7)
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        let numbers: [Any] = [0, -1, 1e-300, 1e300, 1, 2.5, 100, 1e18, 9.3e18, -9.3e18, "x", NSNull(), true]
        for _ in 0..<1000 {
            let photos = (0..<Int(random.next() % 12)).map { _ in ["width": pick(numbers), "height": pick(numbers)] }
            var params: [String: Any] = [:]
            for key in ["containerWidth", "spacing", "padding", "targetRowHeight", "minPhotos", "maxPhotos"]
            where random.next() % 2 == 0 {
                params[key] = pick(numbers)
            }
            let rows = try JSONSerialization.data(withJSONObject: ["photos": photos, "params": params])
            _ = try ReferenceEntryPoints.rowsOptimal(rows)
            var config: [String: Any] = [:]
            for key in [
                "containerWidth", "targetRowHeight", "targetRowHeightTolerance", "maxNumRows", "forceAspectRatio",
                "fullWidthBreakoutRowCadence", "boxSpacing", "containerPadding",
            ] where random.next() % 2 == 0 {
                config[key] = pick(numbers)
            }
            let flickr = try JSONSerialization.data(withJSONObject: ["input": photos, "config": config])
            _ = try ReferenceEntryPoints.flickr(flickr)
        }
    }
}
