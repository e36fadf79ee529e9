/// Album pages from photo records: sections, styles, paging and output rounding (docs/LAYOUT.md §4).
///
/// A pure function of its inputs: no I/O, no clocks, no locale, no hash order,
/// so the same records and configuration give byte-identical JSON anywhere.
public enum AlbumLayout {
    /// Lays out `photos` with `config`.
    ///
    /// - Throws: `LayoutError` naming the first invalid configuration field (§2.1).
    public static func layout(_ photos: [LayoutPhoto], config: LayoutConfig) throws(LayoutError) -> LayoutDocument {
        try config.validate()
        let sections = Section.group(photos, by: config.groupBy, sparse: config.flows ? .month : .auto)
        var document =
            config.paging == .viewport
            ? try viewport(sections, config: config) : counted(sections, config: config)
        if config.pixelRounding { round(&document, scale: config.outputScale) }
        return document
    }

    /// One section piece placed in a document at `y`: its items in document coordinates.
    struct Placed {
        var items: [LayoutItem]
        var height: Double
        var record: LayoutSection
        var warnings: [LayoutWarning]
    }

    static func place(
        _ section: Section, photos: ArraySlice<Section.Photo>, y: Double, continued: Bool, config: LayoutConfig
    ) -> Placed {
        let c = config.contentWidth
        var items: [LayoutItem] = []
        var top = y
        // One section of everything (`none`, or `auto` when even years are sparse) has no header.
        if config.groupBy != .none && section.id != Section.allID && config.headerHeight > 0 {
            items.append(
                LayoutItem(
                    type: .header, sectionId: section.id, title: section.title, continued: continued,
                    x: config.insets.left,
                    y: top, width: c, height: config.headerHeight, clipped: false))
            top += config.headerHeight
        }
        let slice = Array(photos)
        let body = section.body(of: slice, style: config.style, width: c, config: config)
        let first = photos.startIndex
        let dx = config.style == .strip ? 0 : config.insets.left
        for item in body.items {
            let photo = slice[item.photo]
            items.append(
                LayoutItem(
                    type: .photo, sectionId: section.id, photoId: photo.id, index: first + item.photo,
                    x: item.x + dx, y: item.y + top, width: item.width, height: item.height, crop: item.crop ?? false,
                    aspectEstimated: photo.aspectEstimated, clipped: false, imageHeight: item.imageHeight,
                    scale: item.scale,
                    contentX: item.contentX, visible: item.visible, overlay: item.overlay))
        }
        let height = top - y + body.height
        let record = LayoutSection(
            id: section.id, title: section.title, photoCount: section.photos.count, y: y, height: height,
            contentWidth: body.contentWidth, contentOffset: body.contentOffset)
        let warnings = body.warnings.map { LayoutWarning(code: $0.code, sectionId: section.id, detail: $0.detail) }
        return Placed(items: items, height: height, record: record, warnings: warnings)
    }

    /// §4.1–4.2: one continuous document cut into pages of height Hp.
    static func viewport(_ sections: [Section], config: LayoutConfig) throws(LayoutError) -> LayoutDocument {
        var y = config.insets.top
        var items: [LayoutItem] = []
        var records: [LayoutSection] = []
        var warnings: [LayoutWarning] = []
        if config.flows {
            let flow = FlowRows.place(
                sections.map { .init(section: $0, photos: $0.photos[...], continued: false) }, y: y, config: config)
            (items, records) = (flow.items, flow.records)
            y += flow.height
        } else if config.tilesInColumns {
            let placed = SectionColumns.place(
                sections.map { ($0, $0.photos[...], false) }, y: y, config: config)
            (items, records, warnings) = (placed.items, placed.records, placed.warnings)
            y += placed.height
        } else {
            for (index, section) in sections.enumerated() {
                let placed = place(section, photos: section.photos[...], y: y, continued: false, config: config)
                items += placed.items
                records.append(placed.record)
                warnings += placed.warnings
                y += placed.height
                if index < sections.count - 1 { y += config.sectionSpacing }
            }
        }
        let height = sections.isEmpty ? 0 : y + config.insets.bottom
        let pageHeight = config.pageHeight
        let bands = height > 0 ? (height / pageHeight).rounded(.up) : 0
        guard bands <= 1_000_000 else {
            throw LayoutError(field: "page.height", "gives \(bands) pages for this album; at most 1000000 are made")
        }
        let pageCount = Int(bands)
        let query = ItemQuery(items)
        let pages = (0..<pageCount).map { k in
            let band = (top: Double(k) * pageHeight, bottom: Double(k + 1) * pageHeight)
            let onPage = query.items(minY: band.top, maxY: band.bottom).map { item in
                var moved = item
                moved.y = item.y - band.top
                moved.clipped = !(moved.y >= 0 && moved.y + item.height <= pageHeight)
                return moved
            }
            return LayoutPage(index: k, width: config.pageWidth, height: pageHeight, documentY: band.top, items: onPage)
        }
        return LayoutDocument(
            style: config.style.rawValue, pageSize: .init(width: config.pageWidth, height: pageHeight),
            document: .init(width: config.pageWidth, height: height), sections: records, pages: pages,
            warnings: warnings)
    }

