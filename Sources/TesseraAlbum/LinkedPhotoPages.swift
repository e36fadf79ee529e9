import Foundation
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// The pages of a town's or a person's photos (PlacePages, PeoplePages): newest first, each a
/// square thumbnail that opens the photo in its album's viewer.
///
/// They link to the albums and months rather than hold the photos' data again, which keeps the
/// site within its bytes a photo.
struct LinkedPhotoPages {
    let index: any PhotoReading
    let output: OutputFolder
    let writer: CollectionPages
    let media: MediaFolder
    let tree: AlbumTree

    /// Thumbnails a page.
    static let perPage = 240

    /// Writes the collection's pages into its staging folder: `above` (a section of cards) on its
    /// first page, then `photos`; returns the cover, chosen among `coverFrom`.
    func write(
        _ collection: Collection, above: String, photos: [PhotoOutline], coverFrom: ArraySlice<PhotoOutline>
    ) throws(AlbumError) -> PhotoRecord? {
        let staging = collection.folder + AlbumBuilder.staging
        _ = try output.recreate(staging)
        var cover = CoverChoice()
        for (position, record) in try records(ids: coverFrom.map(\.id)).enumerated() {
            cover.consider(record, position: position)
        }
        let count = max(1, (photos.count + Self.perPage - 1) / Self.perPage)
        let folders = AlbumFolders(tree: tree)
        for number in 0..<count {
            media.startPage()
            let page = try records(ids: photos.dropFirst(number * Self.perPage).prefix(Self.perPage).map(\.id))
            try folders.load(page.map(\.albumID))
            let thumbnails = page.compactMap { photo -> String? in
                guard let album = folders[photo.albumID],
                    let square = photo.renditions.filter({ $0.spec.kind == .square }).min(by: { $0.width < $1.width }),
                    let path = media.rendition(square.path)
                else { return nil }
                let link = Collection.prefix + HTML.url(Array(album.utf8)) + "/index.html#photo-\(photo.id)"
                let source = Collection.prefix + HTML.url(Array(path.utf8))
                return "<a href=\"\(link)\"><img src=\"\(source)\" alt=\"\(HTML.escape(AlbumBuilder.name(photo)))\""
                    + " loading=\"lazy\"></a>"
            }
            let body = """
                <header>\(writer.crumbs(collection))<h1>\(HTML.escape(collection.title))</h1>\
                <p>\(HTML.escape(collection.subtitle))</p></header>
                \(number == 0 ? above : "")
                \(thumbnails.isEmpty ? "" : "<main class=\"place-photos\">\(thumbnails.joined(separator: "\n"))</main>")
                \(CollectionPages.pager(current: number, count: count))
                """
            try output.write(
                HTML.document(title: collection.title, body: body), to: staging + "/" + CollectionPages.pageFile(number)
            )
        }
        return cover.photo
    }

    /// The records of `ids`, in their order.
    func records(ids: [Int64]) throws(AlbumError) -> [PhotoRecord] {
        guard !ids.isEmpty else { return [] }
        do {
            return try index.photos(ids: ids)
        } catch {
            throw AlbumError(.index, "\(error)")
        }
    }

    /// What a collection's pages show: its photos in order, their albums' last changes, and
    /// `texts` (the cards above them, the site's key without its change counter; FNV-1a, 64
    /// bits, as hexadecimal).
    static func signature(_ photos: [PhotoOutline], changes: [Int64: Int64], texts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ (value >> UInt64(shift) & 0xFF)) &* 0x100_0000_01b3
            }
        }
        for photo in photos {
            add(UInt64(bitPattern: photo.id))
            add(UInt64(bitPattern: changes[photo.albumID] ?? 0))
        }
        for byte in texts.joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The card `folder`'s pages were written with, when they show what `signature` says (and
    /// `force` does not ask for them again); nil when they are to be written.
    func stored<Card: Decodable>(_ folder: String, signature: String, force: Bool) -> Card? {
        guard !force,
            FileSystem.smallFileContents(output.path(folder + "/.signature"), limit: 64) == Array(signature.utf8),
            AlbumBuilder.isPage(output.path(folder + "/index.html")),
            let stored = FileSystem.smallFileContents(output.path(folder + "/.card"), limit: 1 << 20)
        else { return nil }
        return try? JSONDecoder().decode(Card.self, from: Data(stored))
    }

    /// Puts `folder`'s pages, written into its staging folder, in place, with their card and
    /// signature for the next build.
    func finish(_ folder: String, card: some Encodable, signature: String) throws(AlbumError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // (the same bytes build after build)
        let encoded = (try? encoder.encode(card)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        try output.write(encoded, to: folder + AlbumBuilder.staging + "/.card")
        try output.write(signature, to: folder + AlbumBuilder.staging + "/.signature")
        try output.replace(folder, with: folder + AlbumBuilder.staging)
    }

    /// The albums' last changes, by album.
    func albumChanges() throws(AlbumError) -> [Int64: Int64] {
        var changes: [Int64: Int64] = [:]
        do {
            try index.forEachAlbum { album in
                changes[album.id] = album.contentChange
                return true
            }
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        return changes
    }
}
