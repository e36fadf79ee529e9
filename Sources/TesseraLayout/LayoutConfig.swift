/// Everything a layout can be configured with (docs/LAYOUT.md §2.1), with its defaults.
public struct LayoutConfig: Sendable, Equatable {
    public struct Insets: Sendable, Equatable, Codable {
        public var top = 0.0, left = 0.0, bottom = 0.0, right = 0.0
        public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
            (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
        }
    }

    public enum Style: String, Sendable, CaseIterable { case tiles, masonry, grid, strip, justified }
    public enum PagingMode: String, Sendable, CaseIterable { case viewport, count }
    /// `auto` (an album extension) takes the finest of day, month and year whose sections are
    /// mostly full enough to fill a row (`Section.autoLevel`), else one section.
    public enum GroupBy: String, Sendable, CaseIterable { case day, month, year, auto, none }
    public enum StripOffset: Sendable, Equatable { case first, focusIndex(Int), proposedOffset(Double) }

    // page
    public var pageWidth = 390.0
    public var pageHeight = 844.0
    public var insets = Insets()
    // paging
    public var paging = PagingMode.viewport
    public var pageCount = 24
    public var sectionStartsNewPage = false
    // sections
    public var groupBy = GroupBy.day
    public var headerHeight = 32.0
    public var sectionSpacing = 16.0
    public var coalesce = false
    public var style = Style.justified
    // tiles
    public var tilesMargin = 15.0, tilesSingleHeight = 150.0, tilesThreeSub = 100.0, tilesFourSub = 140.0
    public var tilesFiveSub = 100.0, tilesFiveMainHeight = 150.0, tilesSixSub = 140.0, tilesMaxShown = 6
    /// Album extension: a one-photo cell keeps the photo's aspect (at most as tall as it is wide
    /// × 1.25, narrower when a portrait would pass that) instead of a `singleHeight` slice.
    public var tilesSingleAspect = false
    /// Album extension: the slots' pattern and the photos' places in it chosen so that no tile
    /// is far from its photo's proportions (`Tiles.fitted`).
    public var tilesFitOrientation = false
    /// Album extension: sections side by side in this many columns, each section's cell in the
    /// shortest column, so that a wide page holds several social-post cells across.
    public var tilesColumns = 1
    // masonry
    public var masonryColumns = 2, masonrySpacing = 10.0, masonryInsets = Insets(), masonryBodyHeight = 0.0
    public var masonryMaxImageHeightRatio = Double.infinity
    /// Album extension: a section of fewer photos than columns gets one column per photo, so no column stays empty.
    public var masonryFillColumns = false
    /// Album extension: no photo framed wider than its pixels; small photos that follow one
    /// another share a column's width (`Masonry.Shelf`).
    public var masonryNoEnlarge = false
    // grid
    public var gridItemWidth = 70.0, gridItemHeight = 70.0, gridMinimumColumnGap = 5.0, gridInsets = Insets()
    public var gridPreloadBuffer = 0
    // strip
    public var stripHeight = 100.0, stripCellScale = 0.8, stripSpacing = 10.0, stripOffset = StripOffset.first
    public var stripZoomAll = true
    // justified
    public var justifiedGreedy = false
    public var targetRowHeight = 180.0
    public var spacingHorizontal = 4.0, spacingVertical = 4.0
    public var justifiedPadding = Insets()
    public var tolerance = 0.25, showWidows = true, widowLayoutStyle = "left", maxNumRows: Int?
    public var forceAspectRatio: Double?, fullWidthBreakoutRowCadence: Int?
    public var photoPadding = 0.0, minPhotosPerRow: Int?, maxPhotosPerRow: Int?
    public var maxRowHeight: Double?
    public var lastRowRagged = false
    /// Album extension: no photo framed taller than its pixels; it keeps its own size and the
    /// row's other photos share the width it leaves (`OptimalRows.fitted`).
    public var noEnlarge = false
    // output
    public var pixelRounding = false
    public var outputScale = 2.0

    public init() {}

    /// Whether sections flow through shared justified rows (`coalesce`, optimal rows: §4.4).
    var flows: Bool { coalesce && style == .justified && !justifiedGreedy }

    /// Whether tiles sections stand in columns side by side (`tiles.columns` above 1).
    var tilesInColumns: Bool { style == .tiles && tilesColumns > 1 }

    /// The content width `C` (§0.1).
    var contentWidth: Double { pageWidth - insets.left - insets.right }

    /// The largest size, spacing or count any parameter may take: bigger values are never
    /// meant, and keep every derived count within what memory and `Int` hold.
    static let largest = 1_000_000.0

