public import Foundation
public import SystemPackage
public import TesseraFacts
public import TesseraSystem

/// The questions a reader of the index asks: of the index itself, or of one consistent view of
/// it (`PhotoStore.snapshot`).
public protocol PhotoReading {
    /// Photos as `query` asks, newest first.
    func photos(_ query: PhotoQuery) throws(IndexError) -> [PhotoRecord]
    /// What laying out the photos `query` asks for needs of each, in the same order: a small
    /// fraction of a record, so a reader of many holds these and reads records a part at a time.
    /// `expected`, how many the caller knows there are, is room made at once rather than grown.
    func outlines(_ query: PhotoQuery, expected: Int) throws(IndexError) -> [PhotoOutline]
    /// The records of `ids`, in that order; ids no longer in the index are left out.
    func photos(ids: [Int64]) throws(IndexError) -> [PhotoRecord]
    /// The albums, newest first.
    func albums() throws(IndexError) -> [AlbumRecord]
    /// Calls `visit` with each album that has photos, in no set order, one row at a time (a
    /// reader of a library of any size holds none of them), until it returns false.
    func forEachAlbum(_ visit: (AlbumRecord) -> Bool) throws(IndexError)
    /// How many photos each month holds, newest first.
    func months(withheld albumIDs: [Int64]) throws(IndexError) -> [(month: String, count: Int)]
    /// The index's change counter: it grows with every write of a photo or its renditions, and
    /// each album and month records its value at their last change (`AlbumRecord.contentChange`,
    /// `monthChanges(since:)`).
    func changeCounter() throws(IndexError) -> Int64
    /// The months (`YYYY-MM`, "" for undated photos) where anything changed after `change`.
    func monthChanges(since change: Int64) throws(IndexError) -> Set<String>
    /// Which of these cache paths are renditions of a photo the site shows (not failed, not missing).
    func shownRenditions(among paths: [String]) throws(IndexError) -> Set<String>
    /// Calls `visit` with each photo `query` asks for that has a position, newest first, one row
    /// at a time (a reader of a library of any size holds none of them).
    func forEachMapPoint(_ query: PhotoQuery, _ visit: (MapPoint) -> Void) throws(IndexError)
    /// How many of the photos `query` asks for each place holds, by country, region and locality.
    func placeCounts(_ query: PhotoQuery) throws(IndexError) -> [PlaceCount]
    /// The people shown in the photos `query` asks for (named ones, and unnamed groups with
    /// `unnamed`; never a hidden person or face), by name.
    func personCounts(_ query: PhotoQuery, unnamed: Bool) throws(IndexError) -> [PersonCount]
}

/// What Tessera needs of an index, whatever keeps it: the one contract between the index and
/// the scan, the daemon, the album builder and the commands.
///
/// `PhotoIndex` (one SQLite file, docs/INDEX.md) is the store today; another (a database server
/// that several machines share) implements the same requirements with the same meaning. Every
/// failure is an `IndexError`. Calls with defaults are in the extension below.
public protocol PhotoStore: PhotoReading, Sendable {
    /// Where the index is, for messages and for the writer lock beside it.
    var path: FilePath { get }

    // MARK: A scan's bookkeeping

    /// Records a scan as started; `recovered` when the last one was left running (a crash).
    func beginScan(roots: [FilePath], full: Bool) throws(IndexError) -> (id: Int64, recovered: Bool)
    /// Records how scan `id` ended.
    func finishScan(
        id: Int64, counts: ScanCounts, state: ScanState, reason: String?, offline: [FilePath]
    ) throws(IndexError)
    /// The most recent scan, finished or not.
    func lastScan() throws(IndexError) -> ScanRecord?
    /// Notes a folder the walk could not read.
    func recordWalkError(scanID: Int64, path: FilePath, reason: String) throws(IndexError)
    /// A value the scans carry from one to the next (the `state` table's keys).
    func state(_ key: String) throws(IndexError) -> String?
    func setState(_ key: String, _ value: String) throws(IndexError)

    // MARK: What the walk compares with

    /// The rows of one directory (its path's bytes) by name, for the walk to compare; `settled`,
    /// `expecting`, `newDecoders` and `newReaders` as docs/ARCHITECTURE.md's scan steps say.
    func files(
        inDirectory directory: [UInt8], settled: String?, expecting: Int, newDecoders: Bool, newReaders: Bool
    ) throws(IndexError) -> [NameKey: IndexedFile]
    /// The rows of one file identity: a move's old path.
    func files(device: UInt64, inode: UInt64) throws(IndexError) -> [IndexedFile]
    /// The rows under `root` that scan `excludingScan` has not written, in batches.
    func forEachFile(
        under root: FilePath, excludingScan: Int64, batch: Int, _ body: ([UnwrittenFile]) throws -> Void
    ) throws(IndexError)
    func fileCount(under root: FilePath, excludingScan: Int64) throws(IndexError) -> Int
    func fileIDs(under directory: FilePath) throws(IndexError) -> [Int64]
    func hasFiles(under directory: FilePath) throws(IndexError) -> Bool

