import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraLayout

/// How a laid-out page is drawn: the engine's settings for a width, and each photo's frame, image
/// and badges (album.js draws a page again at another width by the same rules).
extension CollectionPages {
    /// The widest content: a 2,560-px window filled but for its margins, wider ones centre it.
    static let widestContent = 2528.0

    /// The layout's side inset at a window width: 8 on phones, 16, or what centres the widest content.
    static func side(width: Double) -> Double {
        max(width < 600 ? 8 : 16, (width - widestContent) / 2)
    }

    /// The engine's settings for a window width: count paging (a tiles page holds at most as
    /// many photos as any other page), and sizes that suit the width.
    ///
    /// Photos fill the window at any width (album.js lays them out at the window's): rows
    /// stay near their target height, masonry gains a column per 280 px; tiles, a social-post
    /// cell, at most 538 wide, aligned with the title; sections side by side in justified rows.
    func layoutConfig(width: Double) -> LayoutConfig {
        let narrow = width < 600, wide = width >= 1000
        var config = LayoutConfig()
        config.style = options.style
        config.pageWidth = width
        let side = Self.side(width: width)
        config.insets = .init(top: 8, left: side, bottom: 8, right: side)
        // Tiles, social-post cells side by side, start where the title does (no margin of their
        // own), each at most 538 px wide: the 512-pixel squares then cover its half-width cells
        // at a pixel ratio of 2.
        config.tilesColumns =
            options.style == .tiles ? max(1, Int(((width - 2 * side + 16) / (538 + 16)).rounded(.up))) : 1
        config.paging = .count
        config.pageCount =
            options.style == .tiles ? max(1, options.photosPerPage / config.tilesMaxShown) : options.photosPerPage
        config.groupBy = options.sections
        config.masonryFillColumns = true
        config.tilesSingleAspect = true
        config.tilesFitOrientation = true
        config.tilesMargin = 0
        config.pixelRounding = true
        config.outputScale = 2
        config.coalesce = true
        config.noEnlarge = true
        config.masonryNoEnlarge = true
        config.masonryColumns = narrow ? 2 : max(3, Int(((width - 2 * side) / 280 + 0.5).rounded(.down)))
        config.stripHeight = narrow ? 160 : wide ? 320 : 240
        // Grid squares near 112 or 176 px, sized so that whole columns span the width.
        let square = narrow ? 112.0 : 176, content = width - 2 * side, gap = config.gridMinimumColumnGap
        let columns = max(1, ((content - gap) / (square + gap) + 0.5).rounded(.down))
        config.gridItemWidth = max(1, ((content - gap * (columns + 1)) / columns).rounded(.down))
        config.gridItemHeight = config.gridItemWidth
        config.targetRowHeight = narrow ? 140 : 220
        return config
    }

    /// Frames that promise the whole photo get fit renditions; the others are cropped squares.
    var fit: ImageSources.Fit {
        switch options.style {
        case .justified, .masonry, .strip: .whole
        case .grid, .tiles: .cover
        }
    }

