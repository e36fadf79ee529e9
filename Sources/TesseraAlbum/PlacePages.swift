import Foundation
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// The Places pages (docs/PLACES.md): `places.html`, the countries; a collection of its own for
/// each country, region and town (`places/<name>`), each with the cards of the places within
/// it, a cover, a count and its photos newest first.
///
/// A place's pages are written again only when what they show changed: its photos, their
/// albums' changes, or the places within it (a signature kept in its folder). The whole is left
/// as it was when the index has not changed since it was written (`places/key.txt`).
struct PlacePages {
    let index: any PhotoReading
    let output: OutputFolder
    let writer: CollectionPages
    let media: MediaFolder
    let tree: AlbumTree
    /// The index's change counter and the site's options: what the pages depend on.
    let key: String
    /// Write every place's pages again (the build sweeps the files no page it wrote refers to).
    let force: Bool

    /// One country, region or town, with the places within it.
    private final class Node {
        let name: String
        let filter: PlaceFilter
        var count = 0
        var children: [String: Node] = [:]

        init(name: String, filter: PlaceFilter) {
            (self.name, self.filter) = (name, filter)
        }
    }

    private var pages: LinkedPhotoPages {
        LinkedPhotoPages(index: index, output: output, writer: writer, media: media, tree: tree)
    }