    // MARK: What a scan writes

    /// Upserts files' facts, moves and renditions of scan `scanID`, in one transaction.
    func apply(
        _ updates: [FileUpdate], moves: [FileMove], renditions: [RenditionUpdate], scanID: Int64
    ) throws(IndexError)
    func delete(ids: [Int64]) throws(IndexError)
    /// Brings the albums' counts, dates and covers up to date with their photos.
    func refreshAlbums() throws(IndexError)
    /// Resolves the dates recorded without an offset in `zone`; how many changed.
    func resolveDates(in zone: TimeZone) throws(IndexError) -> Int

    // MARK: Renditions

    func renditions(of ids: [Int64]) throws(IndexError) -> [Int64: [RenditionEntry]]
    /// Renditions already made under `key` that cover `specs` (a copy of a photo reuses them),
    /// with the outputs of the analyses of their pixels recorded with them.
    func renditions(
        key: String, covering specs: [RenditionSpec]
    ) throws(IndexError) -> (
        renditions: [RenditionEntry], thumbhash: [UInt8], outputs: [AnalysisOutput], source: FilePath
    )?
    func pendingCacheDeletions() throws(IndexError) -> [String]
    func forgetCacheDeletions(_ paths: [String]) throws(IndexError)
    /// Which of these cache paths a rendition row refers to.
    func referencedPaths(among paths: [String]) throws(IndexError) -> Set<String>
    /// The cache's folders in path order from `from` (to `before`), while `body` says go on.
    func forEachRenditionFolder(
        from: String, before: String?, _ body: (RenditionFolder) throws -> Bool
    ) throws(IndexError)
    func cacheFolderStamps() throws(IndexError) -> [String: CacheFolderStamp]
    func recordCacheFolders(_ stamps: [String: CacheFolderStamp], forgetting forgotten: [String]) throws(IndexError)
    func filesRendered(at paths: [String]) throws(IndexError) -> [IndexedFile]
    func forEachRenderedFile(
        under root: FilePath, batch: Int, _ body: ([IndexedFile]) throws -> Void
    ) throws(IndexError)

    // MARK: Analyses (docs/INDEX.md, "Analyses")

    /// Queues every shown photo for each analysis of a version it was not queued for; how many.
    func enqueueAnalyses(_ versions: [AnalysisName: Int]) throws(IndexError) -> Int
    /// Up to `limit` shown photos after row `after` that wait for an analysis, in id order.
    func pendingAnalyses(after: Int64, limit: Int) throws(IndexError) -> [PendingAnalysis]
    /// Records what the analysis stage found, by photo.
    func recordAnalyses(_ results: [Int64: [AnalysisResult]]) throws(IndexError)
    /// What each analysis has still to do, and could not.
    func analysisProgress() throws(IndexError) -> [AnalysisProgress]

    // MARK: Web videos

    /// Videos browsers cannot play whose web rendition made with `settings` from their present
    /// content is not recorded, or whose recorded file `exists` says is gone.
    func webVideoJobs(settings: String, exists: (String) -> Bool) throws(IndexError) -> [WebVideoJob]
    /// Records how making a web rendition ended (nothing when the video changed meanwhile).
    func recordWebVideo(_ job: WebVideoJob, settings: String, outcome: WebVideoOutcome) throws(IndexError)

    /// The files that may be copies of the one with row `id`, each with whether it is one and
    /// why, nearest first (docs/DUPLICATES.md).
    func comparisons(
        of id: Int64, colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?
    ) throws(IndexError) -> [(file: ComparedFile, verdict: DuplicateGroups.Verdict)]
    /// The stack and the copy group the file with row `id` is recorded in.
    func groups(of id: Int64) throws(IndexError) -> (stack: Stack?, copies: DuplicateGroup?)
    /// Decides again the stacks and copies of what changed, and records them.
    func refreshGroups(
        colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?,
        sharpness: (_ renditions: [RenditionEntry]) -> Double?
    ) throws(IndexError) -> GroupRefresh

