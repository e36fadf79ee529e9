import Foundation
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// The People pages (docs/PEOPLE.md): `people.html`, a card for each person the site shows
/// (their face, their name, how many photos), and a collection of its own for each
/// (`people/<name>-<id>`), their photos newest first.
///
/// Whom it shows is the `people` option: the named (by default), everyone the faces were
/// grouped into, or no one; never a hidden person or face. A person's pages are written again
/// only when what they show changed (a signature kept in their folder), and the whole is left as
/// it was when the index has not changed since it was written (`people/key.txt`).
struct PeoplePages {
    let index: any PhotoReading
    let output: OutputFolder
    let writer: CollectionPages
    let media: MediaFolder
    let tree: AlbumTree
    /// The index's change counter and the site's options: what the pages depend on.
    let key: String
    /// Write every person's pages again.
    let force: Bool

    private var pages: LinkedPhotoPages {
        LinkedPhotoPages(index: index, output: output, writer: writer, media: media, tree: tree)
    }

    /// A person's card, as `people.html` shows it.
    private struct Shown: Codable {
        var card: Card
        var folder: String
        var name: String
        var photos: Int
    }

    /// What the build's summary says of the people: nil when left as they were.
    func run(shouldStop: () -> Bool) throws(AlbumError) -> Int? {
        if !force, FileSystem.smallFileContents(output.path("people/key.txt"), limit: 4096) == Array(key.utf8),
            AlbumBuilder.isPage(output.path("people.html"))
        {
            return nil
        }
        let choice = writer.options.people
        var people: [PersonCount] = []
        if choice != .none {
            do {
                people = try index.personCounts(writer.options.shown(PhotoQuery()), unnamed: choice == .all)
            } catch {
                throw AlbumError(.index, "\(error)")
            }
        }
        let changes = try pages.albumChanges()
        try output.directory("people")
        var written: Set<String> = []
        var cards: [String] = []
        var total = 0
        // The named first, then by photos.
        let order = { (person: PersonCount) in (person.name == nil ? 1 : 0, -person.count, person.id) }
        for person in people.sorted(by: { order($0) < order($1) }) {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every person was written") }
            if let shown = try write(person, changes: changes) {
                written.insert(shown.folder)
                cards.append(
                    SitePages.card(
                        shown.card, href: shown.folder + "/index.html", name: shown.name,
                        meta: shown.card.count))
                total += shown.photos
            }
        }
        for folder in AlbumBuilder.folders(in: "people", of: output).subtracting(written)
        where !folder.hasSuffix("/key.txt") {
            try output.remove(folder)
        }
        try output.writeIfChanged(Self.list(cards, choice: choice), to: "people.html")
        try output.write(key, to: "people/key.txt")
        return total
    }

    /// Writes `person`'s pages and face unless they show what they showed; returns their card.
    private func write(_ person: PersonCount, changes: [Int64: Int64]) throws(AlbumError) -> Shown? {
        let name = person.name ?? "Person \(person.id)"
        let folder = "people/" + Self.folderName(name, id: person.id)
        var query = writer.options.shown(PhotoQuery())
        query.personID = person.id
        let photos = try AlbumBuilder.outlines(index, query, expected: person.count)
        let shown = try tree.folders(of: Set(photos.map(\.albumID)))
        let outlines = photos.filter { shown[$0.albumID] != nil }
        guard !outlines.isEmpty else { return nil }
        let face = try pages.records(ids: [person.photoID]).first.flatMap { Self.facePicture($0, person) }
        let box = "\(person.photoID) \(person.x) \(person.y) \(person.width) \(person.height) \(face?.path ?? "")"
        let signature = LinkedPhotoPages.signature(
            outlines, changes: changes, texts: [name, box, key.split(separator: "|").dropFirst().joined()])
        if let shown: Shown = pages.stored(folder, signature: signature, force: force) { return shown }
        var collection = Collection(folder: folder, title: name, subtitle: AlbumBuilder.count(outlines), photos: [])
        collection.root = ("People", "people.html")
        media.start(recording: false)
        _ = try pages.write(collection, above: "", photos: outlines, coverFrom: [])
        var card = Card(cover: [], count: collection.subtitle)
        if let face, let bytes = face.crop() {
            try output.write(bytes: bytes, to: folder + AlbumBuilder.staging + "/face.jpg")
            card.cover = [ImageSources.Candidate(path: folder + "/face.jpg", descriptor: FacePicture.side)]
        }
        let entry = Shown(card: card, folder: folder, name: name, photos: outlines.count)
        try pages.finish(folder, card: entry, signature: signature)
        return entry
    }

    /// The face of `person` in `photo`, to be cut from its smallest preview that shows it at
    /// the card's size (or its largest).
    private static func facePicture(_ photo: PhotoRecord, _ person: PersonCount) -> FacePicture? {
        let fits = photo.renditions.filter { $0.spec.kind == .fit }.sorted { $0.width < $1.width }
        let needed = { (fit: RenditionEntry) in
            FacePicture.context * max(person.width * Double(fit.width), person.height * Double(fit.height))
                >= Double(FacePicture.side)
        }
        guard let fit = fits.first(where: needed) ?? fits.last else { return nil }
        return FacePicture(
            path: fit.path, width: fit.width, height: fit.height, x: person.x, y: person.y, boxWidth: person.width,
            boxHeight: person.height)
    }

    /// A person's folder name: their name in lower-case ASCII (as far as it goes) and their number.
    static func folderName(_ name: String, id: Int64) -> String {
        let readable = String(
            PlaceName.searchKey(name).lowercased().unicodeScalars.map {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "-"
            }
        ).split(separator: "-").joined(separator: "-").prefix(40)
        return (readable.isEmpty ? "person" : String(readable)) + "-\(id)"
    }

    /// `people.html`: the people's cards.
    private static func list(_ cards: [String], choice: AlbumPeople) -> String {
        let summary =
            choice == .none
            ? "This site shows no people."
            : cards.isEmpty
                ? "No one is named yet: name the people found in the photos with tessera people name."
                : cards.count == 1 ? "1 person" : "\(cards.count) people"
        return HTML.document(
            title: "People",
            body: """
                <header>\(SitePages.crumbs)<h1>People</h1><p>\(HTML.escape(summary))</p></header>
                <main class="albums people">
                \(cards.joined(separator: "\n"))
                </main>
                """, depth: "")
    }
}