    /// §4.3: pages of up to K units, each laid out on its own.
    static func counted(_ sections: [Section], config: LayoutConfig) -> LayoutDocument {
        let pages = CountedPages(sections, config: config)
        var warnings: [LayoutWarning] = []
        let laidOut = pages.pieces.indices.map { index in
            let (page, pageWarnings) = pages.page(index, rounded: false)
            warnings += pageWarnings
            return page
        }
        let records = sections.map { LayoutSection(id: $0.id, title: $0.title, photoCount: $0.photos.count) }
        return LayoutDocument(
            style: config.style.rawValue, pageSize: .init(width: config.pageWidth, height: nil), document: nil,
            sections: records, pages: laidOut, warnings: warnings)
    }

    /// Count paging (§4.3) a page at a time.
    ///
    /// Which photos each page holds is decided for the whole album up front, from its sections
    /// alone, and a page is laid out only when asked for, so a reader of a large album holds one
    /// page's geometry, not the album's. Each page is the one `layout` gives with the same inputs.
    public struct CountedPages {
        let config: LayoutConfig
        /// Pieces per page: (section, photo range).
        let pieces: [[(Section, Range<Int>)]]

        /// - Throws: `LayoutError` naming the first invalid configuration field (§2.1), or
        ///   `paging.mode` when it is not `count`.
        public init(_ photos: some RandomAccessCollection<LayoutPhoto>, config: LayoutConfig) throws(LayoutError) {
            try config.validate()
            guard config.paging == .count else { throw LayoutError(field: "paging.mode", "must be count") }
            self.init(Section.group(photos, by: config.groupBy, sparse: config.flows ? .month : .auto), config: config)
        }

        init(_ sections: [Section], config: LayoutConfig) {
            self.config = config
            var pages: [[(Section, Range<Int>)]] = []
            var current: [(Section, Range<Int>)] = []
            var units = 0
            let capacity = config.pageCount
            for section in sections {
                if config.sectionStartsNewPage && !current.isEmpty {
                    pages.append(current)
                    (current, units) = ([], 0)
                }
                if config.style == .tiles {
                    if units == capacity {
                        pages.append(current)
                        (current, units) = ([], 0)
                    }
                    current.append((section, 0..<section.photos.count))
                    units += 1
                    continue
                }
                var start = 0
                while start < section.photos.count {
                    if units == capacity {
                        pages.append(current)
                        (current, units) = ([], 0)
                    }
                    let take = min(capacity - units, section.photos.count - start)
                    current.append((section, start..<start + take))
                    units += take
                    start += take
                }
            }
            if !current.isEmpty { pages.append(current) }
            pieces = pages
        }

        public var count: Int { pieces.count }

        /// Page `index` (0 ..< `count`), rounded as the configuration says.
        public func page(_ index: Int) -> LayoutPage {
            page(index, rounded: config.pixelRounding).page
        }

        func page(_ index: Int, rounded: Bool) -> (page: LayoutPage, warnings: [LayoutWarning]) {
            var y = config.insets.top
            var items: [LayoutItem] = []
            var warnings: [LayoutWarning] = []
            let pagePieces = pieces.indices.contains(index) ? pieces[index] : []
            if config.flows {
                let flow = FlowRows.place(
                    pagePieces.map { .init(section: $0, photos: $0.photos[$1], continued: $1.lowerBound > 0) }, y: y,
                    config: config)
                (items, y) = (flow.items, y + flow.height)
            } else if config.tilesInColumns {
                let placed = SectionColumns.place(
                    pagePieces.map { ($0, $0.photos[$1], $1.lowerBound > 0) }, y: y, config: config)
                (items, y, warnings) = (placed.items, y + placed.height, placed.warnings)
            }
            for (number, (section, range)) in pagePieces.enumerated() where !config.flows && !config.tilesInColumns {
                let placed = place(
                    section, photos: section.photos[range], y: y, continued: range.lowerBound > 0, config: config)
                items += placed.items
                warnings += placed.warnings
                y += placed.height
                if number < pagePieces.count - 1 { y += config.sectionSpacing }
            }
            var page = LayoutPage(
                index: index, width: config.pageWidth, height: y + config.insets.bottom, documentY: nil, items: items)
            if rounded { round(&page, scale: config.outputScale) }
            return (page, warnings)
        }
    }

    /// §0.4 "pixel": snap edges to the device pixel grid, after everything else.
    static func round(_ document: inout LayoutDocument, scale: Double) {
        for page in document.pages.indices { round(&document.pages[page], scale: scale) }
    }

    static func round(_ page: inout LayoutPage, scale: Double) {
        func snap(_ value: Double) -> Double { roundHalfUp(value * scale) / scale }
        for index in page.items.indices {
            var item = page.items[index]
            let (x, y) = (snap(item.x), snap(item.y))
            item.width = snap(item.x + item.width) - x
            item.height = snap(item.y + item.height) - y
            (item.x, item.y) = (x, y)
            page.items[index] = item
        }
    }
}
