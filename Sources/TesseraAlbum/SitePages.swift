import Foundation
import TesseraIndex

/// The site's own pages: the album list (`index.html`), the timeline (`timeline.html`), and
/// the cover cards they are made of.
enum SitePages {
    private static let crumbs =
        "<nav class=\"crumbs\"><a href=\"index.html\">Albums</a><a href=\"timeline.html\">Timeline</a></nav>"

    static func albumList(cards: [String], summary: String) -> String {
        HTML.document(
            title: "Albums",
            body: """
                <header>\(crumbs)<h1>Albums</h1><p>\(HTML.escape(summary))</p></header>
                <main class="albums">
                \(cards.joined(separator: "\n"))
                </main>
                """, depth: "")
    }

    /// The timeline: the months by year.
    ///
    /// Its Find reads `find.js` first, then only the months' `photos.js` that can hold what is
    /// asked; a found photo opens in its album's viewer.
    static func timeline(years: [(year: String, cards: [String])], summary: String) -> String {
        let sections = years.map { year, cards in
            "<section class=\"year\"><h2>\(HTML.escape(year))</h2><div class=\"albums\">\(cards.joined(separator: "\n"))</div></section>"
        }
        return HTML.document(
            title: "Timeline",
            body: """
                <header>\(crumbs)<h1>Timeline</h1><p>\(HTML.escape(summary)) by the month they were taken</p>\(CollectionPages.findForm)</header>
                <main>
                \(sections.joined(separator: "\n"))
                </main>
                """,
            bodyAttributes: " data-find=\"find.js\" data-lightbox=\"off\"",
            depth: "")
    }

    /// `find.js`: each month's `photos.js`, newest first, with how many of its photos each
    /// value of each filter matches (docs/ALBUM.md, "Find").
    static func findIndex(_ months: [(file: String, find: MonthFind)], photos: Int) throws(AlbumError) -> String {
        struct Month: Encodable {
            var file: String
            var find: MonthFind
        }
        struct Index: Encodable {
            var photos: Int
            var months: [Month]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(Index(photos: photos, months: months.map(Month.init))) else {
            throw AlbumError(.output, "cannot encode the timeline's find index")
        }
        return "window.tesseraFind = \(String(decoding: json, as: UTF8.self));\n"
    }

    /// The cover card of `cover`: its square renditions (or fits) for a 160 px card.
    static func card(cover: PhotoRecord?, count: String, media: MediaFolder) -> Card {
        let sources = cover.map {
            ImageSources($0, width: 160, height: 160, fit: .cover, placed: { media.rendition($0.path) })
        }
        return Card(cover: sources?.candidates ?? [], count: count)
    }

    /// A link with a square cover image, for the album list, the timeline and an album's albums.
    /// - Parameter prefix: from the page's folder to the output's (`../../` from an album's).
    static func card(_ card: Card, href: String, name: String, meta: String, prefix: String = "") -> String {
        let sources = ImageSources(candidates: card.cover)
        let image =
            sources.fallback(width: 320).map {
                "<img src=\"\(prefix + HTML.url(Array($0.path.utf8)))\" srcset=\"\(sources.srcset(prefix: prefix))\" "
                    + "sizes=\"(min-width: 400px) 200px, 45vw\" width=\"160\" height=\"160\" loading=\"lazy\" alt=\"\">"
            } ?? "<img alt=\"\" width=\"160\" height=\"160\">"
        return
            "<a href=\"\(prefix + HTML.url(Array(href.utf8)))\">\(image)<div class=\"name\">\(HTML.breakingAtSlashes(name))</div>"
            + "<div class=\"meta\">\(HTML.escape(meta))</div></a>"
    }
}
