import Foundation
import SystemPackage
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// One plain page per photo (`view/<id>.html` in its folder album): the large fit rendition,
/// previous and next, the original, and what the index knows.
///
/// They work without script; the
/// album script adds the arrow keys and Esc.
struct ViewerPages {
    let media: MediaFolder
    let output: OutputFolder
    let albumFolders: [Int64: String]

    /// From `albums/<name>/view/` to the output folder.
    static let prefix = "../../../"

    func write(
        _ photos: [PhotoRecord], title: String, pageOf: (PhotoRecord) -> String, into directory: String
    ) throws(AlbumError) {
        let folder = directory + "/view"
        for (index, photo) in photos.enumerated() {
            let name = AlbumBuilder.name(photo)
            let size = Self.displaySize(photo)
            let candidates = Self.sources(photo, media: media)
            let srcset = candidates.map { "\(Self.prefix)\(HTML.url(Array($0.path.utf8))) \($0.width)w" }.joined(
                separator: ", ")
            let image =
                candidates.last.map { "src=\"\(Self.prefix + HTML.url(Array($0.path.utf8)))\" srcset=\"\(srcset)\" " }
                ?? ""
            let aspect = Double(size.width) / Double(max(1, size.height))
            func step(_ offset: Int, _ rel: String, _ label: String) -> String {
                let neighbour = index + offset
                guard photos.indices.contains(neighbour) else { return "<span class=\"disabled\">\(label)</span>" }
                return "<a rel=\"\(rel)\" href=\"\(photos[neighbour].id).html\">\(label)</a>"
            }
            var steps = [step(-1, "prev", "← Previous"), step(1, "next", "Next →")]
            if let original = Self.original(photo, media: media, albumFolders: albumFolders) {
                steps.append(
                    "<a href=\"\(Self.prefix)\(original)\" download=\"\(HTML.escape(name))\">Download original</a>")
            }
            let facts = PhotoFact.facts(of: photo).map { fact in
                let value =
                    fact.link.map { "<a href=\"\(HTML.escape($0))\" rel=\"noopener\">\(HTML.escape(fact.value))</a>" }
                    ?? HTML.escape(fact.value)
                return "<dt>\(HTML.escape(fact.label))</dt><dd\(fact.guess ? " class=\"guess\"" : "")>\(value)</dd>"
            }
            // What the CSS allows it: the width beside the details (below 768 px, the whole width),
            // the height of the screen, and never more than its own pixels.
            let sizes =
                "(min-width: 768px) min(100vw - 336px, \(Wording.number(aspect, decimals: 4)) * (100vh - 72px), \(size.width)px), "
                + "min(100vw - 16px, \(Wording.number(85 * aspect, decimals: 2))vh, \(size.width)px)"
            let picture =
                "<img \(image)\(CollectionPages.placeholder(photo))sizes=\"\(sizes)\" "
                + "width=\"\(size.width)\" height=\"\(size.height)\" alt=\"\(HTML.escape(name))\">"
            var figure = "<figure>\(picture)</figure>"
            if let motion = Motion(photo), let video = media.video(motion.source) {
                let url = Self.prefix + HTML.url(Array(video.utf8))
                let poster = candidates.last.map { " poster=\"\(Self.prefix + HTML.url(Array($0.path.utf8)))\"" } ?? ""
                switch (motion.kind, motion.playable) {
                case (.video, true):
                    figure =
                        "<figure><video controls preload=\"metadata\" playsinline\(poster) src=\"\(url)\" "
                        + "width=\"\(size.width)\" height=\"\(size.height)\"></video></figure>"
                case (.live, true):
                    // Shown and played while pressed or hovered (album.js); a link without script.
                    figure =
                        "<figure class=\"live\">\(picture)<video muted loop playsinline preload=\"none\" src=\"\(url)\" "
                        + "width=\"\(size.width)\" height=\"\(size.height)\"></video></figure>"
                    steps.append("<a href=\"\(url)\">Motion</a>")
                case (_, false):
                    // A codec browsers do not play (HEVC, MPEG-4 part 2, MJPEG): the file, to open elsewhere.
                    steps.append(
                        "<a href=\"\(url)\" download>\(motion.kind == .video ? "Video" : "Motion") (\(HTML.escape(motion.codec?.uppercased() ?? "video")))</a>"
                    )
                }
            }
            let body = """
                <header><nav class="crumbs"><a rel="up" href="../\(pageOf(photo))">← \(HTML.escape(title))</a>\
                <span>\(index + 1) / \(photos.count)</span></nav></header>
                \(figure)
                <div class="side"><nav class="steps">\(steps.joined(separator: " "))</nav>
                <aside class="facts"><h2>\(HTML.escape(name))</h2><dl>\(facts.joined())</dl></aside></div>
                """
            try output.write(
                HTML.document(title: name, body: body, bodyAttributes: " class=\"viewer-page\"", depth: Self.prefix),
                to: folder + "/\(photo.id).html")
        }
    }

    /// The photo's fit renditions (its squares when it has none), smallest first, as placed in
    /// the output: what a viewer shows.
    static func sources(_ photo: PhotoRecord, media: MediaFolder) -> [(path: String, width: Int)] {
        let fits = photo.renditions.filter { $0.spec.kind == .fit }
        return (fits.isEmpty ? photo.renditions : fits).sorted { $0.width < $1.width }
            .compactMap { entry in media.rendition(entry.path).map { ($0, entry.width) } }
    }

    /// The original, placed in the output as the options say; relative to the output.
    static func original(_ photo: PhotoRecord, media: MediaFolder, albumFolders: [Int64: String]) -> String? {
        guard let folder = albumFolders[photo.albumID] else { return nil }
        return media.original(photo, albumFolder: String(folder.dropFirst("albums/".count))).map {
            HTML.url(Array($0.utf8))
        }
    }

    /// The photo's size as displayed, from the index (its largest rendition when the index lacks it).
    static func displaySize(_ photo: PhotoRecord) -> (width: Int, height: Int) {
        if let width = photo.displayWidth, let height = photo.displayHeight, width > 0, height > 0 {
            return (width, height)
        }
        let largest = photo.renditions.max { $0.width * $0.height < $1.width * $1.height }
        return (max(1, largest?.width ?? 1), max(1, largest?.height ?? 1))
    }
}
