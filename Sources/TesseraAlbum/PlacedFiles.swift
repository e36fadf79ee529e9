import Synchronization
import TesseraSystem

/// What a build's two writers (the albums and the months, on threads of their own) share of the
/// files they place: which ones pages refer to, for removing the others, and which could not be
/// placed, each counted once.
///
/// Filters that grow with what the build placed (a wrong "perhaps" leaves an unused file in
/// place, or a miss uncounted; nothing used is ever removed): a build into a folder that holds
/// no files yet has none to remove, one that writes nothing refers to none, and one that misses
/// none counts none.
final class PlacedFiles: Sendable {
    /// Nil when nothing in the output can be unused (it held no files when the build began).
    private let referenced: Mutex<GrowingFilter>?
    private let missed: Mutex<(filter: GrowingFilter, count: Int)>

    /// - Parameter removing: whether files already in the output may have to be removed.
    init(removing: Bool) {
        referenced = removing ? Mutex(GrowingFilter()) : nil
        missed = Mutex((GrowingFilter(), 0))
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
            if !missed.filter.mayContain(relative) { missed.count += 1 }
            missed.filter.insert(relative)
        }
    }

    /// Files that could not be placed, each counted once however many pages ask for it.
    var missing: Int { missed.withLock { $0.count } }
}

/// Bloom filters made as members come, each four times the last.
///
/// Memory follows what a build placed (none for a build that wrote nothing, 80 KiB for an album
/// or a few), not the library; about 17 MiB at most (past that the last filter fills up and
/// more unused files may stay behind; none used goes). A member is looked for in each: at most
/// five, so that a wrong "perhaps" stays rare.
struct GrowingFilter {
    private var filters: [BloomFilter] = []
    /// Members the last filter was made for, and how many more it takes.
    private var size = 0, room = 0

    static let first = 1 << 16
    static let largest = 1 << 23

    mutating func insert(_ member: String) {
        if room == 0 && size < Self.largest {
            size = size == 0 ? Self.first : min(4 * size, Self.largest)
            filters.append(BloomFilter(expected: size))
            room = size
        }
        filters[filters.count - 1].insert(member)
        room = max(0, room - 1)
    }

    func mayContain(_ member: String) -> Bool {
        filters.contains { $0.mayContain(member) }
    }
}
