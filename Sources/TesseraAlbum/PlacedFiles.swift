import Synchronization
import TesseraSystem

/// What a build's two writers (the albums and the months, on threads of their own) share of the
/// files they place: which ones pages refer to, for removing the others, and which could not be
/// placed, each counted once.
///
/// Filters of fixed size, so memory stays flat whatever the library's size (a wrong "perhaps"
/// leaves an unused file in place, or a miss uncounted; nothing used is ever removed).
final class PlacedFiles: Sendable {
    private let referenced: Mutex<BloomFilter>
    private let missed: Mutex<(filter: BloomFilter, count: Int)>

    /// The most members a filter is sized for: 16 Mi at 10 bits each.
    static let largestFilter = 1 << 24

    /// - Parameter photos: about how many photos the build shows.
    init(photos: Int) {
        // A rendition or two, an original and perhaps a video each; at most 20 MiB a filter
        // (past 4 million photos, more unused files may stay behind; none used goes).
        let members = min(max(0, photos), Self.largestFilter / 4) * 4
        referenced = Mutex(BloomFilter(expected: members))
        missed = Mutex((BloomFilter(expected: members), 0))
    }

    /// Notes that a page refers to `relative`.
    func refer(_ relative: String) {
        referenced.withLock { $0.insert(relative) }
    }

    /// False when no page of the build refers to `relative`.
    func mayBeReferred(_ relative: String) -> Bool {
        referenced.withLock { $0.mayContain(relative) }
    }

    /// Notes that `relative` could not be placed.
    func miss(_ relative: String) {
        missed.withLock { missed in
            if !missed.filter.mayContain(relative) { missed.count += 1 }
            missed.filter.insert(relative)
        }
    }

    /// Files that could not be placed, each counted once however many pages ask for it.
    var missing: Int { missed.withLock { $0.count } }
}
