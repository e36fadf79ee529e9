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
        do {
            albums = try index.albums()
            months = try index.months()
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        // Marks the folder as Tessera's own output: a scan never walks it, even inside a root.
        try output.write(
            "Written by tessera album build; photo scans skip this folder.\n", to: FileSystem.ownOutputMarker)
        for (name, text) in Assets.files(widths: options.widths) {
            try output.write(text, to: "assets/" + name)
        }
        let media = MediaFolder(output: output, copyRenditions: options.copyRenditions, originals: options.originals)
        var albumPhotos: [(album: AlbumRecord, photos: [PhotoRecord])] = []
        for album in albums {
            let photos = try Self.photos(index, .init(albumID: album.id))
            if !photos.isEmpty { albumPhotos.append((album, photos)) }
        }
        // Only albums with pages get a folder: a viewer link always leads to a page.
        let albumFolders = Dictionary(
            albumPhotos.map { ($0.album.id, "albums/" + Self.folderName($0.album)) },
            uniquingKeysWith: { first, _ in first })
        let writer = CollectionPages(
            options: options, media: media, output: output, placeholders: Placeholders(), albumFolders: albumFolders)
        var manifest = Manifest.load(from: output.root)
        var keep: Set<String> = []

        func publish(_ collection: Collection) throws(AlbumError) {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every album was written") }
            keep.insert(collection.folder)
            // The site carries every rendition and original of its photos, whether or not this
            // build writes their pages, so that what unchanged pages refer to is kept; what
            // could be placed is part of the fingerprint, so a page written while a file was
            // missing is written again once it is back.
            var placed: [Bool] = []
            for photo in collection.photos {
                for entry in photo.renditions { placed.append(media.rendition(entry.path) != nil) }
                placed.append(ViewerPages.original(photo, media: media, albumFolders: albumFolders) != nil)
                if let motion = Motion(photo) { placed.append(media.video(motion.source) != nil) }
            }
            let fingerprint = fingerprint(collection, placed: placed)
            // A link in place of the folder is replaced by an empty one, whose pages are then written.
            _ = try output.directory(collection.folder)
            if manifest.albums[collection.folder] != fingerprint
                || (try? FileSystem.linkStatus(of: output.path(collection.folder + "/index.html")))?.type != .regular
            {
                summary.pages += try writer.write(collection)
                manifest.albums[collection.folder] = fingerprint
                summary.written += 1
            } else {
                summary.unchanged += 1
            }
        }

        // The folder tree: each album under the nearest folder above it that is an album too.
        let tree = AlbumTree(albumPhotos.map(\.album))
        let photosOf = Dictionary(albumPhotos.map { ($0.album.id, $0.photos) }, uniquingKeysWith: { first, _ in first })
        func card(_ album: AlbumRecord, prefix: String) -> String? {
            guard let folder = albumFolders[album.id], let photos = photosOf[album.id] else { return nil }
            let range = Self.dateRange(album)
            let children = tree.children[album.id, default: []].count
            return SitePages.card(
                href: folder + "/index.html", cover: Self.cover(photos), media: media, name: tree.title(album),
                meta: Self.count(photos) + (children > 0 ? ", " + Wording.count(children, "album") : "")
                    + (range.isEmpty ? "" : " · " + range),
                prefix: prefix)
        }
        for (album, photos) in albumPhotos {
            guard let folder = albumFolders[album.id] else { continue }
            let range = Self.dateRange(album)
            let crumbs = tree.ancestors(of: album.id).compactMap { ancestor in
                albumFolders[ancestor.id].map {
                    (name: tree.title(ancestor), href: Collection.prefix + $0 + "/index.html")
                }
            }
            try publish(
                Collection(
                    folder: folder, title: tree.title(album),
                    subtitle: Self.count(photos) + (range.isEmpty ? "" : " · " + range),
                    photos: photos, ownsViewerPages: true, crumbs: crumbs,
                    children: tree.children[album.id, default: []].compactMap { card($0, prefix: Collection.prefix) }))
            summary.albums += 1
        }
        let entries = tree.roots.compactMap { card($0, prefix: "") }
        var years: [(year: String, cards: [String])] = []
        for (month, _) in months {
            let photos = try Self.photos(index, .init(month: month)).filter { albumFolders[$0.albumID] != nil }
            guard !photos.isEmpty else { continue }
            let folder = "months/" + month
            let title = FriendlyDate.section(month)
            try publish(
                Collection(
                    folder: folder, title: title, subtitle: Self.count(photos), photos: photos, ownsViewerPages: false))
            summary.months += 1
            let year = String(month.prefix(4))
            let entry = SitePages.card(
                href: folder + "/index.html", cover: Self.cover(photos), media: media, name: title,
                meta: Self.count(photos))
            if years.last?.year == year {
                years[years.count - 1].cards.append(entry)
            } else {
                years.append((year, [entry]))
            }
        }
        // Collections that no longer exist leave the output, as do files no page refers to.
        for stale in Set(manifest.albums.keys).subtracting(keep).sorted() {
            try output.remove(stale)
            manifest.albums[stale] = nil
        }
        summary.removed = media.sweep()
        summary.linked = media.linked
        summary.copied = media.copied
        summary.missing = media.missing
        let all = Self.count(albumPhotos.flatMap(\.photos))
        try output.write(
            SitePages.albumList(cards: entries, summary: "\(Wording.count(summary.albums, "album")), \(all)"),
            to: "index.html")
        try output.write(SitePages.timeline(years: years, summary: all), to: "timeline.html")
        try writeTimelineData(albumPhotos.flatMap(\.photos), media: media, albumFolders: albumFolders, into: output)
        try manifest.save(to: output)
        return summary
    }

    /// What Find on the timeline looks through: every photo of the site, newest first, with
    /// its viewer page, one small rendition and `FindFacts`; loaded only when Find is used.
    private func writeTimelineData(
        _ photos: [PhotoRecord], media: MediaFolder, albumFolders: [Int64: String], into output: OutputFolder
    ) throws(AlbumError) {
        struct Source: Encodable { var url: String, width: Int }
        struct Entry: Encodable {
            var id: String, name: String, view: String, width: Int, height: Int, sources: [Source], find: FindFacts
        }
        let entries = photos.sorted { ($0.sortInstantMilliseconds ?? .min) > ($1.sortInstantMilliseconds ?? .min) }.map
        { photo in
            let size = ViewerPages.displaySize(photo)
            let sources = ViewerPages.sources(photo, media: media)
            let small = sources.first { $0.width >= 320 } ?? sources.last
            return Entry(
                id: String(photo.id), name: Self.name(photo),
                view: (albumFolders[photo.albumID] ?? "") + "/view/\(photo.id).html",
                width: size.width, height: size.height,
                sources: small.map { [Source(url: HTML.url(Array($0.path.utf8)), width: $0.width)] } ?? [],
                find: FindFacts(photo))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(entries) else {
            throw AlbumError(.output, "cannot encode the timeline data")
        }
        try output.write("window.tesseraPhotos = \(String(decoding: json, as: UTF8.self));\n", to: "timeline.js")
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

    /// What changes a collection's pages: its photos and everything shown of them, which of
    /// their files could be placed, and the options.
    private func fingerprint(_ collection: Collection, placed: [Bool]) -> String {
        // v5: nested albums, sections by density, photos never enlarged.
        var text =
            "v5|\(placed.map { $0 ? "1" : "0" }.joined())|\(options.style)|\(options.copyRenditions)|\(options.originals)|\(options.photosPerPage)|\(options.widths)"
        text += "|\(collection.title)|\(collection.subtitle)|\(options.sections)"
        text +=
            "|\(collection.crumbs.map { "\($0.name)>\($0.href)" }.joined(separator: "/"))|\(collection.children.joined())"
        for photo in collection.photos {
            text +=
                "|\(photo.id)|\(photo.path)|\(photo.albumID)|\(photo.width ?? 0)x\(photo.height ?? 0)|\(photo.orientation ?? 1)"
            text += "|\(photo.renditions.map { "\($0.path):\($0.width)x\($0.height)" }.joined(separator: ","))"
            text += "|\(photo.thumbhash.map { XXH64.hex(XXH64.hash($0)) } ?? "")"
            if let motion = Motion(photo) {
                text +=
                    "|\(motion.badge)|\(motion.playable)|\(String(decoding: photo.livePhotoVideo?.pathBytes ?? [], as: UTF8.self))"
            }
            text += PhotoFact.facts(of: photo).map { "\($0.label)=\($0.value)" }.joined(separator: ";")
        }
        return XXH64.hex(XXH64.hash(Array(text.utf8)))
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

/// What the last build wrote: one fingerprint per collection folder, in `.tessera-album.json`.
struct Manifest: Codable {
    var albums: [String: String] = [:]

    static func load(from output: FilePath) -> Manifest {
        guard let bytes = FileSystem.smallFileContents(output.appending(".tessera-album.json"), limit: 64 << 20),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(bytes))
        else { return Manifest() }
        return manifest
    }

    func save(to output: OutputFolder) throws(AlbumError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(self) else { return }
        try output.write(String(decoding: data, as: UTF8.self), to: ".tessera-album.json")
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
