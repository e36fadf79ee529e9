/// "Items in a rectangle" over laid-out frames, in O(log n + k) (docs/LAYOUT.md §0.3).
///
/// Frames are kept sorted by their top edge with a running maximum of their
/// bottom edges. A query binary-searches the last frame that starts above
/// the rectangle's bottom, then walks back only while some earlier frame can
/// still reach down into the rectangle: the running maximum tells when none
/// can, so the walk visits the answers plus at most the frames interleaved
/// with them.
public struct ItemQuery: Sendable {
    private let items: [LayoutItem]
    /// Item indices in order of y (stable: ties keep the input order).
    private let order: [Int]
    /// `reach[i]` = the largest bottom edge among `order[0...i]`.
    private let reach: [Double]

    public init(_ items: [LayoutItem]) {
        self.items = items
        order = items.indices.sorted { items[$0].y != items[$1].y ? items[$0].y < items[$1].y : $0 < $1 }
        var running = -Double.infinity
        reach = order.map { index in
            running = max(running, items[index].y + items[index].height)
            return running
        }
    }

    /// Items whose frames intersect the band `[minY, maxY)` (x not tested), in input order.
    public func items(minY: Double, maxY: Double) -> [LayoutItem] {
        indices(minY: minY, maxY: maxY, filter: { _ in true }).map { items[$0] }
    }

    /// Items whose frames intersect the rectangle (half-open, §0.3), in input order.
    public func items(inX x: Double, y: Double, width: Double, height: Double) -> [LayoutItem] {
        indices(minY: y, maxY: y + height) { item in
            item.width > 0 && item.x < x + width && x < item.x + item.width
        }.map { items[$0] }
    }

    private func indices(minY: Double, maxY: Double, filter: (LayoutItem) -> Bool) -> [Int] {
        // The first position whose top is at or below maxY: everything before it starts above maxY.
        var low = 0, high = order.count
        while low < high {
            let middle = (low + high) / 2
            if items[order[middle]].y < maxY { low = middle + 1 } else { high = middle }
        }
        var found: [Int] = []
        var position = low - 1
        while position >= 0 && reach[position] > minY {
            let item = items[order[position]]
            if item.height > 0 && item.y + item.height > minY && filter(item) {
                found.append(order[position])
            }
            position -= 1
        }
        return found.sorted()
    }
}
