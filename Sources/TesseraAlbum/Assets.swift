/// The album folder's shared files under `assets/`: the style sheet, the script and the icon,
/// kept as files in `Resources/` and built into the program, and the widths of the text that
/// goes with the photos.
enum Assets {
    static func files(staticWidth: Double) -> [(name: String, text: String)] {
        [
            ("album.css", String(decoding: PackageResources.album_css, as: UTF8.self) + contentWidths(staticWidth)),
            // The layout at the window's width and the lightbox, in one file a page loads.
            ("album.js", script),
            // What opens a private album's page (docs/PRIVATE.md).
            ("private.js", String(decoding: PackageResources.private_js, as: UTF8.self)),
            // (a browser asks every site for one: without it, a missing file on every page)
            ("icon.svg", String(decoding: PackageResources.icon_svg, as: UTF8.self)),
        ]
    }

    /// The layout engine's files, in the order they are joined (`Resources/script/layout-*.js`).
    static let layoutScript = [
        PackageResources.layout_styles_js, PackageResources.layout_tiles_js, PackageResources.layout_page_js,
    ]
    /// The page's files, in the order they run once the page is read.
    static let pageScript = [
        PackageResources.page_js, PackageResources.placeholders_js, PackageResources.library_js,
        PackageResources.elements_js, PackageResources.viewer_js, PackageResources.viewer_controls_js,
        PackageResources.find_js, PackageResources.timeline_js, PackageResources.album_map_js,
        PackageResources.main_js,
    ]

    /// The site's one script, joined from its files (a page opened from disk cannot load ES modules).
    ///
    /// The layout engine is in a scope of its own, which sets `window.tesseraLayout`; then the
    /// page's files, in one scope that runs once the page is read. Each file declares what it
    /// takes from the others (`/* global */`), checked by scripts/check-site-script.sh.
    static let script = {
        func joined(_ files: [[UInt8]]) -> String {
            files.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        }
        return """
            // Joined from Sources/TesseraAlbum/Resources/script/ (Assets.swift).
            (() => {
            'use strict';
            \(joined(layoutScript))
            })();
            // Set as the page starts: its photos show once laid out for the window (album.css).
            document.documentElement.classList.add('js');
            // (a private album's page starts once private.js has put its decrypted page in place)
            ((start) => {
              const sealed = /** @type {any} */ (window).tesseraSealedPage;
              if (sealed) sealed.ready.then(start); else document.addEventListener('DOMContentLoaded', start);
            })(() => {
            'use strict';
            \(joined(pageScript))
            });

            """
    }()

    /// The titles', album cards', Find's and the stacks list's width: the photos' content width.
    ///
    /// So they start where the photos do. With script album.js sets it (`--content`) from the window's width,
    /// which it lays the photos out at; without, the static layout's.
    static func contentWidths(_ staticWidth: Double) -> String {
        let text = ["header", ".albums", ".year", ".children", ".stacks", ".album-map"]
        let phone = 2 * CollectionPages.side(width: 320)
        let content = staticWidth - 2 * CollectionPages.side(width: staticWidth)
        return """
            \(text.joined(separator: ",")){width:min(\(HTML.px(content))px,100% - \(HTML.px(phone))px)}
            \(text.map { ".js " + $0 }.joined(separator: ",")){width:var(--content,calc(100% - \(HTML.px(phone))px))}

            """
    }
}
