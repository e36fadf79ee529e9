import SystemPackage
import TesseraIndex
import TesseraLayout
import TesseraSystem

/// One build of the album site, step by step: the albums, what left the index, the months, the
/// files no page refers to any more, and the site's own pages.
///
/// It reads the albums, the months and the index's change counter once, and the last build's
/// manifest; what it gathers on the way (the new manifest, the files albums refer to, the
/// summary) is its own state.
final class SiteBuild {
    private let index: any PhotoReading
    private let output: OutputFolder
    private let options: AlbumBuilder.Options
    private let albums: [AlbumRecord]
    private let months: [(month: String, count: Int)]
    /// The last build's manifest, when it was made with these options.
    private let previous: SiteManifest?
    private var manifest: SiteManifest
    private(set) var summary: AlbumBuilder.Summary
    private let media: MediaFolder
    private let tree: AlbumTree
    private let albumFolders: [Int64: String]
    private let writer: CollectionPages
    /// Files the albums written again or removed let go of, with each rendition's cache file.
    ///
    /// They are removed once every page of the build is written, so a build stopped before
    /// then leaves every page's files in place. Past `Options.removalList` (a new rendition
    /// setting changes every file) the build sweeps instead of remembering them.
    private var gone: [String: String] = [:]
    private var sweepInstead = false

    init(
        index: any PhotoReading, output: OutputFolder, options: AlbumBuilder.Options, optionsKey: String
    )
        throws(AlbumError)
    {
        let counter: Int64
        do {
            (albums, months, counter) = (try index.albums(), try index.months(), try index.changeCounter())
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        self.index = index
        self.output = output
        self.options = options
        summary = AlbumBuilder.Summary(indexPage: output.path("index.html"))
        previous = SiteManifest.load(from: output.root).flatMap { $0.options == optionsKey ? $0 : nil }
        manifest = SiteManifest(options: optionsKey, change: counter)
        media = MediaFolder(
            output: output, copyRenditions: options.copyRenditions, originals: options.originals,
            photos: albums.reduce(0) { $0 + $1.photoCount })
        tree = AlbumTree(albums)
        albumFolders = Dictionary(
            albums.map { ($0.id, "albums/" + AlbumBuilder.folderName($0)) }, uniquingKeysWith: { first, _ in first })
        writer = CollectionPages(
            options: options, media: media, output: output, albumFolders: albumFolders)
    }

    /// Writes what changed since the last build, removes what went, and returns what it did.
    func run(shouldStop: () -> Bool) throws(AlbumError) -> AlbumBuilder.Summary {
        // Marks the folder as Tessera's own output: a scan never walks it, even inside a root.
        try output.writeIfChanged(
            "Written by tessera album build; photo scans skip this folder.\n", to: FileSystem.ownOutputMarker)
        for (name, text) in Assets.files(widths: options.widths) {
            try output.writeIfChanged(text, to: "assets/" + name)
        }
        try writeAlbums(shouldStop: shouldStop)
        try removeGoneAlbums()
        let (years, data) = try writeMonths(shouldStop: shouldStop)
        try removeUnusedFiles()
        summary.linked = media.linked
        summary.copied = media.copied
        summary.missing = media.missing
        let all = AlbumBuilder.count(total: albums.reduce(0) { $0 + $1.photoCount })
        try output.writeIfChanged(
            SitePages.albumList(
                cards: tree.roots.compactMap { card($0, prefix: "") },
                summary: "\(Wording.count(summary.albums, "album")), \(all)"),
            to: "index.html")
        try output.writeIfChanged(SitePages.timeline(years: years, summary: all), to: "timeline.html")
        try output.writeIfChanged(
            try SitePages.findIndex(data, photos: albums.reduce(0) { $0 + $1.photoCount }), to: "find.js")
        if (try? FileSystem.linkStatus(of: output.path("timeline.js"))) != nil { try output.remove("timeline.js") }
        try manifest.save(to: output)
        return summary
    }

    /// An album's card as its parent and the album list show it, from the manifest of this build.
    func card(_ album: AlbumRecord, prefix: String) -> String? {
        guard let folder = albumFolders[album.id], let entry = manifest.albums[folder] else { return nil }
        let range = AlbumBuilder.dateRange(album)
        let children = tree.children[album.id, default: []].count
        return SitePages.card(
            entry.card, href: folder + "/index.html", name: tree.title(album),
            meta: entry.card.count + (children > 0 ? ", " + Wording.count(children, "album") : "")
                + (range.isEmpty ? "" : " · " + range),
            prefix: prefix)
    }

    private func writeAlbums(shouldStop: () -> Bool) throws(AlbumError) {
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
            let children = tree.children[album.id, default: []].compactMap { self.card($0, prefix: Collection.prefix) }
            let range = AlbumBuilder.dateRange(album)
            var frame =
                "\(tree.title(album))|\(range)|\(crumbs.map { "\($0.name)>\($0.href)" }.joined(separator: "/"))|"
            frame = XXH64.hex(XXH64.hash(Array((frame + children.joined()).utf8)))
            if let old, old.id == album.id, old.change == album.contentChange, old.frame == frame, !old.incomplete,
                AlbumBuilder.isPage(output.path(folder + "/index.html"))
            {
                manifest.albums[folder] = old
                summary.albums += 1
                summary.unchanged += 1
                continue
            }
            let photos = try AlbumBuilder.photos(index, .init(albumID: album.id))
            guard !photos.isEmpty else { continue }
            let count = AlbumBuilder.count(photos)
            let missingBefore = media.misses
            media.startRecording()
            let card = SitePages.card(cover: AlbumBuilder.cover(photos), count: count, media: media)
            let oldFiles = AlbumFiles.read(folder, in: output)
            summary.pages += try writer.write(
                Collection(
                    folder: folder + AlbumBuilder.staging, title: tree.title(album),
                    subtitle: count + (range.isEmpty ? "" : " · " + range), photos: photos,
                    crumbs: crumbs, children: children))
            let files = media.finishRecording()
            try AlbumFiles.write(files, folder + AlbumBuilder.staging, in: output)
            try output.replace(folder, with: folder + AlbumBuilder.staging)
            forget(oldFiles, keeping: files)
            manifest.albums[folder] = .init(
                id: album.id, change: album.contentChange, frame: frame, card: card,
                incomplete: media.misses > missingBefore)
            summary.albums += 1
            summary.written += 1
        }
    }

