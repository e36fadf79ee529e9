import Synchronization
import SystemPackage
import TesseraImage
import TesseraIndex
import TesseraSystem

/// What the stages of one scan share: its id and mode, the queues from the walk (and the
/// repairs, which feed the same one) to the workers and from them to the writer, its tally, and
/// the journal of the files in hand.
struct ScanRun: Sendable {
    let id: Int64
    /// The previous scan died: this one finishes its work (and sweeps the cache).
    let recovered: Bool
    let started: ContinuousClock.Instant
    let roots: RootSet
    let full: Bool
    let stop: StopFlag
    let tally: ScanTally
    let jobs: BoundedQueue<LibraryScanner.Job>
    let outcomes: BoundedQueue<LibraryScanner.Outcome>
    let journal: ReadJournal
    let cache: RenditionCache
    /// Decoders or metadata readers changed since the last complete scan: files they may now
    /// read otherwise are read again, once.
    let newDecoders: Bool
    let newReaders: Bool
    /// Capture dates resolved again in a new time zone.
    let redated: Int
}

/// What one scan counts, and the first failure that stops it.
///
/// Two stages count, each what it decides: the writer every outcome (the walk's own among
/// them), the settle stage the files not seen. Every figure only grows; `counts` derives the
/// summary's from them in one place.
final class ScanTally: Sendable {
    struct Figures {
        /// As the outcomes said: a repaired photo is among `unchanged`, a move across disks among `new`.
        var recorded = ScanCounts()
        /// Repaired photos whose file turned out changed, failing or unreadable when read: they
        /// are counted as what they turned out to be, not as unchanged.
        var repairsReadAgain = 0
        /// New files the settle stage found to be a vanished file moved across disks.
        var newThatMoved = 0
    }

    private let figures = Mutex(Figures())
    private let firstFailure = Mutex<ScanError?>(nil)
    private let stop: StopFlag

    init(stop: StopFlag) {
        self.stop = stop
    }

    func record(_ change: (inout Figures) -> Void) {
        figures.withLock { change(&$0) }
    }

    /// The scan's counts so far.
    var counts: ScanCounts {
        figures.withLock { figures in
            var counts = figures.recorded
            counts.unchanged -= min(counts.unchanged, figures.repairsReadAgain)
            let moved = min(counts.new, figures.newThatMoved)
            counts.new -= moved
            counts.moved += moved
            return counts
        }
    }

    var failure: ScanError? { firstFailure.withLock { $0 } }

    /// Records `error` unless an earlier failure is already recorded, and stops the scan.
    func fail(_ error: ScanError) {
        firstFailure.withLock { $0 = $0 ?? error }
        stop.stop()
    }
}

extension ScanCounts {
    mutating func add(_ other: ScanCounts) {
        found += other.found
        new += other.new
        changed += other.changed
        reread += other.reread
        unchanged += other.unchanged
        rerendered += other.rerendered
        moved += other.moved
        removed += other.removed
        missing += other.missing
        keptOffline += other.keptOffline
        unsupported += other.unsupported
        errors += other.errors
        unlisted += other.unlisted
        warnings += other.warnings
    }
}

/// What a walk saw: it decides which unseen files are missing and which are offline.
struct Sightings {
    /// Rows seen.
    var ids = Bitset()
    /// Rows not seen but kept: below a directory the walk could not read.
    var kept = Bitset()
    var keptCount = 0
    /// Rows seen and sent to the workers (new content, or renditions out of date).
    var queued = Bitset()
    /// Files that were being read among others when a scan died: read alone, after the rest.
    var alone: [LibraryScanner.Job] = []
    /// The devices of the directories walked, and those the seen files were indexed from
    /// (a disk mounted again may come back under a new device number).
    var devices: Set<UInt64> = []
    /// The first directory the walk met on each device: a root, or a disk mounted below one.
    var mounts: [UInt64: FilePath] = [:]
    /// Files found under each root.
    var files: [FilePath: Int] = [:]
}

/// A growable set of row ids.
struct Bitset {
    private var words: [UInt64] = []

    mutating func insert(_ id: Int64) {
        guard id >= 0 else { return }
        let word = Int(id / 64)
        if word >= words.count { words += [UInt64](repeating: 0, count: word - words.count + 1) }
        words[word] |= 1 << UInt64(id % 64)
    }

    func contains(_ id: Int64) -> Bool {
        guard id >= 0, Int(id / 64) < words.count else { return false }
        return words[Int(id / 64)] & (1 << UInt64(id % 64)) != 0
    }
}
