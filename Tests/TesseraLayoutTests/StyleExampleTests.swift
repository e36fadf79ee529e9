import Foundation
import Testing

@testable import TesseraLayout

/// Worked examples of each style, computed by hand from the rules of docs/LAYOUT.md §3.
struct StyleExampleTests {
    static func photos(_ aspects: [Double], day: String = "2024-05-03") -> [Section.Photo] {
        aspects.enumerated().map { index, aspect in
            let record = LayoutPhoto(
                id: "p\(index)", pixelWidth: aspect * 1000, pixelHeight: 1000, capturedAt: "\(day)T12:00:00")
            return Section.Photo(
                id: record.id, bodyHeight: record.bodyHeight, aspect: aspect, aspectEstimated: false, key: nil,
                limit: record.heightLimit)
        }
    }

    static func frames(_ body: Body) -> [[Double]] { body.items.map { [$0.x, $0.y, $0.width, $0.height] } }

    @Test(
        arguments: [
            (1, [[15, 0, 345, 150]], 150.0),
            (2, [[15, 0, 172.5, 172.5], [187.5, 0, 172.5, 172.5]], 172.5),
            (3, [[15, 0, 100, 100], [115, 0, 245, 200], [15, 100, 100, 100]], 200),
            (4, [[15, 0, 205, 140], [220, 0, 140, 140], [15, 140, 140, 140], [155, 140, 205, 140]], 280),
            (
                5,
                [
                    [15, 0, 100, 100], [115, 0, 245, 150], [15, 100, 100, 100], [115, 150, 245, 150],
                    [15, 200, 100, 100],
                ], 300
            ),
            (
                6,
                [
                    [15, 0, 140, 140], [155, 0, 205, 140], [15, 140, 172.5, 172.5], [187.5, 140, 172.5, 172.5],
                    [15, 312.5, 205, 140], [220, 312.5, 140, 140],
                ], 452.5
            ),
            (
                9,
                [
                    [15, 0, 140, 140], [155, 0, 205, 140], [15, 140, 172.5, 172.5], [187.5, 140, 172.5, 172.5],
                    [15, 312.5, 205, 140], [220, 312.5, 140, 140],
                ], 452.5
            ),
        ] as [(Int, [[Double]], Double)])
    func tilesAt375(count: Int, expected: [[Double]], height: Double) {
        let body = Tiles.layout(Self.photos(Array(repeating: 1.5, count: count)), width: 375, config: LayoutConfig())
        #expect(Self.frames(body) == expected)
        #expect(body.height == height)
        let overlay = body.items.last?.overlay
        #expect(overlay == (count > 6 ? LayoutOverlay(count: 3, text: "+3", hiddenPhotoIds: ["p6", "p7", "p8"]) : nil))
    }

    @Test func masonryExample() {
        var config = LayoutConfig()
        config.masonryInsets = .init(left: 15, right: 15)
        config.masonryBodyHeight = 20
        let body = Masonry.layout(Self.photos([4 / 3, 3 / 4, 1, 1920 / 1080, 1080 / 1920]), width: 375, config: config)
        let expected: [[Double]] = [
            [15, 0, 167.5, 145.625], [192.5, 0, 167.5, 243.333_333_333_333_3], [15, 155.625, 167.5, 187.5],
            [192.5, 253.333_333_333_333_3, 167.5, 114.218_75], [15, 353.125, 167.5, 317.777_777_777_777_8],
        ]
        for (frame, want) in zip(Self.frames(body), expected) {
            #expect(zip(frame, want).allSatisfy { abs($0 - $1) < 1e-9 }, "\(frame) vs \(want)")
        }
        #expect(body.items.map(\.imageHeight).first == 125.625)
        #expect(abs(body.height - 670.902_777_777_777_8) < 1e-9)
    }

    @Test func gridExamples() {
        var config = LayoutConfig()
        let (m, warning) = Grid.metrics(width: 320, config: config)
        #expect(warning == nil && m.columns == 4 && m.gap == 8)
        #expect(m.rect(0) == (8, 8) && m.rect(1) == (86, 8) && m.rect(4) == (8, 86) && m.rect(96) == (8, 1880))
        let body = Grid.layout(Self.photos(Array(repeating: 1, count: 97)), width: 320, config: config)
        #expect(body.height == 1958)
        #expect(m.visibleRange(minY: 0, maxY: 480, count: 97, preload: 0) == 0...31)
        #expect(m.visibleRange(minY: 500, maxY: 980, count: 97, preload: 0) == 24...55)
        config.gridItemWidth = 150
        config.gridItemHeight = 150
        let (wide, _) = Grid.metrics(width: 768, config: config)
        #expect(wide.columns == 4 && abs(wide.gap - 33.6) < 1e-12)
        #expect(abs(wide.rect(1).x - 217.2) < 1e-12)
        let wideBody = Grid.layout(Self.photos(Array(repeating: 1, count: 97)), width: 768, config: config)
        #expect(abs(wideBody.height - 4623.6) < 1e-9)
    }