    /// One laid-out page as an absolutely positioned block.
    func render(_ page: LayoutPage, width: Double, byID: [String: PhotoRecord]) -> String {
        let config = layoutConfig(width: width)
        let (stripHeight, inset) = (config.stripHeight, config.insets.left)
        var out =
            "<div class=\"layout w\(Int(width))\" data-style=\"\(options.style)\" "
            + "style=\"width:\(HTML.px(config.pageWidth))px;height:\(HTML.px(page.height))px\">"
        // A strip section becomes a natively scrolling row of its photos, unzoomed, side by
        // side from the content's left edge, so it starts at its first photo and needs no script.
        var strip: (top: Double, cells: String, next: Double)?
        func closeStrip() {
            guard let row = strip else { return }
            out +=
                "<div class=\"strip\" style=\"position:absolute;left:0;top:\(HTML.px(row.top))px;width:100%;"
                + "height:\(HTML.px(stripHeight))px;scroll-padding:0 \(HTML.px(inset))px\">"
                + "<div class=\"cells\" style=\"width:\(HTML.px(row.next - config.stripSpacing + inset))px;"
                + "height:\(HTML.px(stripHeight))px\">"
                + "\(row.cells)</div></div>"
            strip = nil
        }
        for item in page.items {
            if item.type == .header {
                closeStrip()
                // Photos nothing dates (scans, downloads) gather at the end, never in the current month.
                let title = item.sectionId == "undated" ? "Undated" : FriendlyDate.section(item.title ?? "")
                // (a label over a narrow photo ends in "…"; the whole of it is the header's title)
                out +=
                    "<div class=\"header\" style=\"\(Self.frame(item))\" title=\"\(HTML.escape(title))\">"
                    + "<span>\(HTML.escape(title))</span></div>"
                continue
            }
            guard let id = item.photoId, let photo = byID[id] else { continue }
            var frame = item
            if item.contentX != nil, let scale = item.scale, scale > 0 {
                let baseWidth = item.width / scale, baseHeight = item.height / scale
                if strip == nil { strip = (item.y - (stripHeight - item.height) / 2, "", inset) }
                frame.x = strip?.next ?? inset
                frame.y = (stripHeight - baseHeight) / 2
                frame.width = baseWidth
                frame.height = baseHeight
                strip?.next = frame.x + baseWidth + config.stripSpacing
                // A cell the engine capped at the viewport crops its photo: show it whole inside.
                if item.crop == true { frame = Self.contained(photo, in: frame) }
                let layoutFrame = frame
                frame = Self.unenlarged(photo, in: frame)
                strip?.cells += anchor(photo, frame: frame, layoutFrame: layoutFrame, overlay: nil)
                continue
            }
            // The "+N" tile leads to its section's page.
            let more = item.overlay != nil ? Self.sectionFile(item.sectionId) : nil
            if fit == .whole && item.crop == true {
                frame = Self.contained(photo, in: frame)
            }
            let layoutFrame = frame
            frame = Self.unenlarged(photo, in: frame)
            out += anchor(
                photo, frame: frame, layoutFrame: layoutFrame, overlay: item.overlay, more: more)
        }
        closeStrip()
        return out + "</div>"
    }

    /// A photo frame: around the photo's image, a link to what shows it whole without script
    /// (album.js opens the lightbox instead).
    ///
    /// `layoutFrame` is the frame the layout gave, before a small photo was shrunk inside it.
    /// `more`: the section page a "+N" tile leads to.
    func anchor(
        _ photo: PhotoRecord, frame: LayoutItem, layoutFrame: LayoutItem, overlay: LayoutOverlay?,
        more: String? = nil
    ) -> String {
        let name = AlbumBuilder.name(photo)
        let sources = ImageSources(
            photo, width: frame.width, height: frame.height, fit: fit, placed: { media.rendition($0.path) })
        // No rendition in place (the cache lost them): the placeholder alone, not a request for "".
        let image =
            sources.fallback(width: frame.width).map {
                "src=\"\(Collection.prefix + HTML.url(Array($0.path.utf8)))\" "
                    + (sources.candidates.count > 1
                        ? "srcset=\"\(sources.srcset(prefix: Collection.prefix))\" sizes=\"\(HTML.px(frame.width))px\" "
                        : "")
            } ?? ""
        // The layout's own frame, where the photo was drawn smaller inside it.
        let box = [layoutFrame.x, layoutFrame.y, layoutFrame.width, layoutFrame.height].map(HTML.px)
        let layoutBox = layoutFrame == frame ? "" : "data-frame=\"\(box.joined(separator: " "))\" "
        return
            "<a class=\"photo\(more == nil ? "" : " more")\" href=\"\(more ?? plainLink(photo))\" "
            + "data-id=\"\(photo.id)\" style=\"\(Self.frame(frame))\" " + layoutBox + Self.sizes(photo)
            + "><img \(image)\(Self.placeholder(photo))"
            + "width=\"\(Int(frame.width.rounded()))\" height=\"\(Int(frame.height.rounded()))\" "
            + "loading=\"lazy\" alt=\"\(HTML.escape(name))\">"
            + (Motion(photo).map {
                let title = $0.badgeTitle.map { " title=\"\(HTML.escape($0))\"" } ?? ""
                return "<span class=\"badge\"\(title)>\(HTML.escape($0.badge))</span>"
            } ?? "")
            + (photo.stack.map {
                "<span class=\"badge stack\" title=\"\(HTML.escape(StackWording.title($0)))\">"
                    + "\(StackWording.badge($0))</span>"
            } ?? "")
            + (overlay.map { "<span class=\"more\">\(HTML.escape($0.text))</span>" } ?? "") + "</a>"
    }

