import Foundation

extension LayoutConfig {
    /// Sets one parameter from `key=value`, as a command line gives it.
    public mutating func set(assignment: String) throws(LayoutError) {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw LayoutError(field: assignment, "is not key=value (justified.targetRowHeight=220)")
        }
        try set(String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
    }

    /// Sets one parameter by its docs/LAYOUT.md §2.1 name, such as `justified.targetRowHeight` = `"220"`.
    ///
    /// Insets take `"t,l,b,r"` or one number for all sides; `maxNumRows` and the optional
    /// numbers take `"null"` to unset them. Ranges are checked by `validate()` later.
    ///
    /// - Throws: `LayoutError` naming `key` when the key is unknown or the value is not of its type.
    public mutating func set(_ key: String, _ value: String) throws(LayoutError) {
        func bad(_ expected: String) -> LayoutError {
            LayoutError(field: key, "must be \(expected), not \"\(value)\"")
        }
        func number() throws(LayoutError) -> Double {
            guard let parsed = Double(value), parsed.isFinite else { throw bad("a finite number") }
            return parsed
        }
        func whole() throws(LayoutError) -> Int {
            guard let parsed = Int(value) else { throw bad("a whole number") }
            return parsed
        }
        func optionalWhole() throws(LayoutError) -> Int? {
            value == "null" || value == "false" ? nil : try whole()
        }
        func optionalNumber() throws(LayoutError) -> Double? {
            value == "null" || value == "false" ? nil : try number()
        }
        func flag() throws(LayoutError) -> Bool {
            guard let parsed = Bool(value) else { throw bad("true or false") }
            return parsed
        }
        func parseInsets() throws(LayoutError) -> Insets {
            let parts = value.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            switch parts.count {
            case 1: return Insets(top: parts[0], left: parts[0], bottom: parts[0], right: parts[0])
            case 4: return Insets(top: parts[0], left: parts[1], bottom: parts[2], right: parts[3])
            default: throw bad("one number, or four as top,left,bottom,right")
            }
        }
        func choice<T: RawRepresentable<String> & CaseIterable>(_: T.Type) throws(LayoutError) -> T {
            guard let parsed = T(rawValue: value) else {
                throw bad("one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return parsed
        }
        func oneOf(_ allowed: [String]) throws(LayoutError) -> String {
            guard allowed.contains(value) else { throw bad("one of " + allowed.joined(separator: ", ")) }
            return value
        }
        switch key {
        case "page.width": pageWidth = try number()
        case "page.height": pageHeight = try number()
        case "page.insets": insets = try parseInsets()
        case "paging.mode": paging = try choice(PagingMode.self)
        case "paging.count": pageCount = try whole()
        case "paging.sectionStartsNewPage": sectionStartsNewPage = try flag()
        case "sections.groupBy": groupBy = try choice(GroupBy.self)
        case "sections.headerHeight": headerHeight = try number()
        case "sections.sectionSpacing": sectionSpacing = try number()
        case "sections.coalesce": coalesce = try flag()
        case "style": style = try choice(Style.self)
        case "tiles.margin": tilesMargin = try number()
        case "tiles.singleHeight": tilesSingleHeight = try number()
        case "tiles.threeSub": tilesThreeSub = try number()
        case "tiles.fourSub": tilesFourSub = try number()
        case "tiles.fiveSub": tilesFiveSub = try number()
        case "tiles.fiveMainHeight": tilesFiveMainHeight = try number()
        case "tiles.sixSub": tilesSixSub = try number()
        case "tiles.maxShown": tilesMaxShown = try whole()
        case "tiles.singleAspect": tilesSingleAspect = try flag()
        case "tiles.columns": tilesColumns = try whole()
        case "tiles.fitOrientation": tilesFitOrientation = try flag()
        case "masonry.columns": masonryColumns = try whole()
        case "masonry.spacing": masonrySpacing = try number()
        case "masonry.insets": masonryInsets = try parseInsets()
        case "masonry.bodyHeight": masonryBodyHeight = try number()
        case "masonry.maxImageHeightRatio": masonryMaxImageHeightRatio = try optionalNumber() ?? .infinity
        case "masonry.fillColumns": masonryFillColumns = try flag()
        case "masonry.noEnlarge": masonryNoEnlarge = try flag()
        case "grid.itemWidth": gridItemWidth = try number()
        case "grid.itemHeight": gridItemHeight = try number()
        case "grid.minimumColumnGap": gridMinimumColumnGap = try number()
        case "grid.insets": gridInsets = try parseInsets()
        case "grid.preloadBuffer": gridPreloadBuffer = try whole()
        case "strip.height": stripHeight = try number()
        case "strip.cellScale": stripCellScale = try number()
        case "strip.spacing": stripSpacing = try number()
        case "strip.offset":
            if value == "first" {
                stripOffset = .first
            } else if value.hasPrefix("focusIndex:"), let index = Int(value.dropFirst(11)) {
                stripOffset = .focusIndex(index)
            } else if value.hasPrefix("proposedOffset:"), let offset = Double(value.dropFirst(15)) {
                stripOffset = .proposedOffset(offset)
            } else {
                throw bad("first, focusIndex:N or proposedOffset:X")
            }
        case "strip.zoomShift": stripZoomAll = try oneOf(["all", "adjacent"]) == "all"
        case "justified.algorithm": justifiedGreedy = try oneOf(["greedy", "optimal"]) == "greedy"
        case "justified.targetRowHeight": targetRowHeight = try number()
        case "justified.spacing":
            let spacing = try parseInsets()  // one number, or "horizontal,vertical" given twice
            (spacingHorizontal, spacingVertical) = (spacing.top, spacing.left)
        case "justified.spacing.horizontal": spacingHorizontal = try number()
        case "justified.spacing.vertical": spacingVertical = try number()
        case "justified.padding": justifiedPadding = try parseInsets()
        case "justified.tolerance": tolerance = try number()
        case "justified.showWidows": showWidows = try flag()
        case "justified.widowLayoutStyle": widowLayoutStyle = try oneOf(["left", "center", "justify"])
        case "justified.maxNumRows": maxNumRows = try optionalWhole()
        case "justified.forceAspectRatio": forceAspectRatio = try optionalNumber()
        case "justified.fullWidthBreakoutRowCadence": fullWidthBreakoutRowCadence = try optionalWhole()
        case "justified.photoPadding": photoPadding = try number()
        case "justified.minPhotosPerRow": minPhotosPerRow = try optionalWhole()
        case "justified.maxPhotosPerRow": maxPhotosPerRow = try optionalWhole()
        case "justified.maxRowHeight": maxRowHeight = try optionalNumber()
        case "justified.lastRow": lastRowRagged = try oneOf(["justify", "ragged"]) == "ragged"
        case "justified.noEnlarge": noEnlarge = try flag()
        case "output.rounding": pixelRounding = try oneOf(["none", "pixel"]) == "pixel"
        case "output.scale": outputScale = try number()
        default: throw LayoutError(field: key, "is not a layout parameter (see docs/LAYOUT.md §2.1)")
        }
    }
}
