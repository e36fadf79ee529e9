import Foundation
import Synchronization
public import SystemPackage
public import TesseraIndex
import TesseraSystem

/// Finds rendition files the index records but the cache no longer holds (deleted by hand,
/// a cache folder cleaned, a backup restored without it), without a `stat` per file: folder by
/// folder, the number of files recorded there (counted in the path index) is compared with
/// one listing of the folder, and only a folder whose counts differ has its paths read.
///
/// A folder
/// unchanged since a check found it whole costs one `stat` (see `run`), so a rescan of an
/// unchanged library lists no cache folder at all.
///
/// A check resumes where the last one stopped (the index's `cache_checked_through`), goes on to
/// the end, then from the start round to where it began, and stops at its deadline: a scan gives
/// it the time of its walk and a tenth more (and always 10,000 files), so a rescan of an unchanged
/// library stays near the walk's own speed, and a cache too large for one scan is covered over
/// the next ones. It runs at the lowest CPU priority, on a thread of its own.
public final class CacheCheck: Sendable {
    /// What one check found.
    public struct Result: Sendable {
        /// Recorded rendition paths with no file in the cache.
        public var missing: [String] = []
        /// Paths checked.
        public var checked = 0
        /// Folders listed: those changed since a check last found them whole.
        public var listed = 0
        /// Whether the check went all the way round the cache.
        public var complete = false
    }

    /// The most paths one check reports: the files to render again in one scan.
    static let reportLimit = 10_000

    private let index: any PhotoStore
    private let cache: FilePath
    private let stop: StopFlag
    /// Files a check covers whatever its deadline (a small cache is always checked whole).
    private let minimum: Int
    /// How long ago a folder must have changed for its stamp to be recorded (3 s at least
    /// on a filesystem with timestamps of whole seconds).
    private let settleMargin: Duration
    private let deadline = Mutex<ContinuousClock.Instant?>(nil)
    private let outcome = Mutex(Result())

    /// What the last `run` found.
    var result: Result { outcome.withLock { $0 } }

    public init(
        index: any PhotoStore, cache: FilePath, stop: StopFlag, minimum: Int = 10_000,
        settleMargin: Duration = .milliseconds(100)
    ) {
        self.index = index
        self.cache = cache
        self.stop = stop
        self.minimum = minimum
        self.settleMargin = settleMargin
    }

    /// Tells a running check to end by `deadline`.
    func finish(by deadline: ContinuousClock.Instant) {
        self.deadline.withLock { $0 = deadline }
    }

    private var isDue: Bool {
        if stop.isSet { return true }
        guard let deadline = deadline.withLock({ $0 }) else { return false }
        return ContinuousClock.now >= deadline
    }

    /// Runs the check from where the last one stopped (from the start when `whole`) and, unless
    /// `whole`, records where it stopped; an index that cannot be read ends it early.
    ///
    /// A folder is listed only when it changed since a check last found it whole (its inode or
    /// status change time differ from its stamp in `cache_folders`): deleting a file changes its
    /// folder's ctime, and nothing outside the kernel can set a ctime back. A `whole` check (the
    /// daemon's, when idle) lists every folder whatever its stamp.
    public func run(whole: Bool = false) -> Result {
        CurrentProcess.lowerThreadPriority()
        var result = Result()
        // An empty or missing cache folder may be a disk not mounted: nothing is called gone
        // (rendering the whole library into the mount point would fill the disk under it).
        guard let entries = FileSystem.entryCount(of: cache, skipping: ""), entries > 0 else {
            result.complete = true
            outcome.withLock { [result] in $0 = result }
            return result
        }
        let record = !whole
        let start = whole ? "" : (try? index.state(StateKey.cacheCheckedThrough)) ?? ""
        let stamps = (try? index.cacheFolderStamps()) ?? [:]
        // A folder changed this recently may change again within its filesystem's timestamp
        // granularity and keep its ctime: it gets no stamp yet. A ctime of whole seconds is
        // taken for a filesystem that keeps no finer ones (FAT's are 2 s).
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        func isSettled(_ change: Int64) -> Bool {
            let coarse = change % 1_000_000_000 == 0
            return change < now - Int64((coarse ? max(settleMargin, .seconds(3)) : settleMargin).seconds * 1e9)
        }
        var found: [String: CacheFolderStamp] = [:]
        var visited: Set<String> = []
        var next = start
        var folders = 0
        var stopped = false
        func check(_ folder: RenditionFolder) throws -> Bool {
            // At least one folder per check, so that every scan moves the check on.
            if folders > 0 && (result.missing.count >= Self.reportLimit || (result.checked >= minimum && isDue)) {
                stopped = true
                return false
            }
            let directory = FilePath(folder.path)
            visited.insert(folder.path)
            folders += 1
            next = folder.path + "0"
            // Taken before the listing, so that a change during it shows at the next check.
            let status = try? FileSystem.status(of: directory)
            if !whole, let status, let stamp = stamps[folder.path], stamp.inode == status.inode,
                stamp.changeNanoseconds == status.changeTotalNanoseconds
            {
                result.checked += stamp.files
                return true
            }
            result.listed += 1
            let expected = try folder.fileCount()
            // As many files as recorded: all there (an orphan beside a lost file, both in one
            // folder, is the one case this lets pass until the counts differ). Names are kept
            // only for a folder whose counts differ.
            let missingBefore = result.missing.count
            if FileSystem.entryCount(of: directory, skipping: FileSystem.temporaryPrefix) != expected {
                let temporary = Array(FileSystem.temporaryPrefix.utf8)
                let names = Set((FileSystem.entries(of: directory) ?? []).filter { !$0.starts(with: temporary) })
                for path in try folder.paths()
                where !names.contains(Array(path.utf8.dropFirst(folder.path.utf8.count + 1))) {
                    result.missing.append(path)
                }
            }
            if let status, result.missing.count == missingBefore, isSettled(status.changeTotalNanoseconds) {
                found[folder.path] = .init(
                    inode: status.inode, changeNanoseconds: status.changeTotalNanoseconds, files: expected)
            }
            result.checked += expected
            return true
        }
        do throws(IndexError) {
            try index.forEachRenditionFolder(from: start, check)
            if !stopped && !start.isEmpty {
                try index.forEachRenditionFolder(from: "", before: start, check)
            }
        } catch {
            stopped = true
        }
        result.complete = !stopped
        // Stopped early (always between two folders): the next check begins with the next
        // folder; a complete one, at the start.
        if record {
            try? index.setState(StateKey.cacheCheckedThrough, stopped ? next : "")
        }
        let forgotten = result.complete ? stamps.keys.filter { !visited.contains($0) } : []
        try? index.recordCacheFolders(found, forgetting: forgotten)
        outcome.withLock { [result] in $0 = result }
        return result
    }

    /// Makes the next check begin at the folder of `path`: where the daemon's idle check found
    /// a file gone, so that the scan it asks for renders it again first.
    public static func resume(at path: String, in index: any PhotoStore) {
        try? index.setState(
            StateKey.cacheCheckedThrough, String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/")
    }
}
