import ArgumentParser
import TesseraCommands
import TesseraIndex

/// `tessera list`: photos newest first, or the files that failed or are not photos, or the albums.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List indexed photos newest first, the files that failed, or the albums.",
        discussion: "Reads the index read-only: it works while a scan or the daemon writes.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "An array of objects with the fields of `tessera inspect --json` plus id, album, thumbnails, status.")
    var json = false

    @Option(
        help: """
            Only this album and the albums inside it: its folder relative to its root, or its absolute path; \
            a folder of albums lists theirs.
            """)
    var album: String?

    @Option(help: "At most this many entries.")
    var limit: Int?

    @Flag(help: "The files that could not be read, with their reasons.")
    var errors = false

    @Flag(help: "The files that are not photos Tessera reads, with why.")
    var unsupported = false

    @Flag(help: "The photos indexed with warnings (recoverable problems), with them.")
    var warnings = false

    @Flag(help: "The albums, newest first.")
    var albums = false

    @Flag(
        help: """
            Groups of copies: the same bytes, or the same picture re-encoded, resized, converted or \
            cropped a little; the one to keep first, and why. Nothing is deleted or moved.
            """)
    var duplicates = false

    @Flag(
        help: """
            Stacks: a RAW file and the image made from it, and bursts (one camera, shots at most 1 s \
            apart); the face first, and why.
            """)
    var stacks = false

    @Option(help: "Only photos rated at least this (0–5; XMP xmp:Rating, from the file or its sidecar).")
    var rating: Int?

    @Option(help: "Only photos with this keyword, in any case; a level of a hierarchical keyword matches too.")
    var keyword: String?

    @Option(
        help: "Only photos taken in this place: a town, region, country or country code, in any case, accents or not.")
    var place: String?

    @Option(help: "Only photos of this person: their name, in any case, or their number (tessera people list).")
    var person: String?

    @Option(
        help: "Only stills (photo) or only videos (video).",
        completion: .list(PhotoQuery.Media.allCases.map(\.rawValue)))
    var kind: PhotoQuery.Media?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if let rating, !(0...5).contains(rating) { throw ValidationError("--rating must be between 0 and 5") }
        if [errors, unsupported, warnings, albums, duplicates, stacks].filter({ $0 }).count > 1 {
            throw ValidationError(
                "give at most one of --errors, --unsupported, --warnings, --albums, --duplicates and --stacks")
        }
    }

    func run() async throws {
        var request = ListRequest()
        let listings: [(Bool, ListRequest.Listing)] = [
            (errors, .errors), (unsupported, .unsupported), (warnings, .warnings), (albums, .albums),
            (duplicates, .duplicates), (stacks, .stacks),
        ]
        request.listing = listings.first { $0.0 }?.1 ?? .photos
        (request.json, request.album, request.limit) = (json, album, limit)
        (request.rating, request.keyword, request.kind) = (rating, keyword, kind)
        (request.place, request.person) = (place, person)
        try await request.run(in: store.context)
    }
}
