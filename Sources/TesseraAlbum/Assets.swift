/// The album folder's shared files under `assets/`: the style sheet and the script, kept as
/// files in `Resources/` and built into the program, and the rules that pick a page's layout
/// for the window's width, made from the widths the pages are laid out at.
enum Assets {
    static func files(widths: [Double]) -> [(name: String, text: String)] {
        [
            ("album.css", String(decoding: PackageResources.album_css, as: UTF8.self) + breakpoints(widths)),
            // The lightbox. Without it every photo link opens the photo's own viewer page; with
            // it the same links open in place, so the album keeps its scroll position.
            ("album.js", String(decoding: PackageResources.album_js, as: UTF8.self)),
        ]
    }

    /// Each page holds one layout per width (`.w375`, `.w768`, …): the narrowest shows by
    /// default, and each wider one replaces the one before from its own width up.
    ///
    /// A layout is
    /// centred at its own width, so the titles, album cards and Find results take its content
    /// width too, and start where its photos do.
    static func breakpoints(_ widths: [Double]) -> String {
        let sorted = widths.sorted()
        guard let narrowest = sorted.first else { return "" }
        let text = "header,.albums,.year,.children,section.found"
        func content(_ width: Double) -> String { HTML.px(width - 2 * CollectionPages.side(width: width)) }
        var rules =
            ".w\(Int(narrowest)){display:block}\n"
            + "\(text){width:min(\(content(narrowest))px,100% - \(HTML.px(2 * CollectionPages.side(width: narrowest)))px)}\n"
        for (previous, width) in zip(sorted, sorted.dropFirst()) {
            rules +=
                "@media (min-width:\(Int(width))px){.w\(Int(previous)){display:none}.w\(Int(width)){display:block}"
                + "\(text){width:\(content(width))px}}\n"
        }
        return rules
    }
}
