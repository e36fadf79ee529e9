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
    public mutating func set(_ key: String, _ text: String) throws(LayoutError) {
        let value = OptionValue(key: key, text: text)
        switch key {
        case "page.width": pageWidth = try value.number()
        case "page.height": pageHeight = try value.number()
        case "page.insets": insets = try value.insets()
        case "paging.mode": paging = try value.choice(PagingMode.self)
        case "paging.count": pageCount = try value.whole()
        case "paging.sectionStartsNewPage": sectionStartsNewPage = try value.flag()
        case "sections.groupBy": groupBy = try value.choice(GroupBy.self)
        case "sections.headerHeight": headerHeight = try value.number()
        case "sections.sectionSpacing": sectionSpacing = try value.number()
        case "sections.coalesce": coalesce = try value.flag()
        case "style": style = try value.choice(Style.self)
        case "tiles.margin": tilesMargin = try value.number()
        case "tiles.singleHeight": tilesSingleHeight = try value.number()
        case "tiles.threeSub": tilesThreeSub = try value.number()
        case "tiles.fourSub": tilesFourSub = try value.number()
        case "tiles.fiveSub": tilesFiveSub = try value.number()
        case "tiles.fiveMainHeight": tilesFiveMainHeight = try value.number()
        case "tiles.sixSub": tilesSixSub = try value.number()
        case "tiles.maxShown": tilesMaxShown = try value.whole()
        case "tiles.singleAspect": tilesSingleAspect = try value.flag()
        case "tiles.columns": tilesColumns = try value.whole()
        case "tiles.fitOrientation": tilesFitOrientation = try value.flag()
        case "masonry.columns": masonryColumns = try value.whole()
        case "masonry.spacing": masonrySpacing = try value.number()
        case "masonry.insets": masonryInsets = try value.insets()
        case "masonry.bodyHeight": masonryBodyHeight = try value.number()
        case "masonry.maxImageHeightRatio": masonryMaxImageHeightRatio = try value.optionalNumber() ?? .infinity
        case "masonry.fillColumns": masonryFillColumns = try value.flag()
        case "masonry.noEnlarge": masonryNoEnlarge = try value.flag()
        case "grid.itemWidth": gridItemWidth = try value.number()
        case "grid.itemHeight": gridItemHeight = try value.number()
        case "grid.minimumColumnGap": gridMinimumColumnGap = try value.number()
        case "grid.insets": gridInsets = try value.insets()
        case "grid.preloadBuffer": gridPreloadBuffer = try value.whole()
        case "strip.height": stripHeight = try value.number()
        case "strip.cellScale": stripCellScale = try value.number()
        case "strip.spacing": stripSpacing = try value.number()
        case "strip.offset": stripOffset = try value.stripOffset()
        case "strip.zoomShift": stripZoomAll = try value.oneOf(["all", "adjacent"]) == "all"
        case "justified.algorithm": justifiedGreedy = try value.oneOf(["greedy", "optimal"]) == "greedy"
        case "justified.targetRowHeight": targetRowHeight = try value.number()
        case "justified.spacing":
            let spacing = try value.insets()  // one number, or "horizontal,vertical" given twice
            (spacingHorizontal, spacingVertical) = (spacing.top, spacing.left)
        case "justified.spacing.horizontal": spacingHorizontal = try value.number()
        case "justified.spacing.vertical": spacingVertical = try value.number()
        case "justified.padding": justifiedPadding = try value.insets()
        case "justified.tolerance": tolerance = try value.number()
        case "justified.showWidows": showWidows = try value.flag()
        case "justified.widowLayoutStyle": widowLayoutStyle = try value.oneOf(["left", "center", "justify"])
        case "justified.maxNumRows": maxNumRows = try value.optionalWhole()
        case "justified.forceAspectRatio": forceAspectRatio = try value.optionalNumber()
        case "justified.fullWidthBreakoutRowCadence": fullWidthBreakoutRowCadence = try value.optionalWhole()
        case "justified.photoPadding": photoPadding = try value.number()
        case "justified.minPhotosPerRow": minPhotosPerRow = try value.optionalWhole()
        case "justified.maxPhotosPerRow": maxPhotosPerRow = try value.optionalWhole()
        case "justified.maxRowHeight": maxRowHeight = try value.optionalNumber()
        case "justified.lastRow": lastRowRagged = try value.oneOf(["justify", "ragged"]) == "ragged"
        case "justified.noEnlarge": noEnlarge = try value.flag()
        case "output.rounding": pixelRounding = try value.oneOf(["none", "pixel"]) == "pixel"
        case "output.scale": outputScale = try value.number()
        default: throw LayoutError(field: key, "is not a layout parameter (see docs/LAYOUT.md §2.1)")
        }
    }
}

/// A parameter's value as text, read as its type; a value not of it names the parameter.
private struct OptionValue {
    let key: String
    let text: String

    func bad(_ expected: String) -> LayoutError {
        LayoutError(field: key, "must be \(expected), not \"\(text)\"")
    }

    func number() throws(LayoutError) -> Double {
        guard let parsed = Double(text), parsed.isFinite else { throw bad("a finite number") }
        return parsed
    }

    func whole() throws(LayoutError) -> Int {
        guard let parsed = Int(text) else { throw bad("a whole number") }
        return parsed
    }

    func optionalWhole() throws(LayoutError) -> Int? {
        text == "null" || text == "false" ? nil : try whole()
    }

    func optionalNumber() throws(LayoutError) -> Double? {
        text == "null" || text == "false" ? nil : try number()
    }

    func flag() throws(LayoutError) -> Bool {
        guard let parsed = Bool(text) else { throw bad("true or false") }
        return parsed
    }

    func insets() throws(LayoutError) -> LayoutConfig.Insets {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        switch parts.count {
        case 1: return .init(top: parts[0], left: parts[0], bottom: parts[0], right: parts[0])
        case 4: return .init(top: parts[0], left: parts[1], bottom: parts[2], right: parts[3])
        default: throw bad("one number, or four as top,left,bottom,right")
        }
    }

    func choice<T: RawRepresentable<String> & CaseIterable>(_: T.Type) throws(LayoutError) -> T {
        guard let parsed = T(rawValue: text) else {
            throw bad("one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return parsed
    }

    func oneOf(_ allowed: [String]) throws(LayoutError) -> String {
        guard allowed.contains(text) else { throw bad("one of " + allowed.joined(separator: ", ")) }
        return text
    }

    func stripOffset() throws(LayoutError) -> LayoutConfig.StripOffset {
        if text == "first" { return .first }
        if text.hasPrefix("focusIndex:"), let index = Int(text.dropFirst(11)) { return .focusIndex(index) }
        if text.hasPrefix("proposedOffset:"), let offset = Double(text.dropFirst(15)) { return .proposedOffset(offset) }
        throw bad("first, focusIndex:N or proposedOffset:X")
    }
}
