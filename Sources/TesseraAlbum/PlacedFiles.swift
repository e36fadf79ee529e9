import Synchronization
import TesseraSystem

/// What a build's two writers (the albums and the months, on threads of their own) share of the
/// files they place: which ones pages refer to, for removing the others, and which could not be
/// placed, each counted once.
///
/// Filters of bounded size (a wrong "perhaps" leaves an unused file in place, or a miss
/// uncounted; nothing used is ever removed), each made only when needed: a build into a
/// folder that holds no files yet has none to remove, and one that misses none counts none.
final class PlacedFiles: Sendable {
    /// Nil when nothing in the output can be unused (it held no files when the build began).
    private let referenced: Mutex<BloomFilter>?
    private let missed: Mutex<(filter: BloomFilter?, count: Int)>
    private let members: Int

    /// The most members a filter is sized for: 16 Mi at 10 bits each.
    static let largestFilter = 1 << 24

    /// - Parameters:
    ///   - photos: about how many photos the build shows.
    ///   - removing: whether files already in the output may have to be removed.
    init(photos: Int, removing: Bool) {
        // A rendition or two, an original and perhaps a video each; at most 20 MiB a filter
        // (past 4 million photos, more unused files may stay behind; none used goes).
        members = min(max(0, photos), Self.largestFilter / 4) * 4
        referenced = removing ? Mutex(BloomFilter(expected: members)) : nil
        missed = Mutex((nil, 0))
    }

    /// Whether this build can tell unused files from used ones: when it began, the output held
    /// files to tell apart.
    var removing: Bool { referenced != nil }

    /// Notes that a page refers to `relative`.
    func refer(_ relative: String) {
        referenced?.withLock { $0.insert(relative) }
    }

    /// False when no page of the build refers to `relative`.
    func mayBeReferred(_ relative: String) -> Bool {
        referenced?.withLock { $0.mayContain(relative) } ?? true
    }

    /// Notes that `relative` could not be placed.
    func miss(_ relative: String) {
        missed.withLock { missed in
            if missed.filter == nil { missed.filter = BloomFilter(expected: members) }
            if missed.filter?.mayContain(relative) == false { missed.count += 1 }
            missed.filter?.insert(relative)
        }
    }

    /// Files that could not be placed, each counted once however many pages ask for it.
    var missing: Int { missed.withLock { $0.count } }
}
