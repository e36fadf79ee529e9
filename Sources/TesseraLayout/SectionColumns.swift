/// Sections side by side in columns (`tiles.columns`, an album extension): each section's
/// piece, its header and cell, goes into the shortest column, so that a wide page shows several
/// social-post cells across instead of one narrow column beside empty space.
enum SectionColumns {
    /// The pieces placed from `y` down, and the height of the tallest column.
    static func place(
        _ pieces: [(section: Section, photos: ArraySlice<Section.Photo>, continued: Bool)], y top: Double,
        config: LayoutConfig
    ) -> (items: [LayoutItem], height: Double, records: [LayoutSection], warnings: [LayoutWarning]) {
        let gap = config.sectionSpacing
        var columns = config.tilesColumns
        var width = (config.contentWidth - Double(columns - 1) * gap) / Double(columns)
        while width <= 0 && columns > 1 {
            columns -= 1
            width = (config.contentWidth - Double(columns - 1) * gap) / Double(columns)
        }
        var bottoms = [Double](repeating: top, count: columns)
        var used = [Bool](repeating: false, count: columns)
        var placed: [AlbumLayout.Placed] = []
        for piece in pieces {
            // The shortest column, the leftmost of equals; a section below another is `gap` under it.
            var column = 0
            for other in 1..<columns where bottoms[other] < bottoms[column] - 1e-6 { column = other }
            var inColumn = config
            inColumn.insets.left = config.insets.left + Double(column) * (width + gap)
            inColumn.insets.right = config.pageWidth - inColumn.insets.left - width
            let y = bottoms[column] + (used[column] ? gap : 0)
            let piece = AlbumLayout.place(
                piece.section, photos: piece.photos, y: y, continued: piece.continued, config: inColumn)
            placed.append(piece)
            bottoms[column] = y + piece.height
            used[column] = true
        }
        let height = (bottoms.max() ?? top) - top
        return (placed.flatMap(\.items), height, placed.map(\.record), placed.flatMap(\.warnings))
    }
}
