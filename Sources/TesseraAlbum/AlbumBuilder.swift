import Foundation
public import SystemPackage
public import TesseraIndex
public import TesseraLayout
import TesseraMetadata
import TesseraSystem

/// Static HTML album pages from the index, the thumbnail cache and the layout engine.
///
/// `index.html` lists the albums newest first; each album gets its own folder
/// of pages, `photosPerPage` photos each, laid out by the engine at three
/// breakpoint widths (375, 768 and 1280 points) and chosen with CSS media
/// queries. Pages need no script and no network. Only albums whose content
/// changed since the last build are written again.
public struct AlbumBuilder: Sendable {
    public struct Options: Sendable {
        public var output: FilePath
        public var style = LayoutConfig.Style.justified
        /// Copy thumbnails into the output instead of linking to the cache.
        public var copyThumbnails = false
        public var photosPerPage = 60
        public var widths: [Double] = [375, 768, 1280]

        public init(output: FilePath) {
            self.output = output
        }
    }

    public struct Summary: Sendable {
        public var albums = 0
        public var written = 0
        public var unchanged = 0
        public var pages = 0
        public var indexPage: FilePath
    }

    let index: PhotoIndex
    let options: Options

    public init(index: PhotoIndex, options: Options) {
        self.index = index
        self.options = options
    }

