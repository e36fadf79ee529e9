import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraLayout

/// Writes one collection: its pages and `photos.js`, what the lightbox reads.
///
/// A page holds its photos laid out once, at the narrowest breakpoint width: what a browser
/// without script shows. album.js lays the same photos out again for a wider window's
/// breakpoint with layout.js, the engine's rules in script, and the drawing rules below
/// (`render`), so the page is the same as if it had been laid out here at that width.
///
/// The collection is laid out from its photos' outlines; their records are read a page at a
/// time, and `photos.js` is written as the pages are: memory follows a page, not the collection.
struct CollectionPages {
    let options: AlbumBuilder.Options
    let media: MediaFolder
    let output: OutputFolder
    /// The output-relative folder of the photos' albums, for photo links and originals.
    let folders: AlbumFolders
    let index: any PhotoReading

    /// What writing a collection saw of its photos on the way.
    struct Written {
        var pages = 0
        var cover = CoverChoice()
        var find = MonthFind()
    }

    /// Writes the collection into its folder, emptied first; lets go of its photos' outlines
    /// once they are laid out (`collection.photos` is empty afterwards).
    func write(_ collection: inout Collection) throws(AlbumError) -> Written {
        let directory = collection.folder
        _ = try output.recreate(directory)
        let (width, pages) = try layout(collection.photos)
        // From here on the pages need the photos' ids (and tiles' section pages their outlines):
        // the outlines of a large collection go before its pages are written.
        let ids = collection.photos.map(\.id)
        let outlines = options.style == .tiles ? collection.photos : []
        collection.photos = []
        var written = Written(pages: max(1, pages.count))
        let data = try output.file(directory + "/photos.js")
        var lightbox = LightboxData(media: media, folders: folders, base: Collection.prefix)
        try data.append(lightbox.start)
        // Tiles show six photos a section: each larger section gets a page of all its photos.
        var sections: [(id: String, title: String, page: Int, photos: [Int])] = []
        var seen: Set<Int64> = []
        // A folder of albums has no photos: one page, of its albums.
        for number in 0..<max(1, pages.count) {
            media.startPage()
            let page = pages.page(number)
            // The collection's order is the pages' order; a tile's hidden photos follow the tile.
            var positions: [Int] = []
            for item in page.items where item.type == .photo {
                let shown = (item.photoId.map { [$0] } ?? []) + (item.overlay?.hiddenPhotoIds ?? [])
                let onPage = shown.compactMap { Int($0) }.filter { ids.indices.contains($0) }
                positions += onPage
                if options.style == .tiles {
                    if sections.last?.id != item.sectionId || sections.last?.page != number {
                        sections.append((item.sectionId, "", number, []))
                    }
                    sections[sections.count - 1].photos += onPage
                }
            }
            for item in page.items where item.type == .header {
                if let index = sections.firstIndex(where: { $0.id == item.sectionId && $0.page == number }) {
                    sections[index].title =
                        item.sectionId == "undated" ? "Undated" : FriendlyDate.section(item.title ?? "")
                }
            }
            let records = try self.records(positions, ids: ids)
            let members = try stackMembers(of: Array(records.values))
            let body = """
                <header>\(crumbs(collection))<h1>\(HTML.breakingAtSlashes(collection.title))</h1><p>\(HTML.escape(collection.subtitle))</p>\(Self.neighbours(collection))\(ids.count < 2 ? "" : Self.findForm)</header>
                \(number == 0 && !collection.children.isEmpty ? "<section class=\"children\"><h2>Albums</h2><div class=\"albums\">\(collection.children.joined(separator: "\n"))</div></section>" : "")
                <main>
                \(ids.isEmpty ? "" : render(page, width: width, byID: records))
                </main>
                \(stackLinks(positions.compactMap { records[Self.layoutID($0)] }, members: members))
                \(pager(current: number, count: pages.count))
                """
            try output.write(
                HTML.document(
                    title: collection.title, body: body, bodyAttributes: " data-photos=\"photos.js\""),
                to: directory + "/" + Self.pageFile(number))
            var entries = ""
            for position in positions {
                guard let photo = records[Self.layoutID(position)], seen.insert(photo.id).inserted else { continue }
                entries += lightbox.entry(photo, members: photo.stack?.memberIDs.compactMap { members[$0] } ?? [])
                written.cover.consider(photo, position: position)
                written.find.add(photo)
            }
            try data.append(entries)
        }
        try data.append(lightbox.end)
        try data.close()
        guard options.style == .tiles else { return written }
        // One section's photos in justified rows, under no headers of their own.
        var expanded = options
        (expanded.style, expanded.sections) = (.justified, .none)
        let writer = CollectionPages(
            options: expanded, media: media, output: output, folders: folders, index: index)
        let shown = layoutConfig(width: options.staticWidth).tilesMaxShown
        for section in sections where section.photos.count > shown {
            try writer.writeSection(
                section.photos.map { outlines[$0] }, collection: collection, title: section.title,
                file: directory + "/" + Self.sectionFile(section.id), back: Self.pageFile(section.page))
        }
        return written
    }

