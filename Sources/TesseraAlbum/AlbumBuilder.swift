import Foundation
public import SystemPackage
public import TesseraFacts
public import TesseraIndex
public import TesseraLayout
import TesseraMetadata
import TesseraSystem

/// A static album site from the index: folder albums, a timeline of months, and a viewer.
///
/// The output folder works wherever it is copied or served: renditions are hard-linked (or
/// copied) into `media/`, originals placed in `originals/` as the options say, and every
/// reference is relative inside the folder. `index.html` lists the folder albums newest first
/// and `timeline.html` the years and months; each album and month gets pages of
/// `photosPerPage` photos, laid out by the engine at three breakpoint widths and chosen with
/// CSS. Each photo has a plain viewer page; the shared script turns it into a lightbox. Only
/// collections whose content changed since the last build are written again.
public struct AlbumBuilder: Sendable {
    public struct Options: Sendable {
        public var output: FilePath
        public var style = LayoutConfig.Style.justified
        /// How photos are grouped under headers; `auto` by their density.
        public var sections = LayoutConfig.GroupBy.auto
        /// Copy renditions into the output even where a hard link would do.
        public var copyRenditions = false
        public var originals = AlbumOriginals.symlink
        /// How albums beside each other are ordered.
        public var order = AlbumOrder.name
        public var photosPerPage = 60 {
            didSet { photosPerPage = min(max(1, photosPerPage), Self.mostPhotosPerPage) }
        }
        /// The most photos a page draws (a tiles page its tiles' photos, a section's page its
        /// photos): a page stays small enough to load at once.
        public static let mostPhotosPerPage = 360
        /// The window width a page's HTML is laid out at: what shows without script (album.js
        /// lays the photos out again at the window's own width).
        public var staticWidth = 375.0
        /// The most files a build lets go of one by one (albums written again or removed); past
        /// it, it sweeps the whole of media/ and originals/ instead, in the same memory.
        public var removalList = 100_000
        /// Show every copy of a photo, not only the one to keep (docs/DUPLICATES.md); a stack
        /// shows its face either way, and its members in the viewer.
        public var showCopies = false
        /// Where the site shows no position and no place finer than the town (docs/PLACES.md).
        public var privateZones: [PrivateZone] = []
        /// Whom the People pages, the viewer and Find show (docs/PEOPLE.md).
        public var people = AlbumPeople.named
        /// The map's background tiles to place into the site (`installedBasemap`); nil: none.
        public var basemap: FilePath?
        /// Folders the public site leaves out, whole (docs/PRIVATE.md).
        public var privateAlbums: [PrivateAlbum] = []
        /// Where the build makes a private album's pages before it seals them (docs/PRIVATE.md):
        /// a folder no one else reads, on the renditions' file system so they are hard-linked,
        /// emptied after each build; nil: the system's temporary folder.
        public var privateWork: FilePath?
        /// The albums those hold, found by the build: no public page shows their photos.
        var withheldAlbumIDs: [Int64] = []
        /// When set, the build makes only these albums' pages: a private album's, to be sealed.
        var onlyAlbumIDs: Set<Int64>?

        /// The basemap the install commands put where `tessera` looks for it (docs/PLACES.md).
        public static var installedBasemap: FilePath? { MapPages.installedBasemap() }

        public init(
            output: FilePath, style: LayoutConfig.Style = .justified, originals: AlbumOriginals = .symlink,
            order: AlbumOrder = .name, showCopies: Bool = false
        ) {
            (self.output, self.style, self.originals, self.order) = (output, style, originals, order)
            self.showCopies = showCopies
        }

        /// `query` for what the site shows: of a stack its face, of copies the one to keep.
        func shown(_ query: PhotoQuery) -> PhotoQuery {
            var query = query
            (query.stackFacesOnly, query.keptCopiesOnly) = (true, !showCopies)
            query.withheldAlbumIDs = withheldAlbumIDs
            return query
        }
    }

    public struct Summary: Sendable {
        public var albums = 0
        public var months = 0
        /// Albums and months written, and left as they were.
        public var written = 0
        public var unchanged = 0
        public var pages = 0
        /// Rendition and original files placed in this build, by how.
        public var linked = 0
        public var copied = 0
        /// Renditions or originals that could not be placed (gone from the cache or the disk).
        public var missing = 0
        /// Files no page refers to any more, removed.
        public var removed = 0
        /// Photos on the map, when this build wrote it again (nil: it was left as it was).
        public var mapped: Int?
        /// Photos on the Places pages, when this build wrote them (nil: they were left as they were).
        public var placesShown: Int?
        /// Photos on the People pages, when this build wrote them (nil: left as they were, or none).
        public var peopleShown: Int?
        /// The private albums the public pages leave out, and the photos they hold.
        public var withheld = (albums: 0, photos: 0)
        /// Each private album's encrypted pages, as this build left them.
        public var privateAlbums: [PrivateSite.Written] = []
        /// The private albums whose pages could not be written, each with why.
        public var privateFailures: [String] = []
        /// A private album's build: the folders of the albums it wrote, with their names.
        var folders: [(name: String, folder: String)] = []
        public var indexPage: FilePath