    /// What the build's summary says of the places: nil when left as they were.
    func run(shouldStop: () -> Bool) throws(AlbumError) -> Int? {
        if !force, FileSystem.smallFileContents(output.path("places/key.txt"), limit: 4096) == Array(key.utf8),
            AlbumBuilder.isPage(output.path("places.html"))
        {
            return nil
        }
        let counts: [PlaceCount]
        do {
            counts = try index.placeCounts(writer.options.shown(PhotoQuery()))
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        let changes = try pages.albumChanges()
        try output.directory("places")
        var written: Set<String> = []
        var cards: [String] = []
        var total = 0
        for country in Self.tree(counts).values.sorted(by: Self.order) {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every place was written") }
            if let placed = try write(country, crumbs: [], changes: changes, written: &written) {
                cards.append(placed.html(prefix: ""))
                total += placed.photos
            }
        }
        for folder in AlbumBuilder.folders(in: "places", of: output).subtracting(written)
        where !folder.hasSuffix("/key.txt") {
            try output.remove(folder)
        }
        try output.writeIfChanged(Self.list(cards, photos: total), to: "places.html")
        try output.write(key, to: "places/key.txt")
        return total
    }

    /// Countries, their regions and their towns, from the places' counts.
    private static func tree(_ counts: [PlaceCount]) -> [String: Node] {
        var countries: [String: Node] = [:]
        for place in counts {
            let countryKey = place.countryCode + "\u{1F}" + place.country
            let country =
                countries[countryKey]
                ?? Node(
                    name: place.country.isEmpty ? "Unknown country" : place.country,
                    filter: PlaceFilter(countryCode: place.countryCode, country: place.country))
            countries[countryKey] = country
            country.count += place.count
            var parent = country
            if let region = place.region {
                let node =
                    parent.children[region]
                    ?? Node(
                        name: region,
                        filter: PlaceFilter(countryCode: place.countryCode, country: place.country, region: region))
                parent.children[region] = node
                node.count += place.count
                parent = node
            }
            if let locality = place.locality {
                let node =
                    parent.children["\u{1F}" + locality]
                    ?? Node(
                        name: locality,
                        filter: PlaceFilter(
                            countryCode: place.countryCode, country: place.country, region: place.region ?? "",
                            locality: locality))
                parent.children["\u{1F}" + locality] = node
                node.count += place.count
            }
        }
        return countries
    }

    /// Most photos first, then by name.
    private static func order(_ a: Node, _ b: Node) -> Bool {
        (-a.count, a.name) < (-b.count, b.name)
    }

    /// A place's card, as the page above it shows it.
    private struct Placed: Codable {
        var card: Card
        var folder: String
        var name: String
        var photos: Int

        /// The card's HTML on a page `prefix` from the output.
        func html(prefix: String) -> String {
            SitePages.card(card, href: folder + "/index.html", name: name, meta: card.count, prefix: prefix)
        }
    }

    /// Writes `node`'s pages (after those of the places within it) unless they show what they
    /// showed; returns its card for the page above it.
    private func write(
        _ node: Node, crumbs: [(name: String, folder: String)], changes: [Int64: Int64], written: inout Set<String>
    ) throws(AlbumError) -> Placed? {
        let folder = "places/" + Self.folderName(node.filter)
        var childCards: [String] = []
        for child in node.children.values.sorted(by: Self.order) {
            if let placed = try write(
                child, crumbs: crumbs + [(node.name, folder)], changes: changes, written: &written)
            {
                childCards.append(placed.html(prefix: Collection.prefix))
            }
        }
        var query = writer.options.shown(PhotoQuery())
        query.placeFilter = node.filter
        let photos = try AlbumBuilder.outlines(index, query, expected: node.count)
        let shown = try tree.folders(of: Set(photos.map(\.albumID)))
        let outlines = photos.filter { shown[$0.albumID] != nil }
        guard !outlines.isEmpty else { return nil }
        written.insert(folder)
        let count = AlbumBuilder.count(outlines)
        let signature = LinkedPhotoPages.signature(
            outlines, changes: changes, texts: childCards + [key.split(separator: "|").dropFirst().joined()])
        if let placed: Placed = pages.stored(folder, signature: signature, force: force) { return placed }
        var collection = Collection(folder: folder, title: node.name, subtitle: count, photos: [])
        collection.root = ("Places", "places.html")
        collection.crumbs = crumbs.map { ($0.name, Collection.prefix + $0.folder + "/index.html") }
        media.start(recording: false)
        let above =
            childCards.isEmpty
            ? ""
            : "<section class=\"children\"><h2>Places</h2><div class=\"albums\">"
                + childCards.joined(separator: "\n") + "</div></section>"
        let cover = try pages.write(
            collection, above: above, photos: node.filter.locality != nil ? outlines : [],
            coverFrom: outlines.prefix(LinkedPhotoPages.perPage))
        let placed = Placed(
            card: SitePages.card(cover: cover, count: count, media: media), folder: folder, name: node.name,
            photos: outlines.count)
        try pages.finish(folder, card: placed, signature: signature)
        return placed
    }

    /// A place's folder name: its names in lower-case ASCII (as far as they go) and a short hash
    /// of them, unique whatever the names hold.
    static func folderName(_ filter: PlaceFilter) -> String {
        let parts = [filter.countryCode.isEmpty ? filter.country : filter.countryCode, filter.region, filter.locality]
            .compactMap { $0 }
        let words = parts.map { PlaceName.searchKey($0) }.joined(separator: "-")
        var readable = String(
            words.unicodeScalars.map {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "-"
            })
        readable = readable.split(separator: "-").joined(separator: "-").prefix(48).lowercased()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1F}").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return (readable.isEmpty ? "place" : readable) + "-" + String(hash & 0xFF_FFFF, radix: 16)
    }

    /// `places.html`: the countries' cards.
    private static func list(_ cards: [String], photos: Int) -> String {
        let summary =
            photos == 0
            ? "No photo has a place yet: a place comes from a photo's position or its own words."
            : "\(AlbumBuilder.count(total: photos)) with a place, in \(cards.count) "
                + (cards.count == 1 ? "country" : "countries")
        return HTML.document(
            title: "Places",
            body: """
                <header>\(SitePages.crumbs)<h1>Places</h1><p>\(HTML.escape(summary))</p></header>
                <main class="albums">
                \(cards.joined(separator: "\n"))
                </main>
                <footer class="credit"><p>Place names: <a href="https://www.geonames.org/">GeoNames</a>, \
                <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>.</p></footer>
                """, depth: "")
    }
}
