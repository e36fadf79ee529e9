import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraLayout

/// Sections side by side (`sections.coalesce`): small day groups share justified rows.
struct FlowRowsTests {
    /// Days of a sparse album, newest first: a few photos each, and one busy day among them.
    static func days(_ counts: [Int], seed: UInt64) -> [LayoutPhoto] {
        var random = SplitMix(seed: seed)
        var photos: [LayoutPhoto] = []
        for (day, count) in counts.enumerated() {
            for photo in 0..<count {
                let portrait = random.next() % 3 == 0
                photos.append(
                    LayoutPhoto(
                        id: "d\(day)p\(photo)", pixelWidth: portrait ? 3000 : 4000 + Double(random.next() % 2000),
                        pixelHeight: portrait ? 4000 : 3000,
                        capturedAt:
                            "2024-\(String(format: "%02d", 1 + day / 28))-\(String(format: "%02d", 1 + day % 28))T10:\(String(format: "%02d", photo)):00"
                    ))
            }
        }
        return photos
    }

    static func config(width: Double) -> LayoutConfig {
        var config = LayoutConfig()
        config.pageWidth = width
        config.pageHeight = 100_000
        config.insets = .init(top: 8, left: 16, bottom: 8, right: 16)
        config.targetRowHeight = 220
        config.coalesce = true
        return config
    }

