import TesseraConfiguration
public import TesseraIndex
import TesseraReport

/// `tessera list`: photos newest first, or the files that failed or are not photos, or the
/// albums, copies or stacks.
public struct ListRequest: Sendable {
    /// What is listed besides photos (at most one).
    public enum Listing: Sendable {
        case photos, errors, unsupported, warnings, albums, duplicates, stacks
    }

    public var listing = Listing.photos
    public var json = false
    public var album: String?
    public var limit: Int?
    public var rating: Int?
    public var keyword: String?
    /// Only photos of this place: a town, region, country or country code (docs/PLACES.md).
    public var place: String?
    /// Only photos of this person: a name or a number (docs/PEOPLE.md).
    public var person: String?
    public var kind: PhotoQuery.Media?

    public init() {}

    public func run(in context: CommandContext) async throws {
        let configuration = try await context.store.readingConfiguration()
        let index = try PhotoIndex(path: configuration.index, readOnly: true)
        let kind: PhotoQuery.Kind
        switch listing {
        case .albums: return try albums(index, context)
        case .duplicates: return try duplicates(index, context)
        case .stacks: return try stacks(index, context)
        case .photos: kind = .photos
        case .errors: kind = .errors
        case .unsupported: kind = .unsupported
        case .warnings: kind = .warnings
        }
        let folder = try album.map { try AlbumArgument.resolve($0, in: index) }
        var query = PhotoQuery(
            folder: folder, minimumRating: rating, keyword: keyword, media: self.kind, limit: limit, kind: kind)
        (query.place, query.person) = (place, person)
        let records = try index.photos(query)
        if json { return try context.json(records.map(PhotoReport.init(record:))) }
        guard !records.isEmpty else {
            return context.note(
                PhotoListing.nothing(
                    kind, media: self.kind, in: album.map { "album \($0)" } ?? "\(configuration.index)"))
        }
        context.say(PhotoListing.table(records, listing: kind))
    }

    private func duplicates(_ index: PhotoIndex, _ context: CommandContext) throws {
        let groups = try index.recordedCopyGroups()
        if json { return try context.json(groups.map(DuplicateListing.Group.init)) }
        guard !groups.isEmpty else { return context.note("No copies in \(index.path).") }
        context.say(DuplicateListing.text(groups))
    }

    private func stacks(_ index: PhotoIndex, _ context: CommandContext) throws {
        let found = try index.recordedStacks()
        if json { return try context.json(found.map(StackListing.Group.init)) }
        guard !found.isEmpty else { return context.note("No stacks in \(index.path).") }
        context.say(StackListing.text(found))
    }

    private func albums(_ index: any PhotoStore, _ context: CommandContext) throws {
        let albums: [AlbumRecord] = try index.albums()
        let media = try index.albumMedia()
        if json { return try context.json(albums.map { PhotoListing.Album($0, media: media[$0.id]) }) }
        guard !albums.isEmpty else { return context.note("No album in the index yet.") }
        context.say(PhotoListing.table(albums, media: media))
    }
}
