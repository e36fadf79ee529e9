/// Everything a layout can be configured with (LAYOUT-SPEC §2.1), with its defaults.
public struct LayoutConfig: Sendable, Equatable {
    public struct Insets: Sendable, Equatable, Codable {
        public var top = 0.0, left = 0.0, bottom = 0.0, right = 0.0
        public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
            (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
        }
    }

    public enum Style: String, Sendable, CaseIterable { case tiles, masonry, grid, strip, justified }
    public enum PagingMode: String, Sendable { case viewport, count }
    public enum GroupBy: String, Sendable { case day, month, none }
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
    // masonry
    public var masonryColumns = 2, masonrySpacing = 10.0, masonryInsets = Insets(), masonryBodyHeight = 0.0
    public var masonryMaxImageHeightRatio = Double.infinity
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
    // output
    public var pixelRounding = false
    public var outputScale = 2.0

    public init() {}

    /// The content width `C` (§0.1).
    var contentWidth: Double { pageWidth - insets.left - insets.right }

    /// The first field that breaks the validation rules of §2.1, or nil.
    public func invalidField() -> String? {
        let nonNegative: [(String, Double)] = [
            ("sections.headerHeight", headerHeight), ("sections.sectionSpacing", sectionSpacing),
            ("masonry.spacing", masonrySpacing), ("strip.spacing", stripSpacing),
            ("justified.spacing.horizontal", spacingHorizontal), ("justified.spacing.vertical", spacingVertical),
            ("justified.photoPadding", photoPadding), ("tiles.margin", tilesMargin), ("grid.minimumColumnGap", gridMinimumColumnGap),
        ]
        let insetSets: [(String, Insets)] = [
            ("page.insets", insets), ("masonry.insets", masonryInsets), ("grid.insets", gridInsets),
            ("justified.padding", justifiedPadding),
        ]
        if !(pageWidth > 0) { return "page.width" }
        if !(pageHeight > 0) { return "page.height" }
        if pageCount < 1 { return "paging.count" }
        if masonryColumns < 1 { return "masonry.columns" }
        if !(targetRowHeight > 0) { return "justified.targetRowHeight" }
        if !(tolerance >= 0 && tolerance < 1) { return "justified.tolerance" }
        if !(stripCellScale > 0 && stripCellScale <= 1) { return "strip.cellScale" }
        if !(stripHeight > 0) { return "strip.height" }
        if !(gridItemWidth > 0) { return "grid.itemWidth" }
        if !(gridItemHeight > 0) { return "grid.itemHeight" }
        for (name, value) in nonNegative where !(value >= 0) { return name }
        for (name, set) in insetSets {
            for (side, value) in [("top", set.top), ("left", set.left), ("bottom", set.bottom), ("right", set.right)]
            where !(value >= 0 && value.isFinite) {
                return "\(name).\(side)"
            }
        }
        if ![1.0, 2.0, 3.0].contains(outputScale) { return "output.scale" }
        return nil
    }
}
