// Layout of 100,000 photos in every style, and 10,000 rectangle queries.
// Run: ENABLE_TESSERA_BENCHMARKS=1 swift run -c release tessera-layout-bench [photos]
import Foundation
import TesseraLayout

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
nonisolated(unsafe) var state: UInt64 = 42  // one thread only
func random() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
let photos = (0..<count).map { index in
    LayoutPhoto(
        id: String(format: "IMG_%07d", index), pixelWidth: Double(800 + random() % 5000),
        pixelHeight: Double(800 + random() % 4000), orientation: 1,
        capturedAt: String(format: "20%02d-%02d-%02dT12:00:00", 10 + Int(random() % 15), 1 + Int(random() % 12), 1 + Int(random() % 28)))
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

print("\(count) photos, page width 1280, sections by day; best of 3 runs, milliseconds")
print("style".padding(toLength: 22, withPad: " ", startingAt: 0), "whole document", "  rows/cells only")
for (label, style, greedy) in [
    ("justified (optimal)", LayoutConfig.Style.justified, false), ("justified (greedy)", .justified, true),
    ("tiles", .tiles, false), ("masonry", .masonry, false), ("grid", .grid, false), ("strip", .strip, false),
] {
    var config = LayoutConfig()
    config.style = style
    config.justifiedGreedy = greedy
    config.pageWidth = 1280
    var best = Double.infinity
    for _ in 0..<3 { best = min(best, try time { _ = try AlbumLayout.layout(photos, config: config) }) }
    // The style alone, over one section of all photos: what the targets are about.
    config.groupBy = .none
    var styleOnly = Double.infinity
    for _ in 0..<3 { styleOnly = min(styleOnly, try time { _ = try AlbumLayout.layout(photos, config: config) }) }
    print(label.padding(toLength: 22, withPad: " ", startingAt: 0), String(format: "%14.1f  %16.1f", best, styleOnly))
}

// The row breakers alone, on the aspects: what the 50 ms target is about.
let aspects = photos.map { ($0.pixelWidth ?? 1) / ($0.pixelHeight ?? 1) }
var optimal = Double.infinity, greedy = Double.infinity
for _ in 0..<3 {
    optimal = min(optimal, time {
        _ = OptimalRows.rows(aspects: aspects, params: .init(containerWidth: 1280, spacing: 4, padding: 0, targetRowHeight: 180))
    })
    var flickr = FlickrJustified.Config()
    flickr.containerWidth = 1280
    flickr.targetRowHeight = 180
    greedy = min(greedy, time { _ = FlickrJustified.layout(aspects: aspects, config: flickr) })
}
print(String(format: "row breakers alone: optimal %.1f ms, greedy %.1f ms", optimal, greedy))

var config = LayoutConfig()
config.pageWidth = 1280
let document = try AlbumLayout.layout(photos, config: config)
let items = document.pages.flatMap { page in
    page.items.map { item in
        var moved = item
        moved.y += page.documentY ?? 0
        return moved
    }
}
let query = ItemQuery(items)
let height = document.document?.height ?? 1
var found = 0
let elapsed = time {
    for _ in 0..<10_000 {
        let y = Double(random() % UInt64(max(1, height)))
        found += query.items(inX: 0, y: y, width: 1280, height: 900).count
    }
}
print(String(format: "10,000 rectangle queries (1280×900) over %d frames: %.2f µs each, %.1f items per answer",
             items.count, elapsed * 1000 / 10_000, Double(found) / 10_000))
