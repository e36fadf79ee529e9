/// `grid`: fixed-size cells with even gaps, as ATArrayView computes them (docs/LAYOUT.md §3.3).
enum Grid {
    struct Metrics {
        var columns: Int
        var gap: Double
        var top: Double, left: Double, bottom: Double
        var itemWidth: Double, itemHeight: Double

        func rect(_ index: Int) -> (x: Double, y: Double) {
            (left + (itemWidth + gap) * Double(index % columns), top + (itemHeight + gap) * Double(index / columns))
        }

        /// The reference's visible index range for a window `[minY, maxY]` in body coordinates.
        func visibleRange(minY: Double, maxY: Double, count: Int, preload: Int) -> ClosedRange<Int>? {
            guard count > 0 else { return nil }
            let pitch = itemHeight + gap
            let rows = (count + columns - 1) / columns
            let firstRow = max(Int(saturating: ((minY - top) / pitch).rounded(.down)), 0)
            let first = min(max(0, firstRow - preload) * columns, count - 1)
            let lastRow = min(Int(saturating: ((maxY - top) / pitch).rounded(.up)), rows - 1)
            let last = min((lastRow + preload + 1) * columns - 1, count - 1)
            return first <= last ? first...last : nil
        }
    }

    static func metrics(width contentWidth: Double, config: LayoutConfig) -> (Metrics, warning: (String, String)?) {
        let insets = config.gridInsets
        let (iw, ih) = (config.gridItemWidth, config.gridItemHeight)
        let available = contentWidth - insets.left - insets.right
        // As many columns as fit, counted down until the gap is wide enough; starting from the
        // count the minimum gap allows (plus one for rounding) keeps that loop short.
        let fitting = ((available - config.gridMinimumColumnGap) / (iw + config.gridMinimumColumnGap)).rounded(.down)
        var columns = min(Int(saturating: (available / iw).rounded(.down)), Int(saturating: fitting + 1))
        var gap = 0.0
        var warning: (String, String)?
        while true {
            if columns < 1 {
                columns = 1
                gap = max(0, (available - iw) / 2)
                warning =
                    available < iw
                    ? ("itemWiderThanContent", "items of \(iw) in \(available)")
                    : ("gapBelowMinimum", "one column with gap \(gap)")
                break
            }
            gap = (available - iw * Double(columns)) / Double(columns + 1)
            if gap >= config.gridMinimumColumnGap { break }
            columns -= 1
        }
        let metrics = Metrics(
            columns: columns, gap: gap, top: insets.top + gap, left: insets.left + gap, bottom: insets.bottom + gap,
            itemWidth: iw, itemHeight: ih)
        return (metrics, warning)
    }

    static func layout(_ photos: [Section.Photo], width contentWidth: Double, config: LayoutConfig) -> Body {
        var body = Body()
        guard !photos.isEmpty else { return body }
        let (m, warning) = metrics(width: contentWidth, config: config)
        if let warning { body.warnings.append(warning) }
        for (index, photo) in photos.enumerated() {
            let (x, y) = m.rect(index)
            var item = Body.Item(photo: index, x: x, y: y, width: m.itemWidth, height: m.itemHeight)
            item.crop = isCrop(width: m.itemWidth, height: m.itemHeight, aspect: photo.aspect)
            body.items.append(item)
        }
        let rows = Double((photos.count + m.columns - 1) / m.columns)
        body.height = m.itemHeight * rows + m.gap * (rows - 1) + m.top + m.bottom
        return body
    }
}
