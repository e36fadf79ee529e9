import Foundation
import TesseraIndex

/// The site's own pages: the album list (`index.html`), the timeline (`timeline.html`), and
/// the cover cards they are made of.
enum SitePages {
    static let crumbs =
        "<nav class=\"crumbs\"><a href=\"index.html\">Albums</a><a href=\"timeline.html\">Timeline</a>"
        + "<a href=\"places.html\">Places</a><a href=\"people.html\">People</a><a href=\"map.html\">Map</a></nav>"

    /// The album list's pages, `perPage` cards each (`albumListFile` names them).
    static func albumList(cards: [String], summary: String, perPage: Int) -> [String] {
        let count = max(1, (cards.count + perPage - 1) / perPage)
        return (0..<count).map { number in
            let shown = cards.dropFirst(number * perPage).prefix(perPage)
            return HTML.document(
                title: "Albums",
                body: """
                    <header>\(crumbs)<h1>Albums</h1><p>\(HTML.escape(summary))</p></header>
                    <main class="albums">
                    \(shown.joined(separator: "\n"))
                    </main>
                    \(CollectionPages.pager(current: number, count: count, file: albumListFile))
                    """, depth: "")
        }
    }

    /// The album list's page `number` (`index.html`, then `albums-2.html` and on).
    static func albumListFile(_ number: Int) -> String {
        number == 0 ? "index.html" : "albums-\(number + 1).html"
    }

    /// The timeline: every photo, newest first, the undated last.
    ///
    /// Without script, the months' cards by year, each leading to its month's pages. With
    /// script (album.js), one stream of justified rows, days side by side, each month read from
    /// its `photos.js` as it nears the window and let go far from it, and a scrubber by year.
    /// Its Find reads `find.js` first, then only the months' `photos.js` that can hold what is
    /// asked; a photo opens in its album's viewer.
    /// - Parameter newest: the newest month's `photos.js`, which the stream shows first.
    static func timeline(years: [(year: String, cards: [String])], summary: String, newest: String?) -> String {
        let sections = years.map { year, cards in
            "<section class=\"year\"><h2>\(HTML.escape(year))</h2>"
                + "<div class=\"albums\">\(cards.joined(separator: "\n"))</div></section>"
        }
        return HTML.document(
            title: "Timeline",
            body: """
                <header>\(crumbs)<h1>Timeline</h1><p>\(HTML.escape(summary)), newest first</p>\
                \(CollectionPages.findForm)</header>
                <main>
                \(sections.joined(separator: "\n"))
                </main>
                """,
            bodyAttributes: " data-find=\"find.js\" data-stream=\"find.js\"",
            depth: "",
            // (fetched while the page is read, not one after the other once the script asks)
            head: "\n<link rel=\"preload\" href=\"find.js\" as=\"script\">"
                + (newest.map { "\n<link rel=\"preload\" href=\"\(HTML.url(Array($0.utf8)))\" as=\"script\">" } ?? ""))
    }

    /// `find.js`: each month's `photos.js`, newest first, with how many of its photos each
    /// value of each filter matches (docs/ALBUM.md, "Find").
    static func findIndex(
        _ months: [(file: String, month: String, title: String, find: MonthFind)], photos: Int
    ) throws(AlbumError) -> String {
        struct Month: Encodable {
            var file: String
            /// `YYYY-MM`, "" for the photos without a date.
            var month: String
            var title: String
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

    /// The card of a folder of albums: the covers of the first of `cards` (newest first), two
    /// side by side or four in a square.
    static func mosaic(_ cards: [Card], count: String) -> Card {
        let covers = cards.map { $0.mosaic?.first ?? $0.cover }.filter { !$0.isEmpty }
        let shown = covers.count >= 4 ? 4 : covers.count >= 2 ? 2 : 0
        return Card(cover: covers.first ?? [], mosaic: shown > 0 ? Array(covers.prefix(shown)) : nil, count: count)
    }

    /// A link with a square cover image, for the album list, the timeline and an album's albums.
    /// - Parameter prefix: from the page's folder to the output's (`../../` from an album's).
    static func card(_ card: Card, href: String, name: String, meta: String, prefix: String = "") -> String {
        let image: String
        if let mosaic = card.mosaic, mosaic.count > 1 {
            // Each cover a quarter of the card, or half of it (as tall, half as wide).
            let (width, height) = mosaic.count >= 4 ? (80, 80) : (80, 160)
            image =
                "<div class=\"mosaic n\(mosaic.count)\">"
                + mosaic.map { cover(ImageSources(candidates: $0), width: width, height: height, prefix: prefix) }
                .joined() + "</div>"
        } else {
            image = cover(ImageSources(candidates: card.cover), width: 160, height: 160, prefix: prefix)
        }
        return
            "<a href=\"\(prefix + HTML.url(Array(href.utf8)))\" title=\"\(HTML.escape(name))\">\(image)"
            + "<div class=\"name\">\(HTML.breakingAtSlashes(name))</div>"
            + "<div class=\"meta\">\(Self.unbrokenDates(HTML.escape(meta)))</div></a>"
    }

    /// The text with each date ("2023-05-01") kept on one line.
    private static func unbrokenDates(_ text: String) -> String {
        text.replacing(#/\d{4}-\d{2}-\d{2}/#) { "<span class=\"d\">\($0.output)</span>" }
    }

    /// A cover image `width` × `height` CSS px of a card 160 px square (shown up to 200 px).
    private static func cover(_ sources: ImageSources, width: Int, height: Int, prefix: String) -> String {
        // Square renditions: a cover as tall as the card needs them as wide as it is tall.
        let (size, side) = ("width=\"\(width)\" height=\"\(height)\"", max(width, height))
        return sources.fallback(width: Double(2 * side)).map {
            "<img src=\"\(prefix + HTML.url(Array($0.path.utf8)))\" srcset=\"\(sources.srcset(prefix: prefix))\" "
                + "sizes=\"(min-width: 400px) \(side * 5 / 4)px, \(side * 45 / 160)vw\" \(size) "
                + "loading=\"lazy\" alt=\"\">"
        } ?? "<img alt=\"\" \(size)>"
    }
}