    private func removeGoneAlbums() throws(AlbumError) {
        // Albums gone from the index (or from a site of other options) leave the output with their files.
        for folder in AlbumBuilder.folders(in: "albums", of: output).subtracting(manifest.albums.keys).sorted() {
            // What a build stopped half-way left is not an album: its files are the album's own.
            if !folder.hasSuffix(AlbumBuilder.staging) && !folder.hasSuffix(".retired") {
                forget(AlbumFiles.read(folder, in: output), keeping: [:])
            }
            try output.remove(folder)
            try output.remove("originals/" + folder.dropFirst("albums/".count))
        }
    }

    /// The months, newest first: each written again when the index marks it changed since its
    /// pages were written; returns their cards by year and their `photos.js` with what Find
    /// knows of each, for the timeline.
    private func writeMonths(
        shouldStop: () -> Bool
    ) throws(AlbumError)
        -> (years: [(year: String, cards: [String])], data: [(file: String, find: MonthFind)])
    {
        var years: [(year: String, cards: [String])] = []
        var data: [(file: String, find: MonthFind)] = []
        // Months: written again when the index marks them changed since the pages were written.
        let changedMonths: Set<String>
        do {
            changedMonths =
                try previous.map { previous throws(IndexError) in try index.monthChanges(since: previous.change) } ?? []
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        for (month, _) in months {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every month was written") }
            let folder = "months/" + month
            let title = FriendlyDate.section(month)
            if let old = previous?.months[month], !changedMonths.contains(month), !old.incomplete,
                AlbumBuilder.isPage(output.path(folder + "/index.html"))
            {
                manifest.months[month] = old
                summary.unchanged += 1
            } else {
                let photos = try AlbumBuilder.photos(index, .init(month: month)).filter {
                    albumFolders[$0.albumID] != nil
                }
                guard !photos.isEmpty else { continue }
                let missingBefore = media.misses
                let count = AlbumBuilder.count(photos)
                media.startRecording()
                let card = SitePages.card(cover: AlbumBuilder.cover(photos), count: count, media: media)
                summary.pages += try writer.write(
                    Collection(
                        folder: folder + AlbumBuilder.staging, title: title, subtitle: count, photos: photos))
                // (a month's files are its albums' own: recorded there)
                _ = media.finishRecording()
                try output.replace(folder, with: folder + AlbumBuilder.staging)
                manifest.months[month] = .init(
                    card: card, incomplete: media.misses > missingBefore, find: MonthFind(photos))
                summary.written += 1
            }
            guard let entry = manifest.months[month] else { continue }
            summary.months += 1
            data.append((folder + "/photos.js", entry.find))
            let year = String(month.prefix(4))
            let card = SitePages.card(entry.card, href: folder + "/index.html", name: title, meta: entry.card.count)
            if years.last?.year == year {
                years[years.count - 1].cards.append(card)
            } else {
                years.append((year, [card]))
            }
        }
        for folder in AlbumBuilder.folders(in: "months", of: output).subtracting(
            manifest.months.keys.map { "months/" + $0 })
        {
            try output.remove(folder)
        }
        return (years, data)
    }

    /// Notes what an album's pages referred to before (`old`) and refer to no more.
    private func forget(_ old: [String: String], keeping kept: [String: String]) {
        guard !sweepInstead else { return }
        for (path, cache) in old where kept[path] == nil { gone[path] = cache }
        if gone.count > options.removalList {
            (sweepInstead, gone) = (true, [:])
        }
    }

    /// Removes what no page of this build refers to: after a build that wrote every album (or
    /// let go of too many files to list), whatever in media/ and originals/ none placed; else
    /// the files the albums written again or removed let go of, unless a page of the build
    /// refers to them or they are renditions of a photo still shown (a copy in an album left as
    /// it was).
    private func removeUnusedFiles() throws(AlbumError) {
        if previous == nil || summary.unchanged == 0 || sweepInstead {
            // Albums left as they were placed nothing in this build: their lists say what they show.
            if summary.unchanged > 0 {
                for folder in manifest.albums.keys { media.keep(AlbumFiles.read(folder, in: output).keys) }
            }
            summary.removed += media.sweep()
            return
        }
        guard !gone.isEmpty else { return }
        let shown: Set<String>
        do {
            shown = try index.shownRenditions(among: gone.values.filter { !$0.isEmpty })
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        summary.removed += media.remove(gone.filter { !shown.contains($0.value) }.keys.sorted())
    }
}