        /// What `tessera album build` prints of a build into `options.output`.
        public func text(_ options: Options) -> String {
            let counts = "\(Wording.count(albums, "album")), \(Wording.count(months, "month"))"
            let originals: String =
                switch options.originals {
                case .symlink: "symbolic links to the files"
                case .copy: "hard links or copies"
                case .none: "left out"
                }
            let placed =
                "Files placed: \(linked) hard-linked, \(copied) copied into \(options.output.appending("media"))"
                + " and originals/" + (missing > 0 ? "; \(missing) missing from the cache or the disk" : "")
                + (removed > 0 ? "; \(removed) no longer used, removed" : "")
            var lines = [
                "Album pages: \(counts) (\(written) written, \(unchanged) unchanged)", placed,
                "Originals: \(originals)",
            ]
            if withheld.albums > 0 {
                lines.append(
                    "Private: \(Wording.count(withheld.albums, "folder")) (\(Wording.count(withheld.photos, "photo")))"
                        + " left out of every public page")
            }
            lines += privateAlbums.map(\.line) + privateFailures.map { "Private album not written: " + $0 }
            lines.append("Open: \(indexPage)")
            return lines.map(TerminalText.escaped).joined(separator: "\n")
        }
    }

    let index: any PhotoStore
    let options: Options

    public init(index: any PhotoStore, options: Options) {
        self.index = index
        self.options = options
    }