    /// What a photo's tile links to for a browser without script: a video itself, else the
    /// largest rendition, else the original; the lightbox's address when none is in place.
    func plainLink(_ photo: PhotoRecord) -> String {
        let video = Motion(photo).flatMap { $0.kind == .video ? media.video($0)?.path : nil }
        let largest = PhotoMedia.sources(photo, media: media).last?.path
        guard let path = video ?? largest else {
            return PhotoMedia.original(photo, media: media, folders: folders).map { Collection.prefix + $0 }
                ?? Self.fragment(photo)
        }
        return Collection.prefix + HTML.url(Array(path.utf8))
    }

    /// What opens the lightbox on a photo, after an album page's address.
    static func fragment(_ photo: PhotoRecord) -> String { "#photo-\(photo.id)" }

    /// The largest rectangle of the photo's aspect inside `frame`, centred.
    static func contained(_ photo: PhotoRecord, in frame: LayoutItem) -> LayoutItem {
        let size = PhotoMedia.displaySize(photo)
        let aspect = Double(size.width) / Double(size.height)
        guard frame.width > 0, frame.height > 0 else { return frame }
        var inner = frame
        if aspect > frame.width / frame.height {
            inner.height = (frame.width / aspect).rounded()
            inner.y += ((frame.height - inner.height) / 2).rounded()
        } else {
            inner.width = (frame.height * aspect).rounded()
            inner.x += ((frame.width - inner.width) / 2).rounded()
        }
        return inner
    }

    /// The frame, shrunk about its centre so that the photo is never drawn larger than its own
    /// pixels, or its largest rendition's (a 75×100 scan in a 220 px row stays 75×100, not
    /// 165×220 and soft).
    static func unenlarged(_ photo: PhotoRecord, in frame: LayoutItem) -> LayoutItem {
        let size = PhotoMedia.drawableSize(photo)
        let scale = max(frame.width / Double(size.width), frame.height / Double(size.height))
        guard scale > 1 else { return frame }
        var inner = frame
        inner.width = min(Double(size.width), (frame.width / scale).rounded())
        inner.height = min(Double(size.height), (frame.height / scale).rounded())
        inner.x += ((frame.width - inner.width) / 2).rounded()
        inner.y += ((frame.height - inner.height) / 2).rounded()
        return inner
    }

    static func frame(_ item: LayoutItem) -> String {
        "left:\(HTML.px(item.x))px;top:\(HTML.px(item.y))px;"
            + "width:\(HTML.px(item.width))px;height:\(HTML.px(item.height))px"
    }

    /// What layout.js needs to lay the photo out again: its size as the engine sees it (`wh`,
    /// turned by its orientation; 1 × 1 when unknown) and, when that differs, the most it may be
    /// drawn at (`px`: as displayed, or its largest rendition's pixels when fewer).
    static func sizes(_ photo: PhotoRecord) -> String {
        // (as `LayoutPhoto(photo)` gives it to the engine)
        let turned = [5, 6, 7, 8].contains(photo.orientation ?? 1)
        let (width, height) = turned ? (photo.height, photo.width) : (photo.width, photo.height)
        let layout = if let width, let height, width > 0, height > 0 { (width, height) } else { (1, 1) }
        let shown = PhotoMedia.drawableSize(photo)
        return "data-wh=\"\(layout.0) \(layout.1)\""
            + (shown == layout ? "" : " data-px=\"\(shown.width) \(shown.height)\"")
    }

    /// The photo's ThumbHash, which album.js paints behind its image until the image loads.
    static func placeholder(_ photo: PhotoRecord) -> String {
        photo.thumbhash.map { "data-th=\"\(Data($0).base64EncodedString())\" " } ?? ""
    }
}
