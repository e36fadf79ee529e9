import Foundation
public import SystemPackage
public import TesseraFacts
public import TesseraIndex
public import TesseraLayout
import TesseraMetadata
import TesseraSystem

/// A static album site from the index: folder albums, a timeline of months, and a viewer.
///
/// The output folder works wherever it is copied or served: renditions are hard-linked (or
/// copied) into `media/`, originals placed in `originals/` as the options say, and every
/// reference is relative inside the folder. `index.html` lists the folder albums newest first
/// and `timeline.html` the years and months; each album and month gets pages of
/// `photosPerPage` photos, laid out by the engine at three breakpoint widths and chosen with
/// CSS. Each photo has a plain viewer page; the shared script turns it into a lightbox. Only
/// collections whose content changed since the last build are written again.
public struct AlbumBuilder: Sendable {
    public struct Options: Sendable {
        public var output: FilePath
        public var style = LayoutConfig.Style.justified
        /// How photos are grouped under headers; `auto` by their density.
        public var sections = LayoutConfig.GroupBy.auto
        /// Copy renditions into the output even where a hard link would do.
        public var copyRenditions = false
        public var originals = AlbumOriginals.symlink
        public var photosPerPage = 60
        public var widths: [Double] = [375, 768, 1280]

        public init(
            output: FilePath, style: LayoutConfig.Style = .justified, originals: AlbumOriginals = .symlink
        ) {
            (self.output, self.style, self.originals) = (output, style, originals)
        }
    }

    public struct Summary: Sendable {
        public var albums = 0
        public var months = 0
        /// Albums and months written, and left as they were.
        public var written = 0
        public var unchanged = 0
        public var pages = 0
        /// Rendition and original files placed in this build, by how.
        public var linked = 0
        public var copied = 0
        /// Renditions or originals that could not be placed (gone from the cache or the disk).
        public var missing = 0
        /// Files no page refers to any more, removed.
        public var removed = 0
        public var indexPage: FilePath

        /// What `tessera album build` prints of a build into `options.output`.
        public func text(_ options: Options) -> String {
            let counts = "\(Wording.count(albums, "album")), \(Wording.count(months, "month"))"
            let originals: String =
                switch options.originals {
                case .symlink: "symbolic links to the files"
                case .copy: "hard links or copies"
                case .none: "left out"
                }
            return [
                "Album pages: \(counts) (\(written) written, \(unchanged) unchanged)",
                "Files placed: \(linked) hard-linked, \(copied) copied into \(options.output.appending("media")) and originals/"
                    + (missing > 0 ? "; \(missing) missing from the cache or the disk" : "")
                    + (removed > 0 ? "; \(removed) no longer used, removed" : ""),
                "Originals: \(originals)",
                "Open: \(indexPage)",
            ].map(TerminalText.escaped).joined(separator: "\n")
        }
    }

    let index: any PhotoStore
    let options: Options

    public init(index: any PhotoStore, options: Options) {
        self.index = index
        self.options = options
    }

