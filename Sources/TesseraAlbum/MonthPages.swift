import TesseraIndex
import TesseraSystem

/// The timeline's months, newest first, written with files and state of their own so that
/// they can be written on a second thread while the albums are (`SiteBuild`): each month is
/// written again when the index marks it changed since its pages were written.
final class MonthPages {
    /// What the months' writing leaves for the rest of the build.
    struct Result: Sendable {
        var manifest: [String: SiteManifest.Month] = [:]
        /// The months' cards by year, for the timeline.
        var years: [(year: String, cards: [String])] = []
        /// Each month's `photos.js` with its key, its title and what Find knows of it.
        var data: [(file: String, month: String, title: String, find: MonthFind)] = []
        var months = 0, written = 0, unchanged = 0, pages = 0
        /// Files this writer placed, by how.
        var linked = 0, copied = 0
    }

    private let index: any PhotoReading
    private let output: OutputFolder
    private let months: [(month: String, count: Int)]
    /// The last build's months, and the index's change counter its pages show.
    private let previous: [String: SiteManifest.Month]?
    private let change: Int64?
    private let tree: AlbumTree
    private let media: MediaFolder
    private let writer: CollectionPages

    /// - Parameter output: this writer's own view of the build's output.
    init(
        index: any PhotoReading, output: OutputFolder, options: AlbumBuilder.Options,
        months: [(month: String, count: Int)], previous: [String: SiteManifest.Month]?, change: Int64?,
        tree: AlbumTree, placed: PlacedFiles
    ) {
        self.index = index
        self.output = output
        self.months = months
        self.previous = previous
        self.change = change
        self.tree = tree
        media = MediaFolder(
            output: output, copyRenditions: options.copyRenditions, originals: options.originals, placed: placed)
        writer = CollectionPages(
            options: options, media: media, output: output, folders: AlbumFolders(tree: tree), index: index)
    }

    /// A month's folder: `months/YYYY-MM`, or `months/undated` for the photos without a date.
    static func folder(_ month: String) -> String {
        "months/" + (month.isEmpty ? "undated" : month)
    }

    /// "July 2023", or "Undated".
    static func title(_ month: String) -> String {
        month.isEmpty ? "Undated" : FriendlyDate.section(month)
    }

    func run(shouldStop: () -> Bool) throws(AlbumError) -> Result {
        var result = Result()
        let changedMonths: Set<String>
        do {
            changedMonths =
                try change.map { change throws(IndexError) in try index.monthChanges(since: change) } ?? []
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        // (as the albums' folder: a month is left as it was only when its page is in the output)
        try output.directory("months")
        for (position, (month, count)) in months.enumerated() {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every month was written") }
            let folder = Self.folder(month)
            let title = Self.title(month)
            let beside = [position - 1, position + 1].map { months.indices.contains($0) ? months[$0].month : nil }
            // (by folder: the undated month's key is "", as is no month)
            let neighbours = beside.map { $0.map(Self.folder) ?? "" }
            if let old = previous?[month], !changedMonths.contains(month), !old.incomplete,
                old.neighbours == neighbours,
                AlbumBuilder.isPage(output.path(folder + "/index.html"))
            {
                result.manifest[month] = old
                result.unchanged += 1
            } else {
                // (the outlines in the collection alone: its writer lets them go once laid out)
                var collection = Collection(
                    folder: folder + AlbumBuilder.staging, title: title, subtitle: "",
                    photos: try AlbumBuilder.outlines(index, writer.options.shown(.init(month: month)), expected: count)
                )
                let shown = try tree.folders(of: Set(collection.photos.map(\.albumID)))
                collection.photos.removeAll { shown[$0.albumID] == nil }
                guard !collection.photos.isEmpty else { continue }
                let missingBefore = media.misses
                let count = AlbumBuilder.count(collection.photos)
                collection.subtitle = count
                media.start(recording: false)
                collection.neighbours = zip(["prev", "next"], beside).compactMap { rel, other in
                    other.map {
                        (
                            rel, Self.title($0),
                            "../" + String(Self.folder($0).dropFirst("months/".count)) + "/index.html"
                        )
                    }
                }
                let written = try writer.write(&collection)
                let card = SitePages.card(cover: written.cover.photo, count: count, media: media)
                try output.replace(folder, with: folder + AlbumBuilder.staging)
                result.manifest[month] = .init(
                    card: card, incomplete: media.misses > missingBefore, find: written.find, neighbours: neighbours)
                result.pages += written.pages
                result.written += 1
            }
            guard let entry = result.manifest[month] else { continue }
            result.months += 1
            result.data.append((folder + "/photos.js", month, title, entry.find))
            let year = month.isEmpty ? "Undated" : String(month.prefix(4))
            let card = SitePages.card(entry.card, href: folder + "/index.html", name: title, meta: entry.card.count)
            if result.years.last?.year == year {
                result.years[result.years.count - 1].cards.append(card)
            } else {
                result.years.append((year, [card]))
            }
        }
        for folder in AlbumBuilder.folders(in: "months", of: output).subtracting(
            result.manifest.keys.map(Self.folder))
        {
            try output.remove(folder)
        }
        (result.linked, result.copied) = (media.linked, media.copied)
        return result
    }
}