    @Test func stripExample() throws {
        let strip = Strip(
            aspects: [1.5, 1, 0.75, 1.778], viewport: 375, height: 100, cellScale: 0.8, spacing: 10, zoomAll: true)
        #expect(strip.widths.map { ($0 * 100).rounded() / 100 } == [120, 80, 60, 142.24])
        #expect(strip.xs == [127.5, 257.5, 347.5, 417.5])
        #expect(abs(strip.contentWidth - 676.12) < 1e-9)
        let first = strip.frames(at: 0)
        #expect(first[0].x == 112.5 && first[0].y == 0 && first[0].width == 150 && first[0].height == 100)
        #expect(first[1].x == 257.5 + 15 && first[1].y == 10 && first[1].height == 80)
        #expect(strip.snap(160) == 190)
        let snapped = strip.frames(at: 190)
        #expect(snapped[2].x == 340 && snapped[2].width == 75 && snapped[2].height == 100)
        #expect(snapped[2].x - 190 == 150)
        #expect(snapped[0].x == 127.5 - 7.5 && snapped[3].x == 417.5 + 7.5)
        let between = strip.frames(at: 180)
        #expect(abs(between[2].scale - 1.166_666_666_666_7) < 1e-9)
        #expect(abs(between[2].x - 342.5) < 1e-9 && abs(between[2].y - 3.333_333_333) < 1e-6)
        #expect(abs(between[2].width - 70) < 1e-9 && abs(between[2].height - 93.333_333_333) < 1e-6)
    }

    @Test func flickrExamples() {
        let squares = FlickrJustified.layout(aspects: [1, 1, 1, 1], config: .init())
        #expect(
            squares.boxes.map { [$0.left, $0.top, $0.width, $0.height] }
                == [[10, 10, 340, 340], [360, 10, 340, 340], [710, 10, 340, 340], [10, 360, 340, 340]])
        #expect(squares.containerHeight == 710 && squares.widowCount == 1)
        var config = FlickrJustified.Config()
        config.containerWidth = 1000
        config.targetRowHeight = 250
        let mixed = FlickrJustified.layout(aspects: [1, 4, 1.1], config: config)
        #expect(mixed.boxes.map(\.height) == [194, 194, 194])
        #expect(abs(mixed.boxes[2].width - 213.4) < 1e-9 && mixed.boxes[2].top == 214)
        #expect(mixed.containerHeight == 418 && mixed.widowCount == 1)
        let panorama = FlickrJustified.layout(aspects: [20], config: .init())
        #expect(panorama.boxes.map { [$0.left, $0.top, $0.width, $0.height] } == [[10, 10, 1040, 160]])
        #expect(panorama.containerHeight == 180)
        // tol ≥ 1 puts every item in a row of its own; maxNumRows 0 behaves like 1.
        config.tolerance = 1
        #expect(Set(FlickrJustified.layout(aspects: [1, 1, 1], config: config).boxes.map(\.top)).count == 3)
        var limited = FlickrJustified.Config()
        limited.maxNumRows = 0
        let one = FlickrJustified.layout(aspects: [1, 1, 1, 1, 1, 1, 1], config: limited)
        #expect(one.boxes.count == 3 && one.widowCount == 0)
        #expect(FlickrJustified.layout(aspects: [], config: .init()).containerHeight == 10)
    }

    @Test func optimalExample() throws {
        let aspects = [1.5, 0.667, 1, 1.778, 0.75, 1.333, 4, 1, 0.8, 1.5]
        let rows = try #require(
            OptimalRows.rows(
                aspects: aspects, params: .init(containerWidth: 1000, spacing: 10, padding: 0, targetRowHeight: 250)))
        #expect(rows.map(\.indices) == [0..<3, 3..<6, 6..<7, 7..<10])
        #expect(abs(rows[0].height - 309.441) < 1e-3 && abs(rows[1].height - 253.820) < 1e-3)
        #expect(rows[2].height == 250 && abs(rows[3].height - 296.969) < 1e-3)
        #expect(
            OptimalRows.rows(
                aspects: [1, 1],
                params: .init(containerWidth: 100, spacing: 10, padding: 0, targetRowHeight: 50, minPhotos: 3)) == nil)
    }
}
