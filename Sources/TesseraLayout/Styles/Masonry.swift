/// `masonry`: staggered equal-width columns (docs/LAYOUT.md §3.2).
enum Masonry {
    static func layout(_ photos: [Section.Photo], width contentWidth: Double, config: LayoutConfig) -> Body {
        var body = Body()
        guard !photos.isEmpty else { return body }
        let insets = config.masonryInsets
        let gap = config.masonrySpacing
        let inner = contentWidth - insets.left - insets.right
        var columns = config.masonryFillColumns ? min(config.masonryColumns, photos.count) : config.masonryColumns
        var cellWidth = (inner - gap * Double(columns - 1)) / Double(columns)
        var reduced = false
        while cellWidth <= 0 && columns > 1 {
            columns -= 1
            reduced = true
            cellWidth = (inner - gap * Double(columns - 1)) / Double(columns)
        }
        if reduced { body.warnings.append(("columnsReduced", "\(config.masonryColumns) → \(columns) columns")) }
        guard cellWidth > 0 else {
            body.warnings.append(("contentWidthTooSmall", "no room for one column"))
            return body
        }
        var nextY = [Double](repeating: 0, count: columns)
        var used = [Bool](repeating: false, count: columns)
        var capped = false
        for (index, photo) in photos.enumerated() {
            var imageHeight = cellWidth / photo.aspect
            var crop = false
            if imageHeight > config.masonryMaxImageHeightRatio * cellWidth {
                imageHeight = config.masonryMaxImageHeightRatio * cellWidth
                crop = true
                capped = true
            }
            let cellHeight = imageHeight + (photo.bodyHeight ?? config.masonryBodyHeight)
            var best = 0
            for column in 1..<columns where nextY[column] < nextY[best] - 1e-6 { best = column }
            var item = Body.Item(
                photo: index, x: insets.left + Double(best) * (cellWidth + gap), y: insets.top + nextY[best],
                width: cellWidth, height: cellHeight)
            item.crop = crop
            item.imageHeight = imageHeight
            body.items.append(item)
            nextY[best] += cellHeight + gap
            used[best] = true
        }
        if capped { body.warnings.append(("imageHeightCapped", "images taller than the ratio were capped")) }
        let bottom = zip(nextY, used).filter(\.1).map { $0.0 - gap }.max() ?? 0
        body.height = insets.top + bottom + insets.bottom
        return body
    }
}