    /// Writes the pages.
    ///
    /// - Parameter shouldStop: asked between albums; when it says yes, the build ends early
    ///   (albums not reached keep their previous pages) and throws.
    /// - Throws: `AlbumError` when the output cannot be written, the style is unknown, the index
    ///   cannot be read, or the build was stopped.
    public func build(shouldStop: () -> Bool = { false }) throws(AlbumError) -> Summary {
        let output = options.output.isAbsolute
            ? options.output : FilePath(FileManager.default.currentDirectoryPath).pushing(options.output)
        var summary = Summary(indexPage: output.appending("index.html"))
        let albums: [AlbumRecord]
        do {
            albums = try index.albums()
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        try Self.makeDirectory(output)
        var manifest = Manifest.load(from: output)
        var entries: [String] = []
        var keep: Set<String> = []
        for album in albums {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every album was written") }
            let photos: [PhotoRecord]
            do {
                photos = try index.photos(.init(albumID: album.id))
            } catch {
                throw AlbumError(.index, "\(error)")
            }
            guard !photos.isEmpty else { continue }
            let folder = Self.folderName(album)
            keep.insert(folder)
            let directory = output.appending("albums").appending(folder)
            let fingerprint = fingerprint(album: album, photos: photos)
            if manifest.albums[folder] != fingerprint || !FileManager.default.fileExists(atPath: directory.appending("index.html").string) {
                summary.pages += try writeAlbum(album, photos: photos, into: directory, output: output)
                manifest.albums[folder] = fingerprint
                summary.written += 1
            } else {
                summary.unchanged += 1
            }
            summary.albums += 1
            entries.append(albumEntry(album, photos: photos, folder: folder, output: output))
        }
        // Albums that no longer exist leave the output.
        for stale in Set(manifest.albums.keys).subtracting(keep) {
            try? FileManager.default.removeItem(atPath: output.appending("albums").appending(stale).string)
            manifest.albums[stale] = nil
        }
        let body = """
            <header><h1>Albums</h1><p>\(albums.count) albums, \(albums.reduce(0) { $0 + $1.photoCount }) photos</p></header>
            <main class="albums">
            \(entries.joined(separator: "\n"))
            </main>
            """
        try Self.write(HTML.document(title: "Albums", body: body), to: summary.indexPage)
        try manifest.save(to: output)
        return summary
    }

    /// One album's pages. Returns how many were written.
    private func writeAlbum(_ album: AlbumRecord, photos: [PhotoRecord], into directory: FilePath, output: FilePath) throws(AlbumError) -> Int {
        try? FileManager.default.removeItem(atPath: directory.string)
        try Self.makeDirectory(directory)
        let records = photos.map(LayoutPhoto.init)
        let byID = Dictionary(photos.map { (String($0.id), $0) }, uniquingKeysWith: { first, _ in first })
        // One document per breakpoint; count paging gives every width the same photos per page.
        var documents: [(Double, LayoutDocument)] = []
        for width in options.widths {
            var config = LayoutConfig()
            config.style = options.style
            config.pageWidth = width
            config.insets = .init(top: 8, left: width < 600 ? 8 : 16, bottom: 8, right: width < 600 ? 8 : 16)
            config.paging = .count
            config.pageCount = options.photosPerPage
            config.groupBy = .day
            config.pixelRounding = true
            config.outputScale = 2
            do {
                documents.append((width, try AlbumLayout.layout(records, config: config)))
            } catch {
                throw AlbumError(.layout, "layout failed: \(error)")
            }
        }
        let pageCount = documents.first?.1.pages.count ?? 0
        let title = Self.title(album)
        for page in 0..<pageCount {
            let file = directory.appending(page == 0 ? "index.html" : "page-\(page + 1).html")
            var layouts: [String] = []
            var hidden: [(String, [String])] = []
            for (width, document) in documents where page < document.pages.count {
                let (html, more) = render(
                    document.pages[page], width: width, stripHeight: LayoutConfig().stripHeight, byID: byID,
                    directory: directory, output: output)
                layouts.append(html)
                if hidden.isEmpty { hidden = more }
            }
            let range = Self.dateRange(album)
            var body = """
                <header><a href="../../index.html">All albums</a><h1>\(HTML.escape(title))</h1>\
                <p>\(album.photoCount) photos\(range.isEmpty ? "" : " · " + HTML.escape(range))</p></header>
                <main>
                \(layouts.joined(separator: "\n"))
                </main>
                """
            for (section, ids) in hidden {
                let thumbs = ids.compactMap { byID[$0] }.map { photo in
                    "<a href=\"\(link(to: photo, from: directory))\"><img src=\"\(thumbnail(of: photo, from: directory, output: output))\" alt=\"\(HTML.escape(Self.name(photo)))\"></a>"
                }
                body += "\n<section class=\"hidden-photos\" id=\"more-\(HTML.escape(section))\"><h2>\(HTML.escape(section)): more photos</h2>\(thumbs.joined())</section>"
            }
            if pageCount > 1 {
                let links = (0..<pageCount).map { number in
                    number == page ? "<span>\(number + 1)</span>"
                        : "<a href=\"\(number == 0 ? "index.html" : "page-\(number + 1).html")\">\(number + 1)</a>"
                }
                body += "\n<nav class=\"pager\">\(links.joined(separator: " "))</nav>"
            }
            try Self.write(HTML.document(title: title, body: body), to: file)
        }
        return pageCount
    }

    /// One laid-out page as an absolutely positioned block; also the tiles' hidden photos by section.
    private func render(
        _ page: LayoutPage, width: Double, stripHeight: Double, byID: [String: PhotoRecord], directory: FilePath, output: FilePath
    ) -> (String, [(String, [String])]) {
        var out = "<div class=\"layout w\(Int(width))\" style=\"width:\(HTML.px(width))px;height:\(HTML.px(page.height))px\">"
        var hidden: [(String, [String])] = []
        // A strip section becomes a natively scrolling row: unzoomed cells at their content x,
        // centred and snapped by CSS scroll-snap, so it works without script.
        var strip: (top: Double, cells: String, right: Double)?
        func closeStrip() {
            guard let row = strip else { return }
            out += "<div class=\"strip\" style=\"position:absolute;left:0;top:\(HTML.px(row.top))px;width:100%;height:\(HTML.px(stripHeight))px\">"
                + "<div class=\"cells\" style=\"width:\(HTML.px(row.right))px;height:\(HTML.px(stripHeight))px\">\(row.cells)</div></div>"
            strip = nil
        }
        for item in page.items {
            if item.type == .header {
                closeStrip()
                out += "<div class=\"header\" style=\"\(Self.frame(item))\">\(HTML.escape(item.title ?? ""))</div>"
                continue
            }
            guard let id = item.photoId, let photo = byID[id] else { continue }
            var frame = item
            if let contentX = item.contentX, let scale = item.scale {
                let rowHeight = stripHeight
                let baseWidth = item.width / scale, baseHeight = item.height / scale
                if strip == nil { strip = (item.y - (rowHeight - item.height) / 2, "", 0) }
                frame.x = contentX + (item.width - baseWidth) / 2
                frame.y = (rowHeight - baseHeight) / 2
                frame.width = baseWidth
                frame.height = baseHeight
                strip?.right = frame.x + baseWidth + (width - baseWidth) / 2
                strip?.cells += anchor(photo, frame: frame, overlay: nil, directory: directory, output: output)
                continue
            }
            out += anchor(photo, frame: frame, overlay: item.overlay?.text, directory: directory, output: output)
            if let overlay = item.overlay { hidden.append((item.sectionId, overlay.hiddenPhotoIds)) }
        }
        closeStrip()
        out += "</div>"
        return (out, hidden)
    }

    /// A photo frame: a link to the original around its thumbnail; the layout frame is in data attributes.
    private func anchor(_ photo: PhotoRecord, frame: LayoutItem, overlay: String?, directory: FilePath, output: FilePath) -> String {
        let name = HTML.escape(Self.name(photo))
        // The tooltip says what the file is: its name, and its format in capitals (HEIF, RAW…).
        let title = HTML.escape("\(Self.name(photo)) (\(photo.format.rawValue.uppercased()))")
        return "<a class=\"photo\" href=\"\(link(to: photo, from: directory))\" style=\"\(Self.frame(frame))\" "
            + "data-x=\"\(HTML.px(frame.x))\" data-y=\"\(HTML.px(frame.y))\" data-w=\"\(HTML.px(frame.width))\" data-h=\"\(HTML.px(frame.height))\">"
            + "<img src=\"\(thumbnail(of: photo, from: directory, output: output))\" alt=\"\(name)\" title=\"\(title)\">"
            + (overlay.map { "<span class=\"more\">\(HTML.escape($0))</span>" } ?? "") + "</a>"
    }

    private static func frame(_ item: LayoutItem) -> String {
        "left:\(HTML.px(item.x))px;top:\(HTML.px(item.y))px;width:\(HTML.px(item.width))px;height:\(HTML.px(item.height))px"
    }

    private func albumEntry(_ album: AlbumRecord, photos: [PhotoRecord], folder: String, output: FilePath) -> String {
        let cover = photos.first.map { thumbnail(of: $0, from: output, output: output) } ?? ""
        let range = Self.dateRange(album)
        return "<a href=\"albums/\(HTML.url(Array(folder.utf8)))/index.html\"><img src=\"\(cover)\" alt=\"\">"
            + "<div class=\"name\">\(HTML.escape(Self.title(album)))</div>"
            + "<div class=\"meta\">\(album.photoCount) photos\(range.isEmpty ? "" : " · " + HTML.escape(range))</div></a>"
    }

    /// The original photo, relative to `directory`.
    private func link(to photo: PhotoRecord, from directory: FilePath) -> String {
        HTML.url(HTML.relative(photo.pathBytes, from: directory.rawBytes))
    }

    /// The largest square rendition (the largest fit if there is none), linked from the cache
    /// or copied into the output.
    private func thumbnail(of photo: PhotoRecord, from directory: FilePath, output: FilePath) -> String {
        let squares = photo.renditions.filter { $0.spec.kind == .square }
        guard let best = (squares.isEmpty ? photo.renditions : squares).max(by: { $0.spec.size < $1.spec.size })?.path
        else { return "" }
        var target = FilePath(best)
        if options.copyThumbnails {
            let copy = output.appending("thumbnails").appending(target.lastComponent?.string ?? "thumb.jpg")
            if !FileManager.default.fileExists(atPath: copy.string) {
                try? FileManager.default.createDirectory(
                    atPath: copy.removingLastComponent().string, withIntermediateDirectories: true)
                try? FileManager.default.copyItem(atPath: best, toPath: copy.string)
            }
            target = copy
        }
        return HTML.url(HTML.relative(target.rawBytes, from: directory.rawBytes))
    }

    /// What changes an album's pages: its photos, their dates, sizes and thumbnails, and the build options.
    private func fingerprint(album: AlbumRecord, photos: [PhotoRecord]) -> String {
        var text = "v1|\(options.style)|\(options.copyThumbnails)|\(options.photosPerPage)|\(options.widths)|\(album.name)"
        for photo in photos {
            text += "|\(photo.path)|\(photo.capturedAt ?? "")|\(photo.width ?? 0)x\(photo.height ?? 0)|\(photo.orientation ?? 1)"
            text += "|\(photo.renditions.map(\.path).joined(separator: ","))"
        }
        return XXH64.hex(XXH64.hash(Array(text.utf8)))
    }

    static func name(_ photo: PhotoRecord) -> String {
        photo.path.lastComponent?.string ?? photo.path.string
    }

    static func title(_ album: AlbumRecord) -> String {
        album.name.isEmpty ? (album.path.lastComponent?.string ?? "Photos") : album.name
    }

    static func dateRange(_ album: AlbumRecord) -> String {
        let oldest = album.oldestCapturedAt.map { String($0.prefix(10)) }
        let newest = album.newestCapturedAt.map { String($0.prefix(10)) }
        switch (oldest, newest) {
        case let (.some(from), .some(to)) where from != to: return "\(from) – \(to)"
        case let (_, .some(day)): return day
        default: return ""
        }
    }

    /// A folder name safe anywhere: letters and digits of the album name, plus a hash of its path.
    static func folderName(_ album: AlbumRecord) -> String {
        let readable = title(album).lowercased().unicodeScalars.map { scalar -> Character in
            (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) && scalar.isASCII ? Character(scalar) : "-"
        }
        let slug = String(readable).split(separator: "-").joined(separator: "-").prefix(40)
        return (slug.isEmpty ? "album" : String(slug)) + "-" + String(XXH64.hex(XXH64.hash(album.pathBytes)).prefix(8))
    }

    static func makeDirectory(_ path: FilePath) throws(AlbumError) {
        do {
            try FileManager.default.createDirectory(atPath: path.string, withIntermediateDirectories: true)
        } catch {
            throw AlbumError(.output, "\(path): cannot create: \(error.localizedDescription)")
        }
    }

    /// Writes atomically (temporary file, then rename), so a browser never loads half a page.
    static func write(_ text: String, to path: FilePath) throws(AlbumError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path.string), options: .atomic)
        } catch {
            throw AlbumError(.output, "\(path): cannot write: \(error.localizedDescription)")
        }
    }
}

/// A failure building album pages: what kind, and one line saying what happened.
public struct AlbumError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case index, layout, output, stopped }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The index could not be read.
        public static let index = Code(.index)
        /// The layout engine refused the options.
        public static let layout = Code(.layout)
        /// The output folder could not be written.
        public static let output = Code(.output)
        /// The build was asked to stop before it was done.
        public static let stopped = Code(.stopped)

        public var description: String { kind.rawValue }
    }

    public let code: Code
    public let description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}

/// What the last build wrote: one fingerprint per album folder, in `.tessera-album.json`.
struct Manifest: Codable {
    var albums: [String: String] = [:]

    static func load(from output: FilePath) -> Manifest {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: output.appending(".tessera-album.json").string)),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return Manifest() }
        return manifest
    }

    func save(to output: FilePath) throws(AlbumError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(self) else { return }
        try AlbumBuilder.write(String(decoding: data, as: UTF8.self), to: output.appending(".tessera-album.json"))
    }
}