    @Test(arguments: [(375.0, UInt64(1)), (1280, 2), (1920, 3), (2560, 4)])
    func everyRowFillsTheWidthButTheLastAndNoSmallDayIsSplit(width: Double, seed: UInt64) throws {
        let counts = [1, 2, 1, 3, 17, 1, 1, 2, 40, 1, 4, 1, 2, 1, 1, 9, 1]
        let photos = Self.days(counts, seed: seed)
        let config = Self.config(width: width)
        let document = try AlbumLayout.layout(photos, config: config)
        let items = document.pages.flatMap(\.items).filter { $0.type == .photo }
        #expect(Set(items.compactMap(\.photoId)).count == photos.count)
        let rows = Dictionary(grouping: items) { $0.y }.sorted { $0.key < $1.key }
        let content = config.contentWidth
        for (number, (_, row)) in rows.enumerated() {
            let left = row.map(\.x).min() ?? 0, right = row.map { $0.x + $0.width }.max() ?? 0
            #expect(abs(left - config.insets.left) < 0.01)
            if number < rows.count - 1 {
                #expect(abs(right - left - content) < 0.01, "row \(number) fills \(right - left) of \(content)")
            }
            // Photos in a row are one height: a justified row.
            #expect(Set(row.map { ($0.height * 1000).rounded() }).count == 1)
        }
        // A day that fits one row at the target height is in one row.
        let rowOf = Dictionary(uniqueKeysWithValues: items.map { ($0.photoId ?? "", $0.y) })
        for (day, count) in counts.enumerated() {
            let aspects = photos.filter { $0.id.hasPrefix("d\(day)p") }.map(\.aspect.value)
            guard aspects.reduce(0, +) * 220 + Double(count - 1) * 4 <= content else { continue }
            #expect(Set((0..<count).compactMap { rowOf["d\(day)p\($0)"] }).count == 1, "day \(day) split")
        }
        // Each day's label stands over its first photo, as wide as its photos in that row.
        let headers = document.pages.flatMap(\.items).filter { $0.type == .header }
        #expect(headers.count == counts.count)
        for header in headers {
            let mine = items.filter { $0.sectionId == header.sectionId }
            let first = try #require(mine.min { ($0.index ?? 0) < ($1.index ?? 0) })
            #expect(abs(header.x - first.x) < 0.01 && abs(header.y + config.headerHeight - first.y) < 0.01)
            let sameRow = mine.filter { $0.y == first.y }
            #expect(abs(header.x + header.width - (sameRow.map { $0.x + $0.width }.max() ?? 0)) < 0.01)
        }
        // Labels never overlap.
        let byBand = Dictionary(grouping: headers) { $0.y }
        for band in byBand.values {
            let sorted = band.sorted { $0.x < $1.x }
            for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.x + a.width <= b.x) }
        }
    }

    /// Without `coalesce`, each day starts its own row: the rows of small days stay short.
    @Test func withoutCoalesceSmallDaysLeaveRowsShort() throws {
        var config = Self.config(width: 1280)
        config.coalesce = false
        let document = try AlbumLayout.layout(Self.days([1, 1, 1, 1], seed: 5), config: config)
        let items = document.pages.flatMap(\.items).filter { $0.type == .photo }
        let widths = Dictionary(grouping: items) { $0.y }.values.map { row in
            (row.map { $0.x + $0.width }.max() ?? 0) - (row.map(\.x).min() ?? 0)
        }
        #expect(widths.allSatisfy { $0 < config.contentWidth * 0.9 })
    }

    /// A photo smaller than its row keeps its own size, in the middle of the row's height,
    /// and the row's other photos share the width it leaves: the row still spans the width.
    @Test(arguments: [true, false])
    func aSmallPhotoKeepsItsSizeAndTheOthersFillTheRow(coalesce: Bool) throws {
        var config = Self.config(width: 1280)
        config.coalesce = coalesce
        config.noEnlarge = true
        let photos = [
            LayoutPhoto(id: "a", pixelWidth: 4000, pixelHeight: 3000, capturedAt: "2024-05-03T10:00:03"),
            LayoutPhoto(id: "scan", pixelWidth: 100, pixelHeight: 68, capturedAt: "2024-05-03T10:00:02"),
            LayoutPhoto(id: "b", pixelWidth: 3000, pixelHeight: 4000, capturedAt: "2024-05-03T10:00:01"),
            LayoutPhoto(id: "c", pixelWidth: 4000, pixelHeight: 3000, capturedAt: "2024-05-03T10:00:00"),
            LayoutPhoto(id: "d", pixelWidth: 5000, pixelHeight: 3000, capturedAt: "2024-05-03T09:00:00"),
        ]
        let items = try AlbumLayout.layout(photos, config: config).pages.flatMap(\.items).filter { $0.type == .photo }
        let scan = try #require(items.first { $0.photoId == "scan" })
        #expect(scan.width == 100 && scan.height == 68)
        let row = items.filter { $0.photoId != "scan" && $0.y < scan.y + scan.height && $0.y + $0.height > scan.y }
        let others = try #require(row.first)
        #expect(row.allSatisfy { $0.height == others.height } && others.height > 68)
        #expect(abs(scan.y + scan.height / 2 - (others.y + others.height / 2)) < 0.01)
        let all = row + [scan]
        let span = (all.map { $0.x + $0.width }.max() ?? 0) - (all.map(\.x).min() ?? 0)
        #expect(abs(span - config.contentWidth) < 0.01)
        // Without the setting the scan is framed as tall as its row.
        config.noEnlarge = false
        let stretched = try AlbumLayout.layout(photos, config: config).pages.flatMap(\.items)
        #expect(stretched.first { $0.photoId == "scan" }.map { $0.height > 68 } == true)
    }

    /// Days of four to six photos: one larger than a row begins a row of its own where the rows
    /// still fill, and never with one photo at the end of the row before (its date cut to
    /// "Thu 2 …").
    @Test func aDayLargerThanARowBeginsWithRoomForItsDate() throws {
        let shapes: [(Double, Double)] = [
            (3000, 2000), (2000, 3000), (4000, 1000), (1000, 3000), (2400, 2400), (640, 480), (3200, 1800),
            (1800, 2400),
        ]
        let photos = (0..<16).map { n in
            LayoutPhoto(
                id: "p\(n)", pixelWidth: shapes[n % 8].0, pixelHeight: shapes[n % 8].1,
                capturedAt: "2024-05-0\(1 + n / 6)T\(10 + n % 12):00:00")
        }
        let config = Self.config(width: 1280)
        let items = try AlbumLayout.layout(photos, config: config).pages.flatMap(\.items)
        let headers = items.filter { $0.type == .header }
        // (05-03 and 05-02 begin rows; 05-01 shares its first row, three of its photos under its date)
        #expect(headers.map { abs($0.x - config.insets.left) < 0.01 } == [true, true, false])
        let shared = try #require(headers.last)
        let under = items.filter { $0.sectionId == shared.sectionId && $0.type == .photo && $0.y == shared.y + 32 }
        #expect(under.count >= 2 && shared.width > 300)
    }
}
