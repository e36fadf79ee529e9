import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraLayout

/// What surrounds a collection's photos on its pages: Find, the crumbs, the links to the months
/// beside it and between its pages.
extension CollectionPages {
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
        placeholder="Camera, lens, title, keyword, person, file name" aria-label="Find">\
        <datalist id="find-words"></datalist>\
        <button class="filters" type="button" aria-expanded="false">Filters</button><span class="facets" hidden>\
        <label data-facet="day">From <input type="date" name="from"></label>\
        <label data-facet="day">To <input type="date" name="to"></label>\
        <label data-facet="camera">Camera <select name="camera"><option value="">any</option></select></label>\
        <label data-facet="format">Format <select name="format"><option value="">any</option></select></label>\
        <label data-facet="person">Person <select name="person"><option value="">anyone</option></select></label>\
        <label data-facet="rating">Rating <select name="rating"><option value="">any</option>\
        <option value="1">★ and up</option>\
        <option value="2">★★ and up</option><option value="3">★★★ and up</option><option value="4">★★★★ and up</option>\
        <option value="5">★★★★★</option></select></label></span><output></output></form>
        """

    static func pageFile(_ number: Int) -> String {
        number == 0 ? "index.html" : "page-\(number + 1).html"
    }

    /// A month's links to the months beside it: "‹ August 2023", "June 2023 ›".
    static func neighbours(_ collection: Collection) -> String {
        guard !collection.neighbours.isEmpty else { return "" }
        let links = collection.neighbours.map { rel, name, href in
            let text = rel == "prev" ? "‹ \(HTML.escape(name))" : "\(HTML.escape(name)) ›"
            return "<a rel=\"\(rel)\" href=\"\(HTML.url(Array(href.utf8)))\">\(text)</a>"
        }
        return "<nav class=\"months\">\(links.joined())</nav>"
    }

    /// Albums › the albums above this one › (this one's title is the heading), and the timeline.
    func crumbs(_ collection: Collection) -> String {
        let trail =
            ["<a href=\"\(Collection.prefix)\(collection.root.href)\">\(collection.root.name)</a>"]
            + collection.crumbs.map {
                "<a href=\"\(HTML.url(Array($0.href.utf8)))\">\(HTML.breakingAtSlashes($0.name))</a>"
            }
        return
            "<nav class=\"crumbs\"><span class=\"trail\">"
            + trail.joined(separator: "<span class=\"sep\">›</span>") + "</span>"
            + "<a href=\"\(Collection.prefix)timeline.html\">Timeline</a>"
            + (collection.root.href == "places.html" ? "" : "<a href=\"\(Collection.prefix)places.html\">Places</a>")
            + (collection.root.href == "people.html" ? "" : "<a href=\"\(Collection.prefix)people.html\">People</a>")
            + "<a href=\"\(Collection.prefix)map.html\">Map</a></nav>"
    }

    /// The albums inside the collection on its page `page`, `perPage` a page.
    static func childAlbums(_ collection: Collection, page: Int, perPage: Int) -> String {
        let start = page * perPage
        guard start < collection.children.count else { return "" }
        let shown = collection.children[start..<min(collection.children.count, start + perPage)]
        return "<section class=\"children\"><h2>Albums</h2><div class=\"albums\">"
            + shown.joined(separator: "\n") + "</div></section>"
    }

    /// Previous and next, the first and last pages, and the pages near the current one; `file`
    /// names a page by its number.
    static func pager(current: Int, count: Int, file: (Int) -> String = CollectionPages.pageFile) -> String {
        guard count > 1 else { return "" }
        var parts: [String] = []
        parts.append(
            current > 0
                ? "<a rel=\"prev\" href=\"\(file(current - 1))\">← Previous</a>"
                : "<span class=\"disabled\">← Previous</span>")
        var last = -1
        for number in 0..<count where number == 0 || number == count - 1 || abs(number - current) <= 3 {
            if number > last + 1 { parts.append("<span>…</span>") }
            parts.append(
                number == current
                    ? "<span class=\"current\" aria-current=\"page\">\(number + 1)</span>"
                    : "<a href=\"\(file(number))\">\(number + 1)</a>")
            last = number
        }
        parts.append(
            current < count - 1
                ? "<a rel=\"next\" href=\"\(file(current + 1))\">Next →</a>"
                : "<span class=\"disabled\">Next →</span>")
        return "<nav class=\"pager\">\(parts.joined(separator: " "))</nav>"
    }
}