    /// For a browser without script, which has no viewer to open a stack out: each stack of
    /// the page (`faces` in page order) and links to its files, as its tile links to its face.
    private func stackLinks(_ faces: [PhotoRecord], members: [Int64: PhotoRecord]) -> String {
        var seen = Set<Int64>()
        let items = faces.compactMap { face -> String? in
            guard let stack = face.stack, seen.insert(face.id).inserted else { return nil }
            let files = [face] + stack.memberIDs.compactMap { members[$0] }
            guard files.count > 1 else { return nil }
            let links = files.map { "<a href=\"\(plainLink($0))\">\(HTML.escape(AlbumBuilder.name($0)))</a>" }
            return "<li>\(HTML.escape(StackWording.title(stack))): \(links.joined(separator: ", "))</li>"
        }
        guard !items.isEmpty else { return "" }
        return "<noscript><section class=\"stacks\"><h2>Stacks</h2><ul>\(items.joined())</ul></section></noscript>"
    }

    /// The records of the other members of the stacks `faces` stand for, by id: those present.
    private func stackMembers(of faces: [PhotoRecord]) throws(AlbumError) -> [Int64: PhotoRecord] {
        let ids = faces.flatMap { $0.stack?.memberIDs ?? [] }
        guard !ids.isEmpty else { return [:] }
        let records: [PhotoRecord]
        do {
            records = try index.photos(ids: ids).filter { $0.status == .ok || $0.status == .warning }
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        try folders.load(records.map(\.albumID))
        return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The records of the photos at `positions` of a collection (of the photos `ids`), by their ids in its layout.
    private func records(_ positions: [Int], ids: [Int64]) throws(AlbumError) -> [String: PhotoRecord] {
        let records: [PhotoRecord]
        do {
            records = try index.photos(ids: positions.map { ids[$0] })
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        try folders.load(records.map(\.albumID))
        let positionByID = Dictionary(
            positions.map { (ids[$0], $0) }, uniquingKeysWith: { first, _ in first })
        return Dictionary(
            records.compactMap { record in positionByID[record.id].map { (Self.layoutID($0), record) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// A photo's id in its collection's layout: its position there, so that the engine, which
    /// breaks ties of capture time by id, keeps equal times in the index's order (that of
    /// `tessera list`); digits enough for any collection, so ids sort as positions do.
    private static func layoutID(_ position: Int) -> String {
        let text = String(position)
        return String(repeating: "0", count: max(0, 12 - text.count)) + text
    }

    /// The photos' pages at the narrowest breakpoint width, each laid out when asked for.
    private func layout(
        _ photos: [PhotoOutline], pageCount: Int? = nil
    ) throws(AlbumError) -> (width: Double, pages: AlbumLayout.CountedPages) {
        let width = options.staticWidth
        var config = layoutConfig(width: width)
        if let pageCount { config.pageCount = max(1, pageCount) }
        // Made as the engine reads them: the photos are held once more as its sections, not twice.
        let records = photos.indices.lazy.map { LayoutPhoto(photos[$0], id: Self.layoutID($0)) }
        do {
            return (width, try AlbumLayout.CountedPages(records, config: config))
        } catch {
            throw AlbumError(.layout, "layout failed: \(error)")
        }
    }

    /// One section's page (what a tile's "+N" leads to): all its photos in one layout, under
    /// the album's title and the section's, with a way back to the album page holding the tile.
    func writeSection(
        _ photos: [PhotoOutline], collection: Collection, title: String, file: String, back: String
    ) throws(AlbumError) {
        let (width, pages) = try layout(photos, pageCount: photos.count)
        let page =
            pages.count > 0
            ? render(pages.page(0), width: width, byID: try records(Array(photos.indices), ids: photos.map(\.id))) : nil
        let body = """
            <header>\(crumbs(collection))<h1>\(HTML.breakingAtSlashes(collection.title))</h1>\
            <p>\(HTML.escape(title.isEmpty ? "" : title + " · "))\(AlbumBuilder.count(photos)) · <a rel="up" href="\(back)">back to the album</a></p></header>
            <main>
            \(page ?? "")
            </main>
            """
        try output.write(
            HTML.document(
                title: "\(collection.title) · \(title)", body: body,
                bodyAttributes: " data-photos=\"photos.js\""),
            to: file)
    }

    /// The page of a section's photos, named by its id ("2024-05-03", "undated").
    static func sectionFile(_ id: String) -> String {
        "section-"
            + String(
                id.unicodeScalars.map {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "-"
                }) + ".html"
    }

    /// Find over the whole collection, which album.js shows (without script it stays hidden).
    ///
    /// One box whose words match a photo's camera, lens, title, caption, keywords or file name,
    /// and, behind **Filters**, only the filters the photos give a choice of (album.js fills them
    /// from `photos.js`). On a phone it waits behind a **Find** button.
    ///
    /// Nothing leaves the page: no server, no network.
    static let findForm = """
        <button class="find-open" type="button" hidden aria-expanded="false">Find</button>\
        <form class="find" hidden role="search"><input type="search" name="text" list="find-words" \
        placeholder="Camera, lens, title, keyword, file name" aria-label="Find"><datalist id="find-words"></datalist>\
        <button class="filters" type="button" aria-expanded="false">Filters</button><span class="facets" hidden>\
        <label data-facet="day">From <input type="date" name="from"></label>\
        <label data-facet="day">To <input type="date" name="to"></label>\
        <label data-facet="camera">Camera <select name="camera"><option value="">any</option></select></label>\
        <label data-facet="format">Format <select name="format"><option value="">any</option></select></label>\
        <label data-facet="rating">Rating <select name="rating"><option value="">any</option><option value="1">★ and up</option>\
        <option value="2">★★ and up</option><option value="3">★★★ and up</option><option value="4">★★★★ and up</option>\
        <option value="5">★★★★★</option></select></label></span><output></output></form>
        """

    static func pageFile(_ number: Int) -> String {
        number == 0 ? "index.html" : "page-\(number + 1).html"
    }

    /// A month's links to the months beside it: "‹ August 2023", "June 2023 ›".
    private static func neighbours(_ collection: Collection) -> String {
        guard !collection.neighbours.isEmpty else { return "" }
        let links = collection.neighbours.map { rel, name, href in
            let text = rel == "prev" ? "‹ \(HTML.escape(name))" : "\(HTML.escape(name)) ›"
            return "<a rel=\"\(rel)\" href=\"\(HTML.url(Array(href.utf8)))\">\(text)</a>"
        }
        return "<nav class=\"months\">\(links.joined())</nav>"
    }

    /// Albums › the albums above this one › (this one's title is the heading), and the timeline.
    private func crumbs(_ collection: Collection) -> String {
        let trail =
            ["<a href=\"\(Collection.prefix)index.html\">Albums</a>"]
            + collection.crumbs.map {
                "<a href=\"\(HTML.url(Array($0.href.utf8)))\">\(HTML.breakingAtSlashes($0.name))</a>"
            }
        return
            "<nav class=\"crumbs\"><span class=\"trail\">\(trail.joined(separator: "<span class=\"sep\">›</span>"))</span>"
            + "<a href=\"\(Collection.prefix)timeline.html\">Timeline</a></nav>"
    }

    /// The widest content: a 2,560-px window filled but for its margins, wider ones centre it.
    static let widestContent = 2528.0

    /// The layout's side inset at a window width: 8 on phones, 16, or what centres the widest content.
    static func side(width: Double) -> Double {
        max(width < 600 ? 8 : 16, (width - widestContent) / 2)
    }

    /// The engine's settings for a window width: count paging (a tiles page holds at most as
    /// many photos as any other page), and sizes that suit the width.
    ///
    /// Photos fill the window at any width (album.js lays them out at the window's): rows
    /// stay near their target height, masonry gains a column per 280 px; tiles, a social-post
    /// cell, at most 538 wide, aligned with the title; sections side by side in justified rows.
    func layoutConfig(width: Double) -> LayoutConfig {
        let narrow = width < 600, wide = width >= 1000
        var config = LayoutConfig()
        config.style = options.style
        config.pageWidth = width
        let side = Self.side(width: width)
        config.insets = .init(top: 8, left: side, bottom: 8, right: side)
        // Tiles, social-post cells side by side, start where the title does (no margin of their
        // own), each at most 538 px wide: the 512-pixel squares then cover its half-width cells
        // at a pixel ratio of 2.
        config.tilesColumns =
            options.style == .tiles ? max(1, Int(((width - 2 * side + 16) / (538 + 16)).rounded(.up))) : 1
        config.paging = .count
        config.pageCount =
            options.style == .tiles ? max(1, options.photosPerPage / config.tilesMaxShown) : options.photosPerPage
        config.groupBy = options.sections
        config.masonryFillColumns = true
        config.tilesSingleAspect = true
        config.tilesFitOrientation = true
        config.tilesMargin = 0
        config.pixelRounding = true
        config.outputScale = 2
        config.coalesce = true
        config.noEnlarge = true
        config.masonryNoEnlarge = true
        config.masonryColumns = narrow ? 2 : max(3, Int(((width - 2 * side) / 280 + 0.5).rounded(.down)))
        config.stripHeight = narrow ? 160 : wide ? 320 : 240
        // Grid squares near 112 or 176 px, sized so that whole columns span the width.
        let square = narrow ? 112.0 : 176, content = width - 2 * side, gap = config.gridMinimumColumnGap
        let columns = max(1, ((content - gap) / (square + gap) + 0.5).rounded(.down))
        config.gridItemWidth = max(1, ((content - gap * (columns + 1)) / columns).rounded(.down))
        config.gridItemHeight = config.gridItemWidth
        config.targetRowHeight = narrow ? 140 : 220
        return config
    }

    /// Frames that promise the whole photo get fit renditions; the others are cropped squares.
    private var fit: ImageSources.Fit {
        switch options.style {
        case .justified, .masonry, .strip: .whole
        case .grid, .tiles: .cover
        }
    }

    /// One laid-out page as an absolutely positioned block.
    private func render(_ page: LayoutPage, width: Double, byID: [String: PhotoRecord]) -> String {
        let config = layoutConfig(width: width)
        let (stripHeight, inset) = (config.stripHeight, config.insets.left)
        var out =
            "<div class=\"layout w\(Int(width))\" data-style=\"\(options.style)\" "
            + "style=\"width:\(HTML.px(config.pageWidth))px;height:\(HTML.px(page.height))px\">"
        // A strip section becomes a natively scrolling row of its photos, unzoomed, side by
        // side from the content's left edge, so it starts at its first photo and needs no script.
        var strip: (top: Double, cells: String, next: Double)?
        func closeStrip() {
            guard let row = strip else { return }
            out +=
                "<div class=\"strip\" style=\"position:absolute;left:0;top:\(HTML.px(row.top))px;width:100%;"
                + "height:\(HTML.px(stripHeight))px;scroll-padding:0 \(HTML.px(inset))px\">"
                + "<div class=\"cells\" style=\"width:\(HTML.px(row.next - config.stripSpacing + inset))px;height:\(HTML.px(stripHeight))px\">"
                + "\(row.cells)</div></div>"
            strip = nil
        }
        for item in page.items {
            if item.type == .header {
                closeStrip()
                // Photos nothing dates (scans, downloads) gather at the end, never in the current month.
                let title = item.sectionId == "undated" ? "Undated" : FriendlyDate.section(item.title ?? "")
                // (a label over a narrow photo ends in "…"; the whole of it is the header's title)
                out +=
                    "<div class=\"header\" style=\"\(Self.frame(item))\" title=\"\(HTML.escape(title))\">"
                    + "<span>\(HTML.escape(title))</span></div>"
                continue
            }
            guard let id = item.photoId, let photo = byID[id] else { continue }
            var frame = item
            if item.contentX != nil, let scale = item.scale, scale > 0 {
                let baseWidth = item.width / scale, baseHeight = item.height / scale
                if strip == nil { strip = (item.y - (stripHeight - item.height) / 2, "", inset) }
                frame.x = strip?.next ?? inset
                frame.y = (stripHeight - baseHeight) / 2
                frame.width = baseWidth
                frame.height = baseHeight
                strip?.next = frame.x + baseWidth + config.stripSpacing
                // A cell the engine capped at the viewport crops its photo: show it whole inside.
                if item.crop == true { frame = Self.contained(photo, in: frame) }
                let layoutFrame = frame
                frame = Self.unenlarged(photo, in: frame)
                strip?.cells += anchor(photo, frame: frame, layoutFrame: layoutFrame, overlay: nil)
                continue
            }
            // The "+N" tile leads to its section's page.
            let more = item.overlay != nil ? Self.sectionFile(item.sectionId) : nil
            if fit == .whole && item.crop == true {
                frame = Self.contained(photo, in: frame)
            }
            let layoutFrame = frame
            frame = Self.unenlarged(photo, in: frame)
            out += anchor(
                photo, frame: frame, layoutFrame: layoutFrame, overlay: item.overlay, more: more)
        }
        closeStrip()
        return out + "</div>"
    }

    /// A photo frame: around the photo's image, a link to what shows it whole without script
    /// (album.js opens the lightbox instead).
    ///
    /// `layoutFrame` is the frame the layout gave, before a small photo was shrunk inside it.
    /// `more`: the section page a "+N" tile leads to.
    private func anchor(
        _ photo: PhotoRecord, frame: LayoutItem, layoutFrame: LayoutItem, overlay: LayoutOverlay?,
        more: String? = nil
    ) -> String {
        let name = AlbumBuilder.name(photo)
        let sources = ImageSources(
            photo, width: frame.width, height: frame.height, fit: fit, placed: { media.rendition($0.path) })
        // No rendition in place (the cache lost them): the placeholder alone, not a request for "".
        let image =
            sources.fallback(width: frame.width).map {
                "src=\"\(Collection.prefix + HTML.url(Array($0.path.utf8)))\" "
                    + (sources.candidates.count > 1
                        ? "srcset=\"\(sources.srcset(prefix: Collection.prefix))\" sizes=\"\(HTML.px(frame.width))px\" "
                        : "")
            } ?? ""
        // The layout's own frame, where the photo was drawn smaller inside it.
        let layoutBox =
            layoutFrame == frame
            ? ""
            : "data-frame=\"\([layoutFrame.x, layoutFrame.y, layoutFrame.width, layoutFrame.height].map(HTML.px).joined(separator: " "))\" "
        return
            "<a class=\"photo\(more == nil ? "" : " more")\" href=\"\(more ?? plainLink(photo))\" data-id=\"\(photo.id)\" style=\"\(Self.frame(frame))\" "
            + layoutBox + Self.sizes(photo) + "><img \(image)\(Self.placeholder(photo))"
            + "width=\"\(Int(frame.width.rounded()))\" height=\"\(Int(frame.height.rounded()))\" "
            + "loading=\"lazy\" alt=\"\(HTML.escape(name))\">"
            + (Motion(photo).map {
                "<span class=\"badge\"\($0.badgeTitle.map { " title=\"\(HTML.escape($0))\"" } ?? "")>\(HTML.escape($0.badge))</span>"
            } ?? "")
            + (photo.stack.map {
                "<span class=\"badge stack\" title=\"\(HTML.escape(StackWording.title($0)))\">\(StackWording.badge($0))</span>"
            } ?? "")
            + (overlay.map { "<span class=\"more\">\(HTML.escape($0.text))</span>" } ?? "") + "</a>"
    }

    /// What a photo's tile links to for a browser without script: a video itself, else the
    /// largest rendition, else the original; the lightbox's address when none is in place.
    private func plainLink(_ photo: PhotoRecord) -> String {
        let video = Motion(photo).flatMap { $0.kind == .video ? media.video($0)?.path : nil }
        let largest = PhotoMedia.sources(photo, media: media).last?.path
        guard let path = video ?? largest else {
            return PhotoMedia.original(photo, media: media, folders: folders).map { Collection.prefix + $0 }
                ?? Self.fragment(photo)
        }
        return Collection.prefix + HTML.url(Array(path.utf8))
    }

    /// What opens the lightbox on a photo, after an album page's address.
    static func fragment(_ photo: PhotoRecord) -> String { "#photo-\(photo.id)" }

    /// The largest rectangle of the photo's aspect inside `frame`, centred.
    private static func contained(_ photo: PhotoRecord, in frame: LayoutItem) -> LayoutItem {
        let size = PhotoMedia.displaySize(photo)
        let aspect = Double(size.width) / Double(size.height)
        guard frame.width > 0, frame.height > 0 else { return frame }
        var inner = frame
        if aspect > frame.width / frame.height {
            inner.height = (frame.width / aspect).rounded()
            inner.y += ((frame.height - inner.height) / 2).rounded()
        } else {
            inner.width = (frame.height * aspect).rounded()
            inner.x += ((frame.width - inner.width) / 2).rounded()
        }
        return inner
    }

    /// The frame, shrunk about its centre so that the photo is never drawn larger than its own
    /// pixels, or its largest rendition's (a 75×100 scan in a 220 px row stays 75×100, not
    /// 165×220 and soft).
    static func unenlarged(_ photo: PhotoRecord, in frame: LayoutItem) -> LayoutItem {
        let size = PhotoMedia.drawableSize(photo)
        let scale = max(frame.width / Double(size.width), frame.height / Double(size.height))
        guard scale > 1 else { return frame }
        var inner = frame
        inner.width = min(Double(size.width), (frame.width / scale).rounded())
        inner.height = min(Double(size.height), (frame.height / scale).rounded())
        inner.x += ((frame.width - inner.width) / 2).rounded()
        inner.y += ((frame.height - inner.height) / 2).rounded()
        return inner
    }

    private static func frame(_ item: LayoutItem) -> String {
        "left:\(HTML.px(item.x))px;top:\(HTML.px(item.y))px;width:\(HTML.px(item.width))px;height:\(HTML.px(item.height))px"
    }

    /// What layout.js needs to lay the photo out again: its size as the engine sees it (`wh`,
    /// turned by its orientation; 1 × 1 when unknown) and, when that differs, the most it may be
    /// drawn at (`px`: as displayed, or its largest rendition's pixels when fewer).
    static func sizes(_ photo: PhotoRecord) -> String {
        // (as `LayoutPhoto(photo)` gives it to the engine)
        let turned = [5, 6, 7, 8].contains(photo.orientation ?? 1)
        let (width, height) = turned ? (photo.height, photo.width) : (photo.width, photo.height)
        let layout = if let width, let height, width > 0, height > 0 { (width, height) } else { (1, 1) }
        let shown = PhotoMedia.drawableSize(photo)
        return "data-wh=\"\(layout.0) \(layout.1)\""
            + (shown == layout ? "" : " data-px=\"\(shown.width) \(shown.height)\"")
    }

    /// The photo's ThumbHash, which album.js paints behind its image until the image loads.
    static func placeholder(_ photo: PhotoRecord) -> String {
        photo.thumbhash.map { "data-th=\"\(Data($0).base64EncodedString())\" " } ?? ""
    }

    /// Previous and next, the first and last pages, and the pages near the current one.
    private func pager(current: Int, count: Int) -> String {
        guard count > 1 else { return "" }
        var parts: [String] = []
        parts.append(
            current > 0
                ? "<a rel=\"prev\" href=\"\(Self.pageFile(current - 1))\">← Previous</a>"
                : "<span class=\"disabled\">← Previous</span>")
        var last = -1
        for number in 0..<count where number == 0 || number == count - 1 || abs(number - current) <= 3 {
            if number > last + 1 { parts.append("<span>…</span>") }
            parts.append(
                number == current
                    ? "<span class=\"current\" aria-current=\"page\">\(number + 1)</span>"
                    : "<a href=\"\(Self.pageFile(number))\">\(number + 1)</a>")
            last = number
        }
        parts.append(
            current < count - 1
                ? "<a rel=\"next\" href=\"\(Self.pageFile(current + 1))\">Next →</a>"
                : "<span class=\"disabled\">Next →</span>")
        return "<nav class=\"pager\">\(parts.joined(separator: " "))</nav>"
    }
}
