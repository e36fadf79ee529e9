import SystemPackage
import TesseraFacts
import TesseraIndex
import TesseraLayout
import TesseraSystem

/// One build of the album site, step by step: the albums, what left the index, the months, the
/// files no page refers to any more, and the site's own pages.
///
/// It reads the months and the index's change counter once, and makes the folder tree in the
/// site's state (`SiteState`, `AlbumTree`), where each album's entry is kept as its pages are
/// put in place; what else it gathers on the way (the files albums refer to, the summary) is
/// its own state. The months are written on a second thread while the albums are, in a second
/// read of the index that sees the same state (`MonthPages`).
final class SiteBuild {
    private let index: any PhotoReading
    /// Where a second read of the index comes from, for the months' thread.
    private let store: (any PhotoStore)?
    private let counter: Int64
    private let output: OutputFolder
    private let options: AlbumBuilder.Options
    private let months: [(month: String, count: Int)]
    /// The last build's entries and this build's tree.
    private let state: SiteState
    /// The last build's months, when it was made with these options.
    private let previousMonths: [String: SiteManifest.Month]?
    private(set) var summary: AlbumBuilder.Summary
    private let media: MediaFolder
    private let placed: PlacedFiles
    private let tree: AlbumTree
    /// Files the albums written again or removed let go of, with each rendition's cache file.
    ///
    /// They are removed once every page of the build is written, so a build stopped before
    /// then leaves every page's files in place; listed in the output as they are let go of, so
    /// the next build removes them when this one does not get that far. Past
    /// `Options.removalList` (a new rendition setting changes every file) the build sweeps
    /// instead of remembering them.
    private var gone: [String: String] = [:]
    private var sweepInstead = false
    /// What the pages are made with (`AlbumBuilder.optionsKey`).
    private let optionsKey: String

