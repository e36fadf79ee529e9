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
        let mapped = MapPages.hasLeaflet && collection.photos.contains(where: \.hasPosition)
        collection.photos = []
        // Its albums' cards are paged as its photos are: each page shows its share of both.
        let count = max(1, pages.count, (collection.children.count + options.photosPerPage - 1) / options.photosPerPage)
        var written = Written(pages: count)
        let data = try output.file(directory + "/photos.js")
        var lightbox = LightboxData(
            media: media, folders: folders, base: Collection.prefix, zones: options.privateZones)
        try data.append(lightbox.start)
        // Tiles show six photos a section: each larger section gets a page of all its photos.
        var sections: [(id: String, title: String, page: Int, photos: [Int])] = []
        var seen: Set<Int64> = []
        // A folder of albums has no photos: one page, of its albums.
        for number in 0..<count {
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
            var records = try self.records(positions, ids: ids)
            let members = try stackMembers(of: Array(records.values))
            // (a stack counts the members it shows: none gone, none in a private album)
            for (key, record) in records {
                guard let stack = record.stack else { continue }
                let shown = stack.memberIDs.filter { members[$0] != nil }
                records[key]?.stack?.memberIDs = shown
                if shown.isEmpty { records[key]?.stack = nil }
            }
            let body = """
                <header>\(crumbs(collection))<h1>\(HTML.breakingAtSlashes(collection.title))</h1>\
                <p>\(HTML.escape(collection.subtitle))</p>\(Self.neighbours(collection))\
                \(ids.count < 2 ? "" : Self.findForm)</header>
                \(Self.childAlbums(collection, page: number, perPage: options.photosPerPage))
                <main>
                \(ids.isEmpty ? "" : render(page, width: width, byID: records))
                </main>
                \(mapped && number == 0 ? Self.map(tiles: options.basemap != nil) : "")\
                \(stackLinks(positions.compactMap { records[Self.layoutID($0)] }, members: members))
                \(Self.pager(current: number, count: count))
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

    /// Where album.js draws the collection's own map, from its photos' positions in `photos.js`,
    /// once it is scrolled to (docs/PLACES.md): Leaflet and the map's script from the site's assets.
    private static func map(tiles: Bool) -> String {
        "<section class=\"album-map\"><h2>Map</h2><div id=\"map\" data-base=\"\(Collection.prefix)\""
            + "\(tiles ? " data-tiles" : "")></div></section>"
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

    /// The records of `ids` as the site shows them: with no names where it shows no people.
    private func shown(_ ids: [Int64]) throws(AlbumError) -> [PhotoRecord] {
        do {
            let records = try index.photos(ids: ids)
            return options.people == .none
                ? records.map {
                    var record = $0; record.people = []; return record
                } : records
        } catch {
            throw AlbumError(.index, "\(error)")
        }
    }

    /// The records of the other members of the stacks `faces` stand for, by id: those present.
    private func stackMembers(of faces: [PhotoRecord]) throws(AlbumError) -> [Int64: PhotoRecord] {
        let ids = faces.flatMap { $0.stack?.memberIDs ?? [] }
        guard !ids.isEmpty else { return [:] }
        let records = try shown(ids).filter {
            ($0.status == .ok || $0.status == .warning) && !options.withheldAlbumIDs.contains($0.albumID)
                && options.onlyAlbumIDs?.contains($0.albumID) ?? true
        }
        try folders.load(records.map(\.albumID))
        return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The records of the photos at `positions` of a collection (of the photos `ids`), by their ids in its layout.
    private func records(_ positions: [Int], ids: [Int64]) throws(AlbumError) -> [String: PhotoRecord] {
        let records = try shown(positions.map { ids[$0] })
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

    /// One section's pages (what a tile's "+N" leads to): its photos in one layout, paged as an
    /// album is, under the album's title and the section's, with a way back to the album page
    /// holding the tile.
    func writeSection(
        _ photos: [PhotoOutline], collection: Collection, title: String, file: String, back: String
    ) throws(AlbumError) {
        let (width, pages) = try layout(photos)
        let ids = photos.map(\.id)
        let name = { (number: Int) in Self.sectionPageFile(file, number) }
        for number in 0..<max(1, pages.count) {
            var page = ""
            if number < pages.count {
                let laid = pages.page(number)
                let positions = laid.items.compactMap { $0.photoId.flatMap { Int($0) } }.filter(ids.indices.contains)
                page = render(laid, width: width, byID: try records(positions, ids: ids))
            }
            let body = """
                <header>\(crumbs(collection))<h1>\(HTML.breakingAtSlashes(collection.title))</h1>\
                <p>\(HTML.escape(title.isEmpty ? "" : title + " · "))\(AlbumBuilder.count(photos)) · \
                <a rel="up" href="\(back)">back to the album</a></p></header>
                <main>
                \(page)
                </main>
                \(Self.pager(current: number, count: pages.count) { (name($0) as NSString).lastPathComponent })
                """
            try output.write(
                HTML.document(
                    title: "\(collection.title) · \(title)", body: body,
                    bodyAttributes: " data-photos=\"photos.js\""),
                to: name(number))
        }
    }

    /// The `number`th page of the section whose first page is `file`.
    static func sectionPageFile(_ file: String, _ number: Int) -> String {
        number == 0 ? file : String(file.dropLast(".html".count)) + "-page-\(number + 1).html"
    }

    /// The page of a section's photos, named by its id ("2024-05-03", "undated").
    static func sectionFile(_ id: String) -> String {
        "section-"
            + String(
                id.unicodeScalars.map {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "-"
                }) + ".html"
    }
}
