/// The album folder's shared files under `assets/`: the style sheet, the script and the icon,
/// kept as files in `Resources/` and built into the program, and the content width of each
/// breakpoint the pages are laid out at.
enum Assets {
    static func files(widths: [Double]) -> [(name: String, text: String)] {
        [
            ("album.css", String(decoding: PackageResources.album_css, as: UTF8.self) + breakpoints(widths)),
            // The layout at the window's width and the lightbox, in one file a page loads.
            (
                "album.js",
                String(decoding: PackageResources.layout_js, as: UTF8.self)
                    + String(decoding: PackageResources.album_js, as: UTF8.self)
            ),
            // (a browser asks every site for one: without it, a missing file on every page)
            ("icon.svg", String(decoding: PackageResources.icon_svg, as: UTF8.self)),
        ]
    }

    /// The content width of each breakpoint, from its width up: album.js lays a page's photos
    /// out at the breakpoint the window reaches, centred at that width, so the titles, album
    /// cards and Find results start where its photos do; without script, all stay at the
    /// narrowest.
    static func breakpoints(_ widths: [Double]) -> String {
        let sorted = widths.sorted()
        guard let narrowest = sorted.first else { return "" }
        let text = ["header", ".albums", ".year", ".children"]
        func content(_ width: Double) -> String { HTML.px(width - 2 * CollectionPages.side(width: width)) }
        var rules =
            "\(text.joined(separator: ",")){width:min(\(content(narrowest))px,100% - \(HTML.px(2 * CollectionPages.side(width: narrowest)))px)}\n"
        // (without script the pages keep the narrowest layout, and everything its width)
        let scripted = text.map { ".js " + $0 }.joined(separator: ",")
        for width in sorted.dropFirst() {
            rules += "@media (min-width:\(Int(width))px){\(scripted){width:\(content(width))px}}\n"
        }
        return rules
    }
}