    init(
        index: any PhotoReading, store: (any PhotoStore)?, output: OutputFolder, options: AlbumBuilder.Options,
        optionsKey: String
    )
        throws(AlbumError)
    {
        do {
            // (a private album's pages have no months)
            months = options.onlyAlbumIDs != nil ? [] : try index.months(withheld: options.withheldAlbumIDs)
            counter = try index.changeCounter()
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        self.index = index
        self.store = store
        self.output = output
        self.options = options
        // (the albums left out by number, hashed: their names are not written in the site's state)
        self.optionsKey =
            options.withheldAlbumIDs.isEmpty
            ? optionsKey
            : optionsKey + "|withheld "
                + XXH64.hex(XXH64.hash(Array(options.withheldAlbumIDs.map(String.init).joined(separator: ",").utf8)))
        summary = AlbumBuilder.Summary(indexPage: output.path("index.html"))
        state = try SiteState(output: output, options: self.optionsKey)
        previousMonths = state.matches ? try state.months() : nil
        // What a build that failed let go of (without a manifest of these options, all is swept).
        gone = AlbumFiles.gone(in: output)
        if gone.count > options.removalList { (sweepInstead, gone) = (true, [:]) }
        let (withheld, only) = (Set(options.withheldAlbumIDs), options.onlyAlbumIDs)
        tree = try AlbumTree(index: index, state: state, order: options.order) { (id: Int64) in
            !withheld.contains(id) && only?.contains(id) ?? true
        }
        placed = PlacedFiles(removing: ["media", "originals"].contains { FileSystem.hasEntries(output.path($0)) })
        media = MediaFolder(
            output: output, copyRenditions: options.copyRenditions, originals: options.originals, placed: placed)
    }

    /// Writes what changed since the last build, removes what went, and returns what it did.
    func run(shouldStop: @escaping @Sendable () -> Bool) throws(AlbumError) -> AlbumBuilder.Summary {
        defer { state.close() }
        // Marks the folder as Tessera's own output: a scan never walks it, even inside a root.
        try output.writeIfChanged(
            "Written by tessera album build; photo scans skip this folder.\n", to: FileSystem.ownOutputMarker)
        for (name, text) in Assets.files(staticWidth: options.staticWidth) {
            try output.writeIfChanged(text, to: "assets/" + name)
        }
        // A link where the albums' folder belongs goes first: an album is left as it was only when
        // its page is in the output itself, whichever album is looked at first.
        try output.directory("albums")
        // A private album's pages, to be sealed (`PrivateSite`): its albums and nothing else.
        if options.onlyAlbumIDs != nil {
            try writeAlbums(shouldStop: shouldStop)
            return summary
        }
        let months = try writeMonths(shouldStop: shouldStop) { () throws(AlbumError) in
            try writeAlbums(shouldStop: shouldStop)
            try removeGoneAlbums()
        }
        summary.months = months.months
        summary.written += months.written
        summary.unchanged += months.unchanged
        summary.pages += months.pages
        media.absorb(linked: months.linked, copied: months.copied)
        // The Places and People pages: photos that link to the albums' viewers.
        let writer = CollectionPages(
            options: options, media: media, output: output, folders: AlbumFolders(tree: tree), index: index)
        let key = "\(counter)|\(optionsKey)"
        summary.placesShown = try PlacePages(
            index: index, output: output, writer: writer, media: media, tree: tree, key: key, force: sweeps
        ).run(shouldStop: shouldStop)
        summary.peopleShown = try PeoplePages(
            index: index, output: output, writer: writer, media: media, tree: tree, key: key, force: sweeps
        ).run(shouldStop: shouldStop)
        try removeUnusedFiles()
        summary.linked = media.linked
        summary.copied = media.copied
        summary.missing = placed.missing
        let (years, data) = (months.years, months.data)
        // What the albums show (a stack once, copies once), as their cards count it.
        var photoCount = 0
        for root in try tree.roots() where root.shown {
            if let entry = try state.album(root.folder) { photoCount += entry.stills + entry.videos }
        }
        let all = AlbumBuilder.count(total: photoCount)
        let lists = SitePages.albumList(
            cards: try cards(try tree.roots(), prefix: ""),
            summary: "\(Wording.count(summary.albums, "album")), \(all)",
            perPage: options.photosPerPage)
        for (number, page) in lists.enumerated() {
            try output.writeIfChanged(page, to: SitePages.albumListFile(number))
        }
        // (and the pages a longer list had)
        var stale = lists.count
        while (try? FileSystem.linkStatus(of: output.path(SitePages.albumListFile(stale)))) != nil {
            try output.remove(SitePages.albumListFile(stale))
            stale += 1
        }
        try output.writeIfChanged(
            SitePages.timeline(years: years, summary: all, newest: data.first?.file), to: "timeline.html")
        try output.writeIfChanged(
            try SitePages.findIndex(data, photos: photoCount), to: "find.js")
        if (try? FileSystem.linkStatus(of: output.path("timeline.js"))) != nil { try output.remove("timeline.js") }
        // (after the albums: the map's thumbnails are the squares their pages placed)
        summary.mapped = try MapPages(
            index: index, output: output, options: options, tree: tree, key: "\(counter)|\(optionsKey)"
        )
        .run().photos
        try state.removeAlbums(keeping: tree)
        try state.finish(months: months.manifest, old: previousMonths ?? [:], change: counter)
        return summary
    }

    /// The cards of those of `nodes` this build has pages of.
    private func cards(_ nodes: [AlbumTree.Node], prefix: String) throws(AlbumError) -> [String] {
        var cards: [String] = []
        for node in nodes where node.shown {
            if let card = try card(node, prefix: prefix) { cards.append(card) }
        }
        return cards
    }

    /// A node's card as its parent and the album list show it, from its entry of this build.
    private func card(_ node: AlbumTree.Node, prefix: String) throws(AlbumError) -> String? {
        guard let entry = try state.album(node.folder) else { return nil }
        let range = node.range
        let children = try tree.children(of: node).filter(\.shown).count
        return SitePages.card(
            entry.card, href: node.folder + "/index.html", name: node.title,
            meta: entry.card.count + (children > 0 ? ", " + Wording.count(children, "album") : "")
                + (range.isEmpty ? "" : " · " + range),
            prefix: prefix)
    }

    private func writeAlbums(shouldStop: @Sendable () -> Bool) throws(AlbumError) {
        // Deepest first: each node is drawn with the cards of the albums inside it as this build
        // leaves them. An album is written again when its photos changed (the index's change
        // counter says so without reading them), when what surrounds them on its pages changed,
        // or when its pages or some of its files are not in place.
        let writer = CollectionPages(
            options: options, media: media, output: output, folders: AlbumFolders(tree: tree), index: index)
        try tree.forEachNode { album throws(AlbumError) in
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every album was written") }
            let folder = album.folder
            let old = state.matches ? try state.album(folder) : nil
            let crumbs = try tree.ancestors(of: album).map { ancestor in
                (name: ancestor.title, href: Collection.prefix + ancestor.folder + "/index.html")
            }
            let inside = try tree.children(of: album).filter(\.shown)
            let children = try cards(inside, prefix: Collection.prefix)
            let range = album.isFolder ? album.range : AlbumBuilder.dateRange(album.album)
            // (hashed a card at a time: a folder of a thousand albums is not copied whole for it)
            var hasher = XXH64.Hasher()
            let trail = crumbs.map { "\($0.name)>\($0.href)" }.joined(separator: "/")
            for var part in ["\(album.title)|\(range)|\(trail)|"] + children {
                part.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
            }
            let frame = XXH64.hex(hasher.finalize())
            if let old, old.id == album.id, old.change == album.album.contentChange, old.frame == frame,
                !old.incomplete, AlbumBuilder.isPage(output.path(folder + "/index.html"))
            {
                try tree.markShown(album)
                // (an albums-only build lists every album it holds, unchanged ones too)
                if options.onlyAlbumIDs != nil { summary.folders.append((album.album.name, folder)) }
                summary.albums += 1
                summary.unchanged += 1
                return
            }
            // (the outlines in the collection alone: its writer lets them go once laid out)
            var collection = Collection(
                folder: folder + AlbumBuilder.staging, title: album.title, subtitle: "",
                photos: album.isFolder
                    ? []
                    : try AlbumBuilder.outlines(
                        index, options.shown(.init(albumID: album.id)), expected: album.album.photoCount),
                crumbs: crumbs, children: children)
            guard !collection.photos.isEmpty || !inside.isEmpty else { return }
            // What it holds, and with the albums inside it, what its card counts.
            let videos = collection.photos.lazy.filter(\.isVideo).count
            var total = (stills: collection.photos.count - videos, videos: videos)
            var covers: [AlbumTree.Node] = []
            for child in inside {
                guard let entry = try state.album(child.folder) else { continue }
                (total.stills, total.videos) = (total.stills + entry.stills, total.videos + entry.videos)
                covers.append(child)
            }
            let count = AlbumBuilder.count(stills: total.stills, videos: total.videos)
            let missingBefore = media.misses
            media.start(recording: true)
            let oldFiles = AlbumFiles.read(folder, in: output)
            collection.subtitle =
                (album.isFolder ? count : AlbumBuilder.count(collection.photos)) + (range.isEmpty ? "" : " · " + range)
            let written = try writer.write(&collection)
            summary.pages += written.pages
            let card: Card
            if album.isFolder {
                var mosaic: [Card] = []
                for child in tree.newestFirst(covers) {
                    if let entry = try state.album(child.folder) { mosaic.append(entry.card) }
                }
                card = SitePages.mosaic(mosaic, count: count)
            } else {
                card = SitePages.card(cover: written.cover.photo, count: count, media: media)
            }
            let files = media.finishRecording()
            try AlbumFiles.write(files, folder + AlbumBuilder.staging, in: output)
            try forget(oldFiles, keeping: files)
            try output.replace(folder, with: folder + AlbumBuilder.staging)
            try state.setAlbum(
                folder,
                .init(
                    id: album.id, change: album.album.contentChange, frame: frame, card: card, stills: total.stills,
                    videos: total.videos, incomplete: media.misses > missingBefore),
                old: old)
            try tree.markShown(album)
            if options.onlyAlbumIDs != nil { summary.folders.append((album.album.name, folder)) }
            summary.albums += 1
            summary.written += 1
        }
    }

    private func removeGoneAlbums() throws(AlbumError) {
        // Albums gone from the index (or from a site of other options) leave the output with their files.
        var gone: [String] = []
        try AlbumBuilder.forEachFolder(in: "albums", of: output) { folder throws(AlbumError) in
            if try !tree.isShown(folder: folder) { gone.append(folder) }
        }
        for folder in gone.sorted() {
            // What a build stopped half-way left is not an album: its files are the album's own.
            if !folder.hasSuffix(AlbumBuilder.staging) && !folder.hasSuffix(".retired") {
                try forget(AlbumFiles.read(folder, in: output), keeping: [:])
            }
            try output.remove(folder)
            try output.remove("originals/" + folder.dropFirst("albums/".count))
        }
    }

    /// Writes the months on a thread of their own while `albums` runs on this one, in a second
    /// read of the index; on this thread afterwards, in the build's own read, when that second
    /// read sees another state (a scan committed in between) or there is no store to read again.
    private func writeMonths(
        shouldStop: @escaping @Sendable () -> Bool, besides albums: () throws(AlbumError) -> Void
    ) throws(AlbumError) -> MonthPages.Result {
        let (options, months, previous, tree, root, counter, placed) = (
            self.options, self.months, self.previousMonths, self.tree, output.root, self.counter, self.placed
        )
        let change = previous == nil ? nil : state.change
        let pages = { @Sendable (index: any PhotoReading) in
            MonthPages(
                index: index, output: OutputFolder(root: root), options: options, months: months, previous: previous,
                change: change, tree: tree, placed: placed)
        }
        guard let store else {
            try albums()
            return try pages(index).run(shouldStop: shouldStop)
        }
        let outcome = Condition<Result<MonthPages.Result?, AlbumError>?>(nil)
        let abandoned = Condition(false)
        let thread = DedicatedThread.start("album months") {
            let result: Result<MonthPages.Result?, AlbumError>
            do {
                result = .success(
                    try store.snapshot { second in
                        guard try second.changeCounter() == counter else { return nil }
                        return try pages(second).run(shouldStop: { shouldStop() || abandoned.withLock { $0 } })
                    })
            } catch let error as AlbumError {
                result = .failure(error)
            } catch {
                result = .failure(AlbumError(.index, "\(error)"))
            }
            outcome.withLock { $0 = result }
        }
        do throws(AlbumError) {
            try albums()
        } catch {
            abandoned.withLock { $0 = true }
            thread.join()
            throw error
        }
        thread.join()
        switch outcome.withLock({ $0 }) {
        case .success(let written?)?: return written
        case .failure(let error)?: throw error
        case .success(nil)?, nil: return try pages(index).run(shouldStop: shouldStop)
        }
    }

    /// Notes what an album's pages referred to before (`old`) and refer to no more, in the
    /// output too (`AlbumFiles.goneList`), before the album's new pages replace the old.
    private func forget(_ old: [String: String], keeping kept: [String: String]) throws(AlbumError) {
        guard !sweepInstead else { return }
        let letGo = old.filter { kept[$0.key] == nil }
        gone.merge(letGo) { _, new in new }
        if gone.count > options.removalList {
            (sweepInstead, gone) = (true, [:])
        } else {
            try AlbumFiles.addGone(letGo, in: output)
        }
    }

    /// Whether `removeUnusedFiles` sweeps: every file no page of this build placed goes.
    private var sweeps: Bool {
        placed.removing && (!state.matches || summary.unchanged == 0 || sweepInstead)
    }

    /// Removes what no page of this build refers to: after a build that wrote every album (or
    /// let go of too many files to list), whatever in media/ and originals/ none placed; else
    /// the files the albums written again or removed let go of, unless a page of the build
    /// refers to them or they are renditions of a photo still shown (a copy in an album left as
    /// it was).
    private func removeUnusedFiles() throws(AlbumError) {
        if !placed.removing {
            // The output held no files when the build began: every file in it is this build's.
        } else if sweeps {
            // Albums left as they were placed nothing in this build: their lists say what they show.
            if summary.unchanged > 0 {
                try tree.forEachShownFolder { folder in media.keep(AlbumFiles.read(folder, in: output).keys) }
            }
            summary.removed += media.sweep()
        } else if !gone.isEmpty {
            let shown: Set<String>
            do {
                shown = try index.shownRenditions(among: gone.values.filter { !$0.isEmpty })
            } catch {
                throw AlbumError(.index, "\(error)")
            }
            summary.removed += media.remove(gone.filter { !shown.contains($0.value) }.keys.sorted())
        }
        if (try? FileSystem.linkStatus(of: output.path(AlbumFiles.goneList))) != nil {
            try output.remove(AlbumFiles.goneList)
        }
    }
}
