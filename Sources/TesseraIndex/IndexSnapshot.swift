import GRDB
import SystemPackage

/// One consistent view of the index for a reader that asks several questions (an album
/// build): what a scan commits meanwhile is not seen, so the answers always agree.
///
/// Valid only inside the `PhotoIndex.snapshot` call that made it.
struct IndexSnapshot: PhotoReading {
    let db: Database
    let path: FilePath

    /// See `PhotoIndex.photos(_:)`.
    func photos(_ query: PhotoQuery) throws(IndexError) -> [PhotoRecord] {
        try answer { try PhotoIndex.photos(query, db) }
    }

    /// See `PhotoIndex.outlines(_:)`.
    func outlines(_ query: PhotoQuery, expected: Int) throws(IndexError) -> [PhotoOutline] {
        try answer { try PhotoIndex.outlines(query, expected: expected, db) }
    }

    /// See `PhotoIndex.photos(ids:)`.
    func photos(ids: [Int64]) throws(IndexError) -> [PhotoRecord] {
        try answer { try PhotoIndex.photos(ids: ids, db) }
    }

    /// See `PhotoIndex.albums()`.
    func albums() throws(IndexError) -> [AlbumRecord] {
        try answer { try PhotoIndex.albums(db) }
    }

    /// See `PhotoIndex.forEachAlbum(_:)`.
    func forEachAlbum(_ visit: (AlbumRecord) -> Bool) throws(IndexError) {
        try answer { try PhotoIndex.forEachAlbum(visit, db) }
    }

    /// See `PhotoIndex.months()`.
    func months(withheld albumIDs: [Int64]) throws(IndexError) -> [(month: String, count: Int)] {
        try answer { try PhotoIndex.months(withheld: albumIDs, db) }
    }

    /// See `PhotoIndex.changeCounter()`.
    func changeCounter() throws(IndexError) -> Int64 {
        try answer { try PhotoIndex.changeCounter(db) }
    }

    /// See `PhotoIndex.monthChanges(since:)`.
    func monthChanges(since change: Int64) throws(IndexError) -> Set<String> {
        try answer { try PhotoIndex.monthChanges(since: change, db) }
    }

    /// See `PhotoIndex.shownRenditions(among:)`.
    func shownRenditions(among paths: [String]) throws(IndexError) -> Set<String> {
        try answer { try PhotoIndex.shownRenditions(among: paths, db) }
    }

    /// See `PhotoIndex.forEachMapPoint(_:_:)`.
    func forEachMapPoint(_ query: PhotoQuery, _ visit: (MapPoint) -> Void) throws(IndexError) {
        try answer { try PhotoIndex.forEachMapPoint(query, visit, db) }
    }

    /// See `PhotoIndex.placeCounts(_:)`.
    func placeCounts(_ query: PhotoQuery) throws(IndexError) -> [PlaceCount] {
        try answer { try PhotoIndex.placeCounts(query, db) }
    }

    /// See `PhotoIndex.personCounts(_:unnamed:)`.
    func personCounts(_ query: PhotoQuery, unnamed: Bool) throws(IndexError) -> [PersonCount] {
        try answer { try PhotoIndex.personCounts(query, unnamed: unnamed, db) }
    }

    private func answer<T>(_ body: () throws -> T) throws(IndexError) -> T {
        do {
            return try body()
        } catch {
            throw PhotoIndex.indexError(error, path: path)
        }
    }
}

extension PhotoIndex {
    /// Runs `body` in one read transaction: every question it asks sees the same committed state.
    ///
    /// - Throws: what `body` throws, or `IndexError` when the index cannot be read.
    public func snapshot<T>(_ body: (any PhotoReading) throws -> T) throws -> T {
        do {
            return try pool.read { db in try body(IndexSnapshot(db: db, path: path)) }
        } catch let error as DatabaseError {
            throw Self.indexError(error, path: path)
        }
    }
}