    /// Writes the site.
    ///
    /// One build at a time writes a folder (a lock file in it; `waiting` is called when another
    /// build holds it, and this one then waits for it), and it reads the index as one snapshot,
    /// so a scan committing meanwhile never makes pages disagree with each other.
    ///
    /// - Parameter shouldStop: asked between collections; when it says yes, the build ends early
    ///   (collections not reached keep their previous pages) and throws.
    /// - Throws: `AlbumError` when the output cannot be written, the index cannot be read, or the
    ///   build was stopped.
    public func build(shouldStop: () -> Bool = { false }, waiting: () -> Void = {}) throws(AlbumError) -> Summary {
        let output = FileSystem.absolute(options.output)
        try Self.makeDirectory(output)
        let lock: FileLock
        do throws(SystemError) {
            lock = try FileLock(path: output.appending(Self.lockName))
            if try !lock.tryLock() {
                waiting()
                try lock.lock()
            }
        } catch {
            throw AlbumError(.output, "cannot lock the album folder: \(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        do {
            return try index.snapshot { snapshot throws(AlbumError) in
                try build(from: snapshot, into: OutputFolder(root: output), shouldStop: shouldStop)
            }
        } catch let error as AlbumError {
            throw error
        } catch {
            throw AlbumError(.index, "\(error)")
        }
    }

    /// The lock file in the output folder, held by the build writing it.
    static let lockName = ".tessera-album.lock"

    private func build(
        from index: any PhotoReading, into output: OutputFolder, shouldStop: () -> Bool
    ) throws(AlbumError) -> Summary {
        var summary = Summary(indexPage: output.path("index.html"))
        let albums: [AlbumRecord]
        let months: [(month: String, count: Int)]
        let counter: Int64
        do {
            (albums, months, counter) = (try index.albums(), try index.months(), try index.changeCounter())
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        // Marks the folder as Tessera's own output: a scan never walks it, even inside a root.
        try output.writeIfChanged(
            "Written by tessera album build; photo scans skip this folder.\n", to: FileSystem.ownOutputMarker)
        for (name, text) in Assets.files(widths: options.widths) {
            try output.writeIfChanged(text, to: "assets/" + name)
        }
        let previous = SiteManifest.load(from: output.root).flatMap { $0.options == optionsKey ? $0 : nil }
        var manifest = SiteManifest(options: optionsKey, change: counter)
        let media = MediaFolder(output: output, copyRenditions: options.copyRenditions, originals: options.originals)
        let tree = AlbumTree(albums)
        let albumFolders = Dictionary(
            albums.map { ($0.id, "albums/" + Self.folderName($0)) }, uniquingKeysWith: { first, _ in first })
        let writer = CollectionPages(
            options: options, media: media, output: output, placeholders: Placeholders(), albumFolders: albumFolders)
        /// Files the albums written again or removed referred to before, and those they refer to now.
        var before: [String: String] = [:], after: Set<String> = []

        /// An album's card as its parent and the album list show it, from the manifest of this build.
        func card(_ album: AlbumRecord, prefix: String) -> String? {
            guard let folder = albumFolders[album.id], let entry = manifest.albums[folder] else { return nil }
            let range = Self.dateRange(album)
            let children = tree.children[album.id, default: []].count
            return SitePages.card(
                entry.card, href: folder + "/index.html", name: tree.title(album),
                meta: entry.card.count + (children > 0 ? ", " + Wording.count(children, "album") : "")
                    + (range.isEmpty ? "" : " · " + range),
                prefix: prefix)
        }
        // Albums deepest first: each is drawn with the cards of the albums inside it as this
        // build leaves them. An album is written again when its photos changed (the index's
        // change counter says so without reading them), when what surrounds them on its pages
        // changed, or when its pages or some of its files are not in place.
        for album in albums.sorted(by: { tree.depth(of: $0.id) > tree.depth(of: $1.id) }) {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every album was written") }
            guard let folder = albumFolders[album.id] else { continue }
            let old = previous?.albums[folder]
            let crumbs = tree.ancestors(of: album.id).compactMap { ancestor in
                albumFolders[ancestor.id].map {
                    (name: tree.title(ancestor), href: Collection.prefix + $0 + "/index.html")
                }
            }
            let children = tree.children[album.id, default: []].compactMap { card($0, prefix: Collection.prefix) }
            let range = Self.dateRange(album)
            var frame =
                "\(tree.title(album))|\(range)|\(crumbs.map { "\($0.name)>\($0.href)" }.joined(separator: "/"))|"
            frame = XXH64.hex(XXH64.hash(Array((frame + children.joined()).utf8)))
            if let old, old.id == album.id, old.change == album.contentChange, old.frame == frame, !old.incomplete,
                Self.isPage(output.path(folder + "/index.html"))
            {
                manifest.albums[folder] = old
                summary.albums += 1
                summary.unchanged += 1
                continue
            }
            let photos = try Self.photos(index, .init(albumID: album.id))
            guard !photos.isEmpty else { continue }
            let count = Self.count(photos)
            let missingBefore = media.misses
            media.startRecording()
            let card = SitePages.card(cover: Self.cover(photos), count: count, media: media)
            before.merge(AlbumFiles.read(folder, in: output)) { first, _ in first }
            summary.pages += try writer.write(
                Collection(
                    folder: folder + Self.staging, title: tree.title(album),
                    subtitle: count + (range.isEmpty ? "" : " · " + range), photos: photos, ownsViewerPages: true,
                    crumbs: crumbs, children: children))
            let files = media.finishRecording()
            try AlbumFiles.write(files, folder + Self.staging, in: output)
            try output.replace(folder, with: folder + Self.staging)
            after.formUnion(files.keys)
            manifest.albums[folder] = .init(
                id: album.id, change: album.contentChange, frame: frame, card: card,
                incomplete: media.misses > missingBefore)
            summary.albums += 1
            summary.written += 1
        }
        // Albums gone from the index (or from a site of other options) leave the output with their files.
        for folder in Self.folders(in: "albums", of: output).subtracting(manifest.albums.keys).sorted() {
            // What a build stopped half-way left is not an album: its files are the album's own.
            if !folder.hasSuffix(Self.staging) && !folder.hasSuffix(".retired") {
                before.merge(AlbumFiles.read(folder, in: output)) { first, _ in first }
            }
            try output.remove(folder)
            try output.remove("originals/" + folder.dropFirst("albums/".count))
        }

        // Months: written again when the index marks them changed since the pages were written.
        let changedMonths: Set<String>
        do {
            changedMonths =
                try previous.map { previous throws(IndexError) in try index.monthChanges(since: previous.change) } ?? []
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        var years: [(year: String, cards: [String])] = []
        var data: [String] = []
        for (month, _) in months {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every month was written") }
            let folder = "months/" + month
            let title = FriendlyDate.section(month)
            if let old = previous?.months[month], !changedMonths.contains(month), !old.incomplete,
                Self.isPage(output.path(folder + "/index.html"))
            {
                manifest.months[month] = old
                summary.unchanged += 1
            } else {
                let photos = try Self.photos(index, .init(month: month)).filter { albumFolders[$0.albumID] != nil }
                guard !photos.isEmpty else { continue }
                let missingBefore = media.misses
                let count = Self.count(photos)
                let card = SitePages.card(cover: Self.cover(photos), count: count, media: media)
                summary.pages += try writer.write(
                    Collection(
                        folder: folder + Self.staging, title: title, subtitle: count, photos: photos,
                        ownsViewerPages: false))
                try output.replace(folder, with: folder + Self.staging)
                manifest.months[month] = .init(card: card, incomplete: media.misses > missingBefore)
                summary.written += 1
            }
            guard let entry = manifest.months[month] else { continue }
            summary.months += 1
            data.append(folder + "/photos.js")
            let year = String(month.prefix(4))
            let card = SitePages.card(entry.card, href: folder + "/index.html", name: title, meta: entry.card.count)
            if years.last?.year == year {
                years[years.count - 1].cards.append(card)
            } else {
                years.append((year, [card]))
            }
        }
        for folder in Self.folders(in: "months", of: output).subtracting(manifest.months.keys.map { "months/" + $0 }) {
            try output.remove(folder)
        }

        // Files no page refers to any more: after a build that wrote every album, whatever in
        // media/ and originals/ it did not place; else only what the albums written again or
        // removed referred to and no longer do, unless another photo's row still refers to the
        // same rendition (a copy in an album left as it was).
        if previous == nil || summary.unchanged == 0 {
            summary.removed = media.sweep()
        } else if !before.isEmpty {
            let gone = before.filter { !after.contains($0.key) }
            let shared: Set<String>
            do {
                shared = try index.shownRenditions(among: gone.values.filter { !$0.isEmpty })
            } catch {
                throw AlbumError(.index, "\(error)")
            }
            summary.removed = media.remove(gone.filter { !shared.contains($0.value) }.keys.sorted())
        }
        summary.linked = media.linked
        summary.copied = media.copied
        summary.missing = media.missing
        let all = Self.count(total: albums.reduce(0) { $0 + $1.photoCount })
        try output.writeIfChanged(
            SitePages.albumList(
                cards: tree.roots.compactMap { card($0, prefix: "") },
                summary: "\(Wording.count(summary.albums, "album")), \(all)"),
            to: "index.html")
        try output.writeIfChanged(SitePages.timeline(years: years, summary: all, data: data), to: "timeline.html")
        if (try? FileSystem.linkStatus(of: output.path("timeline.js"))) != nil { try output.remove("timeline.js") }
        try manifest.save(to: output)
        return summary
    }

    /// The folders in `parent` of the output (`albums/<name>`), as a site's pages left them.
    private static func folders(in parent: String, of output: OutputFolder) -> Set<String> {
        Set(
            (FileSystem.entries(of: output.path(parent)) ?? []).map {
                parent + "/" + String(decoding: $0, as: UTF8.self)
            })
    }

    /// Beside a collection's folder while its pages are written, until they are all there.
    static let staging = ".partial"

    /// Whether a page is in place: a regular file (not a link someone put there).
    private static func isPage(_ path: FilePath) -> Bool {
        (try? FileSystem.linkStatus(of: path))?.type == .regular
    }

    private static func photos(
        _ index: any PhotoReading, _ query: PhotoQuery
    ) throws(AlbumError) -> [PhotoRecord] {
        do {
            return try index.photos(query)
        } catch {
            throw AlbumError(.index, "\(error)")
        }
    }

    /// What the pages are made with: other options, or another version of Tessera's pages,
    /// write every page again.
    private var optionsKey: String {
        // v6: written in proportion to change.
        "v6|\(options.style)|\(options.sections)|\(options.copyRenditions)|\(options.originals)|\(options.photosPerPage)|\(options.widths)"
    }

    /// The pixels a cover card needs on its short side: 160 CSS px at a pixel ratio of 2.
    static let coverSide = 320

    /// The cover: the best-rated photo with the pixels for the card, newest first among equals;
    /// when none has them, the one with the most.
    static func cover(_ photos: [PhotoRecord]) -> PhotoRecord? {
        func side(_ photo: PhotoRecord) -> Int {
            let size = ViewerPages.displaySize(photo); return min(size.width, size.height)
        }
        let sharp = photos.filter { side($0) >= coverSide && !$0.renditions.isEmpty }
        guard let best = sharp.max(by: { ($0.annotations.rating ?? 0) < ($1.annotations.rating ?? 0) }) else {
            return photos.max { side($0) < side($1) }
        }
        // `max` keeps the last of equals: the first (newest) of the best rating instead.
        return sharp.first { ($0.annotations.rating ?? 0) == (best.annotations.rating ?? 0) }
    }

    /// "12 photos", "1 photo, 2 videos".
    static func count(_ photos: [PhotoRecord]) -> String {
        let videos = photos.filter { $0.video != nil }.count, stills = photos.count - videos
        return [
            stills > 0 || videos == 0 ? Wording.count(stills, "photo") : nil,
            videos > 0 ? Wording.count(videos, "video") : nil,
        ]
        .compactMap { $0 }.joined(separator: ", ")
    }

    /// "12 photos": how many an album list or timeline sums up (videos among them).
    static func count(total: Int) -> String {
        Wording.count(total, "photo")
    }

    /// The file name, from the path's bytes (a `FilePath` per photo costs more than a page).
    static func name(_ photo: PhotoRecord) -> String {
        let bytes = photo.pathBytes
        let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? bytes.startIndex
        return String(decoding: bytes[start...], as: UTF8.self)
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
        do throws(SystemError) {
            try FileSystem.createDirectories(path)
        } catch {
            throw AlbumError(.output, "\(path): cannot create: \(error.errno)")
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

/// Albums as the folder tree: each under the nearest folder above it that is an album too, so
/// `Trips/2023/Rome` sits in `Trips` even when `Trips/2023` holds no photos.
struct AlbumTree {
    private(set) var roots: [AlbumRecord] = []
    private(set) var children: [Int64: [AlbumRecord]] = [:]
    private var parent: [Int64: AlbumRecord] = [:]

    init(_ albums: [AlbumRecord]) {
        let byPath = Dictionary(albums.map { ($0.pathBytes, $0) }, uniquingKeysWith: { first, _ in first })
        for album in albums {
            var path = album.pathBytes
            var found: AlbumRecord?
            // Up one folder at a time, while still inside the album's root (its name is relative to it).
            var depth = album.name.split(separator: "/").count
            while found == nil, depth > 0, let slash = path.lastIndex(of: UInt8(ascii: "/")) {
                path = Array(path[..<slash])
                depth -= 1
                found = byPath[path]
            }
            if let found {
                parent[album.id] = found
                children[found.id, default: []].append(album)
            } else {
                roots.append(album)
            }
        }
    }

    /// How many albums it lies inside.
    func depth(of id: Int64) -> Int {
        var depth = 0
        var current = parent[id]
        while let album = current, depth < 256 {
            depth += 1
            current = parent[album.id]
        }
        return depth
    }

    /// From the outermost album down to the album's parent.
    func ancestors(of id: Int64) -> [AlbumRecord] {
        var chain: [AlbumRecord] = []
        var current = parent[id]
        while let album = current, chain.count < 256 {
            chain.insert(album, at: 0)
            current = parent[album.id]
        }
        return chain
    }

    /// The album's name below its parent ("Rome" in "Trips"; "2023/Rome" when 2023 is no album).
    func title(_ album: AlbumRecord) -> String {
        let own = AlbumBuilder.title(album)
        guard let above = parent[album.id], !above.name.isEmpty, own.hasPrefix(above.name + "/") else { return own }
        return String(own.dropFirst(above.name.count + 1))
    }
}
