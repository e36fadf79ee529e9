import TesseraFacts
import TesseraIndex

/// Which albums each private album holds (docs/PRIVATE.md): an album belongs to the innermost
/// private folder it is in, so a private album inside another, with a passphrase of its own, is
/// neither on the public site nor in the outer album's pages.
struct PrivateHoldings {
    let privateAlbums: [PrivateAlbum]
    /// For each private album (in the configuration's order), the ids of the albums it holds.
    private(set) var albums: [[Int64]]
    /// For each, the photos those albums hold.
    private(set) var photos: [Int]

    init(_ index: any PhotoReading, _ privateAlbums: [PrivateAlbum]) throws(AlbumError) {
        self.privateAlbums = privateAlbums
        albums = Array(repeating: [], count: privateAlbums.count)
        photos = Array(repeating: 0, count: privateAlbums.count)
        guard !privateAlbums.isEmpty else { return }
        var (albums, photos) = (self.albums, self.photos)
        do {
            try index.forEachAlbum { album in
                if let holder = Self.holder(of: album.name, in: privateAlbums) {
                    albums[holder].append(album.id)
                    photos[holder] += album.photoCount
                }
                return true
            }
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        (self.albums, self.photos) = (albums, photos)
    }

    /// The private album (its place in `privateAlbums`) that holds the album or folder `name`:
    /// of those holding it, the one of the longest folder (the first, for equal folders).
    static func holder(of name: String, in privateAlbums: [PrivateAlbum]) -> Int? {
        var best: Int?
        for (place, album) in privateAlbums.enumerated() where album.holds(albumNamed: name) {
            if best.map({ album.folder.count > privateAlbums[$0].folder.count }) ?? true { best = place }
        }
        return best
    }

    /// Every album some private album holds, sorted: what the public pages leave out.
    var withheld: [Int64] { albums.joined().sorted() }

    /// The private folders holding any album, and the photos they hold: what the build reports.
    var summary: (albums: Int, photos: Int) {
        (albums.filter { !$0.isEmpty }.count, photos.reduce(0, +))
    }
}