    /// Checks every parameter against §2.1 and against `largest`.
    ///
    /// - Throws: `LayoutError` naming the first field out of range and the range allowed.
    public func validate() throws(LayoutError) {
        // Sizes are in points: below one there is nothing to see, and counts derived from them explode.
        func size(_ name: String, _ value: Double, upTo limit: Double = Self.largest) throws(LayoutError) {
            guard value >= 1 && value <= limit else {
                throw LayoutError(field: name, "must be a number from 1 to \(Self.text(limit)), not \(value)")
            }
        }
        func ratio(_ name: String, _ value: Double, from lowest: Double, upTo highest: Double) throws(LayoutError) {
            guard value >= lowest && value <= highest else {
                throw LayoutError(field: name, "must be a number from \(lowest) to \(Self.text(highest)), not \(value)")
            }
        }
        func nonNegative(_ name: String, _ value: Double) throws(LayoutError) {
            guard value >= 0 && value <= Self.largest else {
                throw LayoutError(field: name, "must be a number from 0 to \(Self.text(Self.largest)), not \(value)")
            }
        }
        func count(
            _ name: String, _ value: Int, from lowest: Int = 1, upTo highest: Int = 1_000_000
        ) throws(LayoutError) {
            guard (lowest...highest).contains(value) else {
                throw LayoutError(field: name, "must be a whole number from \(lowest) to \(highest), not \(value)")
            }
        }
        try size("page.width", pageWidth)
        try size("page.height", pageHeight, upTo: 100 * Self.largest)
        try count("paging.count", pageCount)
        try count("masonry.columns", masonryColumns, upTo: 1000)
        try count("tiles.maxShown", tilesMaxShown, upTo: 1000)
        try count("tiles.columns", tilesColumns, upTo: 1000)
        try count("grid.preloadBuffer", gridPreloadBuffer, from: 0)
        try size("justified.targetRowHeight", targetRowHeight)
        guard tolerance >= 0 && tolerance < 1 else {
            throw LayoutError(
                field: "justified.tolerance", "must be a number from 0 up to (not including) 1, not \(tolerance)")
        }
        try ratio("strip.cellScale", stripCellScale, from: 0.01, upTo: 1)
        for (name, value) in [
            ("strip.height", stripHeight), ("grid.itemWidth", gridItemWidth), ("grid.itemHeight", gridItemHeight),
            ("tiles.singleHeight", tilesSingleHeight), ("tiles.threeSub", tilesThreeSub),
            ("tiles.fourSub", tilesFourSub),
            ("tiles.fiveSub", tilesFiveSub), ("tiles.fiveMainHeight", tilesFiveMainHeight),
            ("tiles.sixSub", tilesSixSub),
        ] {
            try size(name, value)
        }
        for (name, value) in [
            ("sections.headerHeight", headerHeight), ("sections.sectionSpacing", sectionSpacing),
            ("masonry.spacing", masonrySpacing), ("masonry.bodyHeight", masonryBodyHeight),
            ("strip.spacing", stripSpacing),
            ("justified.spacing.horizontal", spacingHorizontal), ("justified.spacing.vertical", spacingVertical),
            ("justified.photoPadding", photoPadding), ("tiles.margin", tilesMargin),
            ("grid.minimumColumnGap", gridMinimumColumnGap),
        ] {
            try nonNegative(name, value)
        }
        for (name, set) in [
            ("page.insets", insets), ("masonry.insets", masonryInsets), ("grid.insets", gridInsets),
            ("justified.padding", justifiedPadding),
        ] {
            for (side, value) in [("top", set.top), ("left", set.left), ("bottom", set.bottom), ("right", set.right)] {
                try nonNegative("\(name).\(side)", value)
            }
        }
        if masonryMaxImageHeightRatio.isFinite {
            try ratio("masonry.maxImageHeightRatio", masonryMaxImageHeightRatio, from: 0.001, upTo: 1000)
        }
        if let maxNumRows { try count("justified.maxNumRows", maxNumRows, from: 0) }
        if let fullWidthBreakoutRowCadence {
            try count("justified.fullWidthBreakoutRowCadence", fullWidthBreakoutRowCadence)
        }
        if let minPhotosPerRow { try count("justified.minPhotosPerRow", minPhotosPerRow) }
        if let maxPhotosPerRow { try count("justified.maxPhotosPerRow", maxPhotosPerRow) }
        if let forceAspectRatio { try ratio("justified.forceAspectRatio", forceAspectRatio, from: 0.001, upTo: 1000) }
        if let maxRowHeight { try size("justified.maxRowHeight", maxRowHeight) }
        if case .proposedOffset(let offset) = stripOffset, !offset.isFinite {
            throw LayoutError(field: "strip.offset", "proposedOffset must be a finite number, not \(offset)")
        }
        guard [1.0, 2.0, 3.0].contains(outputScale) else {
            throw LayoutError(field: "output.scale", "must be 1, 2 or 3, not \(outputScale)")
        }
    }

    /// 1000000 rather than 1e+06.
    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
