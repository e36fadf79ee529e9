import Foundation
import GRDB
import SystemPackage
import TesseraFacts
import TesseraSystem

/// Which files `photos(_:)` returns.
public struct PhotoQuery: Sendable {
    /// Which kind of row.
    public enum Kind: Sendable {
        /// Displayable photos (status ok or warning), newest first.
        case photos
        /// Files that could not be read, by path.
        case errors
        /// Files that are not photos Tessera reads, by path.
        case unsupported
        /// Photos indexed with recoverable problems (see `PhotoRecord.warnings`), by path.
        case warnings
    }

    /// Only the album with this id.
    public var albumID: Int64?
    /// Only the albums in this folder and in the folders below it (the folder's path's bytes).
    public var folder: [UInt8]?
    /// Never the photos of these albums: what the public site withholds (docs/PRIVATE.md).
    public var withheldAlbumIDs: [Int64] = []
    /// Only photos captured in this month (`YYYY-MM`, the wall clock's); "" for those without
    /// a date.
    public var month: String?
    /// Only photos rated at least this.
    public var minimumRating: Int?
    /// Only photos with this keyword (any case), or with a hierarchical keyword that has it
    /// as one of its levels ("Berlin" finds "Places/Germany/Berlin").
    public var keyword: String?
    /// Only photos whose place is this town, region or country (or country code), in any case
    /// and with or without accents (docs/PLACES.md).
    public var place: String?
    /// Only photos with a face of this person: their name, in any case, or their number
    /// (docs/PEOPLE.md).
    public var person: String?
    /// Only photos with a face of the person with this number (the site's People pages).
    public var personID: Int64?
    /// Only stills (`photo`) or only videos (`video`).
    public var media: Media?
    public var limit: Int?
    public var kind: Kind
    /// Of each stack, only its face (docs/DUPLICATES.md): what an album shows as one.
    public var stackFacesOnly = false
    /// Of each group of copies, only the one to keep, and any that is a stack's face.
    public var keptCopiesOnly = false
    /// Only photos with a position.
    public var positionedOnly = false
    /// Only photos of this place, or of the places within it (docs/PLACES.md).
    public var placeFilter: PlaceFilter?

    /// The `kind` column: what an item of the library is.
    public enum Media: String, Sendable, CaseIterable {
        case photo, video
    }

    public init(
        albumID: Int64? = nil, folder: [UInt8]? = nil, month: String? = nil, minimumRating: Int? = nil,
        keyword: String? = nil,
        media: Media? = nil, limit: Int? = nil, kind: Kind = .photos
    ) {
        self.media = media
        self.albumID = albumID
        self.folder = folder
        self.month = month
        self.minimumRating = minimumRating
        self.keyword = keyword
        self.limit = limit
        self.kind = kind
    }
}