    /// Names the places of the photos whose position is new or changed, or of every photo with
    /// one when `data` is not the place data they were named by (docs/PLACES.md).
    func refreshPlaces(data: String, name: (PlaceEvidence) -> PlaceName?) throws(IndexError) -> PlaceRefresh
    /// How many photos wait for their place to be named.
    func pendingPlaces() throws(IndexError) -> Int
    /// Gives each face without a person one (docs/PEOPLE.md); how many.
    func groupFaces(batch: Int) throws(IndexError) -> Int
    /// Makes the index over the faces' descriptors again when they outgrew it; how many faces.
    func fitFaceBuckets() throws(IndexError) -> Int
    /// The faces of a photo, or of a person, in the order they were found.
    func faces(photo: Int64?, person: Int64?) throws(IndexError) -> [FaceSummary]

    // MARK: Files a scan did not see

    /// Marks the files of vanished ids missing (or moved); how many of each.
    func retire(ids: [Int64]) throws(IndexError) -> (moved: Int, missing: Int)
    @discardableResult func markMissing(outside roots: [FilePath]) throws(IndexError) -> Int
    func fileCount(outside roots: [FilePath]) throws(IndexError) -> Int
    @discardableResult func unmarkMissing(where seen: (Int64) -> Bool) throws(IndexError) -> Int
    func missingCount(under directory: FilePath) throws(IndexError) -> Int
    func missingFiles(before: Date?) throws(IndexError) -> [MissingFile]

    // MARK: What readers ask

    /// Runs `body` with one consistent view: what writers commit meanwhile is not seen, so the
    /// answers of a reader that asks several questions (an album build) always agree.
    func snapshot<T>(_ body: (any PhotoReading) throws -> T) throws -> T
    func file(at path: FilePath) throws(IndexError) -> PhotoRecord?
    func isAlbum(_ folder: FilePath) throws(IndexError) -> Bool
    func albums(named text: String) throws(IndexError) -> [AlbumRecord]
    /// How many stills and videos each album shows, by album id (a Live Photo's video is its
    /// still's motion, not an item of its own).
    func albumMedia() throws(IndexError) -> [Int64: AlbumMedia]
    func failingFiles() throws(IndexError) -> Int
    func totals() throws(IndexError) -> IndexTotals

    // MARK: Upkeep

    /// Whether the store is sound, repairing what can be rebuilt.
    func verify() throws(IndexError) -> IndexVerification
    /// Folds written pages into the store's main file, where that means something.
    func checkpoint()
}

extension PhotoReading {
    /// `outlines(_:expected:)`, the number unknown.
    public func outlines(_ query: PhotoQuery) throws(IndexError) -> [PhotoOutline] {
        try outlines(query, expected: 0)
    }
}

extension PhotoStore {
    public func finishScan(id: Int64, counts: ScanCounts, state: ScanState) throws(IndexError) {
        try finishScan(id: id, counts: counts, state: state, reason: nil, offline: [])
    }

    public func files(inDirectory directory: [UInt8]) throws(IndexError) -> [NameKey: IndexedFile] {
        try files(inDirectory: directory, settled: nil, expecting: 0, newDecoders: false, newReaders: false)
    }

    public func forEachFile(
        under root: FilePath, excludingScan: Int64, _ body: ([UnwrittenFile]) throws -> Void
    ) throws(IndexError) {
        try forEachFile(under: root, excludingScan: excludingScan, batch: 10_000, body)
    }

    public func apply(_ updates: [FileUpdate], moves: [FileMove], scanID: Int64) throws(IndexError) {
        try apply(updates, moves: moves, renditions: [], scanID: scanID)
    }

    public func forEachRenditionFolder(from: String, _ body: (RenditionFolder) throws -> Bool) throws(IndexError) {
        try forEachRenditionFolder(from: from, before: nil, body)
    }

    public func forEachRenderedFile(
        under root: FilePath, _ body: ([IndexedFile]) throws -> Void
    ) throws(IndexError) {
        try forEachRenderedFile(under: root, batch: 10_000, body)
    }

    public func missingFiles() throws(IndexError) -> [MissingFile] { try missingFiles(before: nil) }
}

extension PhotoIndex: PhotoStore {}

/// The keys of what scans carry from one to the next (`PhotoStore.state`; docs/INDEX.md).
public enum StateKey {
    /// The time zone the index's dates were resolved in.
    public static let timeZone = "time_zone"
    /// The decoders the last complete scan had (`Renderer.decoders`).
    public static let decoders = "decoders"
    /// The metadata readers the last complete scan had (`MetadataReader.version`).
    public static let readers = "readers"
    /// Where the next cache check begins.
    public static let cacheCheckedThrough = "cache_checked_through"
    /// The desktop thumbnail cache's folder counts when the last scan ended.
    public static let desktopThumbnailCounts = "desktop_thumbnail_counts"
}
