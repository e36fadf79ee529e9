/// The album folder's shared files under `assets/`: the style sheet, the script and the icon,
/// kept as files in `Resources/` and built into the program, and the widths of the text that
/// goes with the photos.
enum Assets {
    static func files(staticWidth: Double) -> [(name: String, text: String)] {
        [
            ("album.css", String(decoding: PackageResources.album_css, as: UTF8.self) + contentWidths(staticWidth)),
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

    /// The titles', album cards', Find's and the stacks list's width: the photos' content width.
    ///
    /// So they start where the photos do. With script album.js sets it (`--content`) from the window's width,
    /// which it lays the photos out at; without, the static layout's.
    static func contentWidths(_ staticWidth: Double) -> String {
        let text = ["header", ".albums", ".year", ".children", ".stacks"]
        let phone = 2 * CollectionPages.side(width: 320)
        let content = staticWidth - 2 * CollectionPages.side(width: staticWidth)
        return """
            \(text.joined(separator: ",")){width:min(\(HTML.px(content))px,100% - \(HTML.px(phone))px)}
            \(text.map { ".js " + $0 }.joined(separator: ",")){width:var(--content,calc(100% - \(HTML.px(phone))px))}

            """
    }
}
