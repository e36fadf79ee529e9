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

    static func timeline(years: [(year: String, cards: [String])], summary: String) -> String {
        let sections = years.map { year, cards in
            "<section class=\"year\"><h2>\(HTML.escape(year))</h2><div class=\"albums\">\(cards.joined(separator: "\n"))</div></section>"
        }
        // Find looks through every photo (timeline.js); found photos open their viewer pages.
        return HTML.document(
            title: "Timeline",
            body: """
                <header>\(crumbs)<h1>Timeline</h1><p>\(HTML.escape(summary)) by the month they were taken</p>\(CollectionPages.findForm)</header>
                <main>
                \(sections.joined(separator: "\n"))
                </main>
                """, bodyAttributes: " data-photos=\"timeline.js\" data-lightbox=\"off\"", depth: "")
    }

    /// A link with a square cover image, for the album list and the timeline.
    /// - Parameter prefix: from the page's folder to the output's (`../../` from an album's).
    static func card(
        href: String, cover: PhotoRecord?, media: MediaFolder, name: String, meta: String, prefix: String = ""
    ) -> String {
        let sources = cover.map {
            ImageSources($0, width: 160, height: 160, fit: .cover, placed: { media.rendition($0.path) })
        }
        let image =
            sources.flatMap { sources in
                sources.fallback(width: 320).map {
                    "<img src=\"\(prefix + HTML.url(Array($0.path.utf8)))\" srcset=\"\(sources.srcset(prefix: prefix))\" "
                        + "sizes=\"(min-width: 400px) 200px, 45vw\" width=\"160\" height=\"160\" loading=\"lazy\" alt=\"\">"
                }
            } ?? "<img alt=\"\" width=\"160\" height=\"160\">"
        return
            "<a href=\"\(prefix + HTML.url(Array(href.utf8)))\">\(image)<div class=\"name\">\(HTML.breakingAtSlashes(name))</div>"
            + "<div class=\"meta\">\(HTML.escape(meta))</div></a>"
    }
}
