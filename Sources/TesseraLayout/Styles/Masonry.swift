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
        // Photos narrower than a column (`masonryNoEnlarge`) that follow one another share its width,
        // side by side, each in the middle of the shelf's height.
        var shelf: Shelf?
        for (index, photo) in photos.enumerated() {
            var imageHeight = cellWidth / photo.aspect
            var imageWidth = cellWidth
            var crop = false
            if imageHeight > config.masonryMaxImageHeightRatio * cellWidth {
                imageHeight = config.masonryMaxImageHeightRatio * cellWidth
                crop = true
                capped = true
            }
            // (the photo is drawn `imageWidth` wide, cropped or not: that, against its pixels)
            let pixelWidth = photo.limit * photo.aspect
            if config.masonryNoEnlarge && imageWidth > pixelWidth {
                imageHeight *= pixelWidth / imageWidth
                imageWidth = pixelWidth
            }
            let cellHeight = imageHeight + (photo.bodyHeight ?? config.masonryBodyHeight)
            let small = imageWidth < cellWidth - 1e-9
            if small, var open = shelf, open.used + gap + imageWidth <= cellWidth + 1e-9 {
                var item = Body.Item(
                    photo: index, x: open.x + open.used + gap, y: open.top, width: imageWidth, height: cellHeight)
                item.crop = crop
                item.imageHeight = imageHeight
                body.items.append(item)
                open.used += gap + imageWidth
                open.height = max(open.height, cellHeight)
                for member in open.first..<body.items.count {
                    body.items[member].y = open.top + (open.height - body.items[member].height) / 2
                }
                nextY[open.column] = open.top - insets.top + open.height + gap
                shelf = open
                continue
            }
            var best = 0
            for column in 1..<columns where nextY[column] < nextY[best] - 1e-6 { best = column }
            let x = insets.left + Double(best) * (cellWidth + gap)
            var item = Body.Item(
                photo: index, x: x, y: insets.top + nextY[best], width: imageWidth, height: cellHeight)
            item.crop = crop
            item.imageHeight = imageHeight
            body.items.append(item)
            shelf =
                small
                ? Shelf(
                    column: best, x: x, top: item.y, used: imageWidth, height: cellHeight,
                    first: body.items.count - 1) : nil
            nextY[best] += cellHeight + gap
            used[best] = true
        }
        if capped { body.warnings.append(("imageHeightCapped", "images taller than the ratio were capped")) }
        let bottom = zip(nextY, used).filter(\.1).map { $0.0 - gap }.max() ?? 0
        body.height = insets.top + bottom + insets.bottom
        return body
    }

    /// Small photos side by side in one column: where, how much of its width they take, and
    /// the first of their items (the others follow it).
    private struct Shelf {
        let column: Int
        let x: Double
        let top: Double
        var used: Double
        var height: Double
        let first: Int
    }
}