    /// Writes the site.
    ///
    /// One build at a time writes a folder (a lock file in it; `waiting` is called when another
    /// build holds it, and this one then waits for it), and it reads the index as one snapshot,
    /// so a scan committing meanwhile never makes pages disagree with each other.
    ///
    /// - Parameter shouldStop: asked between collections; when it says yes, the build ends early
    ///   (collections not reached keep their previous pages) and throws.
    /// - Throws: `AlbumError` when the output cannot be written, the index cannot be read, or the
    ///   build was stopped.
    public func build(
        shouldStop: @escaping @Sendable () -> Bool = { false }, waiting: () -> Void = {}
    ) throws(AlbumError) -> Summary {
        let output = FileSystem.absolute(options.output)
        try Self.makeDirectory(output)
        let lock: FileLock
        do throws(SystemError) {
            lock = try FileLock(path: output.appending(Self.lockName))
            if try !lock.tryLock() {
                waiting()
                try lock.lock()
            }
        } catch {
            throw AlbumError(.output, "cannot lock the album folder: \(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        do {
            return try index.snapshot { snapshot throws(AlbumError) in
                var options = options
                let holdings = try PrivateHoldings(snapshot, options.privateAlbums)
                options.withheldAlbumIDs = holdings.withheld
                var summary = try SiteBuild(
                    index: snapshot, store: index, output: OutputFolder(root: output), options: options,
                    optionsKey: optionsKey
                )
                .run(shouldStop: shouldStop)
                summary.withheld = holdings.summary
                (summary.privateAlbums, summary.privateFailures) = try PrivateSite(
                    index: snapshot, output: OutputFolder(root: output), options: options, holdings: holdings
                ).run(shouldStop: shouldStop)
                return summary
            }
        } catch let error as AlbumError {
            throw error
        } catch {
            throw AlbumError(.index, "\(error)")
        }
    }

    /// The lock file in the output folder, held by the build writing it.
    static let lockName = ".tessera-album.lock"

    /// The folders in `parent` of the output (`albums/<name>`), as a site's pages left them.
    static func folders(in parent: String, of output: OutputFolder) -> Set<String> {
        var folders: Set<String> = []
        forEachFolder(in: parent, of: output) { folders.insert($0) }
        return folders
    }

    /// Calls `visit` with each folder in `parent` of the output, one entry of the listing at a
    /// time: an album folder of any size is not held whole.
    static func forEachFolder<E: Error>(
        in parent: String, of output: OutputFolder, _ visit: (String) throws(E) -> Void
    ) throws(E) {
        guard let listing = try? DirectoryListing(opening: output.path(parent)) else { return }
        var failure: E?
        listing.forEach { entry in
            do throws(E) {
                try visit(parent + "/" + String(decoding: entry.name, as: UTF8.self))
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }

    /// Beside a collection's folder while its pages are written, until they are all there.
    static let staging = ".partial"

    /// Whether a page is in place: a regular file (not a link someone put there).
    static func isPage(_ path: FilePath) -> Bool {
        (try? FileSystem.linkStatus(of: path))?.type == .regular
    }

    static func outlines(
        _ index: any PhotoReading, _ query: PhotoQuery, expected: Int
    ) throws(AlbumError) -> [PhotoOutline] {
        do {
            return try index.outlines(query, expected: expected)
        } catch {
            throw AlbumError(.index, "\(error)")
        }
    }

    /// What the pages are made with: other options, or another version of Tessera's pages,
    /// write every page again.
    private var optionsKey: String {
        // v10: one layout a page (layout.js the others), the viewer at #photo-ID, placeholders
        // decoded by album.js, photos.js with shared texts and names written once, what the
        // timeline's Find knows of each month in the manifest, and the folder tree; v12: the
        // manifest in the site's state database; v13: stacks as one tile, copies hidden; v14: a
        // stack's files listed for a browser without script; v15: places in the viewer, the
        // position on the site's own map; v16: an album's own map (with or without Leaflet and
        // the basemap), the position as `at` in photos.js; v17: People pages, names in the viewer
        // and Find.
        [
            "v17", "\(options.people)", "\(options.privateZones)", "\(MapPages.hasLeaflet)",
            "\(options.basemap != nil)",
            "\(options.showCopies)", "\(options.style)", "\(options.sections)",
            "\(options.copyRenditions)",
            "\(options.originals)", "\(options.photosPerPage)", "\(options.staticWidth)",
        ].joined(separator: "|")
    }

    /// The pixels a cover card needs on its short side: 160 CSS px at a pixel ratio of 2.
    static let coverSide = 320

    /// "12 photos", "1 photo, 2 videos".
    static func count(_ photos: [PhotoOutline]) -> String {
        let videos = photos.lazy.filter(\.isVideo).count
        return count(stills: photos.count - videos, videos: videos)
    }

    /// "12 photos", "1 photo, 2 videos".
    static func count(stills: Int, videos: Int) -> String {
        AlbumMedia(stills: stills, videos: videos).summary
    }

    /// "12 photos": how many an album list or timeline sums up (videos among them).
    static func count(total: Int) -> String {
        Wording.count(total, "photo")
    }

    /// The file name, from the path's bytes (a `FilePath` per photo costs more than a page).
    static func name(_ photo: PhotoRecord) -> String {
        let bytes = photo.pathBytes
        let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? bytes.startIndex
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    static func title(_ album: AlbumRecord) -> String {
        album.name.isEmpty ? (album.path.lastComponent?.string ?? "Photos") : album.name
    }

    static func dateRange(_ album: AlbumRecord) -> String {
        let oldest = album.oldestCapturedAt.map { String($0.prefix(10)) }
        let newest = album.newestCapturedAt.map { String($0.prefix(10)) }
        switch (oldest, newest) {
        case let (.some(from), .some(to)) where from != to: return "\(from) – \(to)"
        case let (_, .some(day)): return day
        default: return ""
        }
    }

    /// A folder name safe anywhere: letters and digits of the album name, plus a hash of its path.
    static func folderName(_ album: AlbumRecord) -> String {
        let readable = title(album).lowercased().unicodeScalars.map { scalar -> Character in
            (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) && scalar.isASCII ? Character(scalar) : "-"
        }
        let slug = String(readable).split(separator: "-").joined(separator: "-").prefix(40)
        return (slug.isEmpty ? "album" : String(slug)) + "-" + String(XXH64.hex(XXH64.hash(album.pathBytes)).prefix(8))
    }

    static func makeDirectory(_ path: FilePath) throws(AlbumError) {
        do throws(SystemError) {
            try FileSystem.createDirectories(path)
        } catch {
            throw AlbumError(.output, "\(path): cannot create: \(error.errno)")
        }
    }

}

/// A failure building album pages: what kind, and one line saying what happened.
public struct AlbumError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case index, layout, output, stopped }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The index could not be read.
        public static let index = Code(.index)
        /// The layout engine refused the options.
        public static let layout = Code(.layout)
        /// The output folder could not be written.
        public static let output = Code(.output)
        /// The build was asked to stop before it was done.
        public static let stopped = Code(.stopped)

        public var description: String { kind.rawValue }
    }

    public let code: Code
    public let description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
