/// `strip`: one horizontally scrolling row per section, centred and zoomed (docs/LAYOUT.md §3.4).
public struct Strip: Sendable {
    public let viewport: Double
    public let height: Double
    public let cellHeight: Double
    public let widths: [Double]
    public let xs: [Double]
    public let contentWidth: Double
    let spacing: Double
    let zoomAll: Bool

    /// The strip geometry of photos with these aspects.
    public init(aspects: [Double], viewport: Double, height: Double, cellScale: Double, spacing: Double, zoomAll: Bool)
    {
        self.viewport = viewport
        self.height = height
        self.spacing = spacing
        self.zoomAll = zoomAll
        cellHeight = cellScale * height
        let widths = aspects.map { min(cellScale * height * $0, viewport) }
        self.widths = widths
        var xs: [Double] = []
        var x = widths.isEmpty ? 0 : (viewport - widths[0]) / 2
        for width in widths {
            xs.append(x)
            x += width + spacing
        }
        self.xs = xs
        contentWidth =
            widths.isEmpty ? 0 : xs[xs.count - 1] + widths[widths.count - 1] + (viewport - widths[widths.count - 1]) / 2
    }

    public func centre(_ index: Int) -> Double { xs[index] + widths[index] / 2 }

    /// The offset that centres cell `index`.
    public func offset(centring index: Int) -> Double { centre(index) - viewport / 2 }

    /// Snaps a proposed offset to the cell whose centre is nearest the viewport's centre (ties: lower index).
    public func snap(_ proposed: Double) -> Double {
        let target = proposed + viewport / 2
        var best = 0
        for index in widths.indices.dropFirst() where abs(centre(index) - target) < abs(centre(best) - target) {
            best = index
        }
        return offset(centring: best)
    }

    /// Content frames and scales at offset `offset` (§3.4 step 4).
    public func frames(at offset: Double) -> [(x: Double, y: Double, width: Double, height: Double, scale: Double)] {
        let centreX = offset + viewport / 2
        var frames = widths.indices.map { i in
            (x: xs[i], y: (height - cellHeight) / 2, width: widths[i], height: cellHeight, scale: 1.0)
        }
        guard let zoomed = widths.indices.first(where: { abs(centre($0) - centreX) < widths[$0] / 2 }) else {
            return frames
        }
        let half = widths[zoomed] / 2
        let sigma = 1 + (height / cellHeight - 1) * (1 - abs(centre(zoomed) - centreX) / half)
        let delta = widths[zoomed] * (sigma - 1)
        frames[zoomed] = (
            xs[zoomed] - delta / 2, (height - cellHeight * sigma) / 2, widths[zoomed] * sigma,
            cellHeight * sigma, sigma
        )
        for index in widths.indices where index != zoomed && (zoomAll || abs(index - zoomed) == 1) {
            frames[index].x += index < zoomed ? -delta / 2 : delta / 2
        }
        return frames
    }

    static func layout(_ photos: [Section.Photo], width contentWidth: Double, config: LayoutConfig) -> Body {
        var body = Body()
        guard !photos.isEmpty else { return body }
        guard contentWidth > 0 else {
            body.warnings.append(("contentWidthTooSmall", "no viewport width"))
            return body
        }
        let strip = Strip(
            aspects: photos.map(\.aspect), viewport: contentWidth, height: config.stripHeight,
            cellScale: config.stripCellScale, spacing: config.stripSpacing, zoomAll: config.stripZoomAll)
        let offset: Double =
            switch config.stripOffset {
            case .first: 0
            case .focusIndex(let index): strip.offset(centring: max(0, min(photos.count - 1, index)))
            case .proposedOffset(let proposed): strip.snap(proposed)
            }
        for (index, frame) in strip.frames(at: offset).enumerated() {
            var item = Body.Item(
                photo: index, x: frame.x - offset, y: frame.y, width: frame.width, height: frame.height)
            item.crop = isCrop(width: frame.width, height: frame.height, aspect: photos[index].aspect)
            item.scale = frame.scale
            item.contentX = frame.x
            item.visible = item.x < contentWidth && 0 < item.x + frame.width && frame.width > 0 && frame.height > 0
            body.items.append(item)
        }
        body.height = config.stripHeight
        body.contentWidth = strip.contentWidth
        body.contentOffset = offset
        return body
    }
}
