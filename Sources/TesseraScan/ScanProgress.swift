public import Foundation
import Synchronization
public import SystemPackage
public import TesseraIndex
import TesseraSystem

/// Live counters of a running scan, readable from any thread.
public final class ScanProgress: Sendable {
    /// What the scan is doing now.
    public enum Phase: String, Sendable, Codable {
        /// `analysing`: photos waiting in the index's queue get their analyses; `grouping`:
        /// stacks and copies are decided again; `videos`: the scan's files are done, web
        /// renditions of videos are being made.
        case walking, rendering, analysing, cleaning, grouping, videos, finished
    }

    public struct Snapshot: Sendable, Codable {
        public var phase: Phase = .walking
        /// Files the walk has found so far (photos and other files).
        public var found = 0
        /// Files dealt with: unchanged, read, moved or failed.
        public var done = 0
        public var errors = 0
        /// Files under the roots, from a count-only walk; nil until it has finished.
        public var total: Int?
        public var startedAt = Date()
        /// While `videos`: web videos made (or that could not be) so far, of how many.
        public var webVideosDone: Int?
        public var webVideosTotal: Int?
        /// While `analysing`: photos analysed so far, of how many.
        public var analysed: Int?
        public var toAnalyse: Int?

        /// Files per second since the start.
        public var rate: Double {
            let elapsed = Date().timeIntervalSince(startedAt)
            return elapsed > 0 ? Double(done) / elapsed : 0
        }

        /// What a person reads of it: files done of how many and the errors; while `analysing`
        /// and `videos`, the photos analysed and web videos made of how many too.
        public var summary: String {
            let files = "\(done)/\(expected) files, \(Wording.count(errors, "error"))"
            if phase == .analysing, let total = toAnalyse { return files + "; analyses \(analysed ?? 0)/\(total)" }
            guard phase == .videos, let total = webVideosTotal else { return files }
            return files + "; web videos \(webVideosDone ?? 0)/\(total)"
        }

        /// Files to deal with in all: the count when known, else what the walk has found.
        public var expected: Int { max(found, total ?? 0) }

        /// Seconds left at the current rate, once the number of files is known.
        public var remaining: Double? {
            guard phase != .walking || total != nil, rate > 0 else { return nil }
            return Double(max(0, expected - done)) / rate
        }

        private enum CodingKeys: String, CodingKey {
            case phase, found, done, errors, total, startedAt, webVideosDone, webVideosTotal, analysed, toAnalyse
        }
        private enum DerivedKeys: String, CodingKey { case expected }

        /// The stored counts, and `expected`, the total that `done` is shown against everywhere
        /// (the terminal bar, `status`, the service's status line), for readers of the JSON.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(phase, forKey: .phase)
            try container.encode(found, forKey: .found)
            try container.encode(done, forKey: .done)
            try container.encode(errors, forKey: .errors)
            try container.encodeIfPresent(total, forKey: .total)
            try container.encode(startedAt, forKey: .startedAt)
            try container.encodeIfPresent(webVideosDone, forKey: .webVideosDone)
            try container.encodeIfPresent(webVideosTotal, forKey: .webVideosTotal)
            try container.encodeIfPresent(analysed, forKey: .analysed)
            try container.encodeIfPresent(toAnalyse, forKey: .toAnalyse)
            var derived = encoder.container(keyedBy: DerivedKeys.self)
            try derived.encode(expected, forKey: .expected)
        }
    }

    private let state = Mutex(Snapshot())
    /// When any thread of the scan last made progress, in monotonic nanoseconds.
    private let lastBeat = Atomic<Int64>(ScanProgress.monotonicNanoseconds())

    public init() {}

    public var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ body: (inout Snapshot) -> Void) {
        state.withLock { body(&$0) }
        beat()
    }

    func reset() {
        state.withLock { $0 = Snapshot() }
        beat()
    }

    /// Records that the scan is making progress (a file started or finished, a directory listed).
    func beat() {
        lastBeat.store(Self.monotonicNanoseconds(), ordering: .relaxed)
    }

    /// Time since the scan last made progress: how long it has been stuck, if it is.
    public var sinceProgress: Duration {
        .nanoseconds(Self.monotonicNanoseconds() &- lastBeat.load(ordering: .relaxed))
    }

    /// Nanoseconds on the monotonic clock, from when this process first asked.
    private static func monotonicNanoseconds() -> Int64 {
        let elapsed = Self.origin.duration(to: .now).components
        return elapsed.seconds &* 1_000_000_000 &+ elapsed.attoseconds / 1_000_000_000
    }

    private static let origin = ContinuousClock.now
}

/// A request to stop, checked between files: the file in hand is finished, no new one is started.
public final class StopFlag: Sendable {
    private let flag = Atomic(false)

    public init() {}

    public func stop() { flag.store(true, ordering: .relaxed) }
    public var isSet: Bool { flag.load(ordering: .relaxed) }
}

/// How a scan ended, with its counts.
public struct ScanSummary: Sendable, Codable {
    public var scanID: Int64
    /// `finished`; `interrupted` when stopped or when a root disappeared; `failed` with a reason.
    public var state: ScanState
    public var counts: ScanCounts
    public var elapsed: Double
    /// Folders found offline (an unmounted disk): what is indexed there was kept.
    public var offline: [String] = []
    /// Files the index records as unreadable once the scan ended, read by this scan or before.
    public var failing: Int?
}

extension ScanSummary: CustomStringConvertible {
    /// One line for people and logs, such as "finished in 1.2 s: 240 files: 3 new, 237 unchanged;
    /// 11 files cannot be read".
    public var description: String {
        "\(state) in \(Wording.duration(elapsed)): \(counts)"
            + (failing.map { $0 > 0 ? "; \(Wording.count($0, "file")) cannot be read" : "" } ?? "")
            + (offline.isEmpty ? "" : "; offline, kept as they were: \(offline.joined(separator: ", "))")
    }
}

extension ScanSummary {
    /// What `tessera scan` prints when its scan ends: the counts, where the index and the
    /// thumbnails are, folders found offline, and `errorsCommand` (the command that lists the
    /// files that cannot be read) when there are any.
    public func text(index: FilePath, cache: FilePath, errorsCommand: String) -> String {
        var lines = ["Scan \(state) in \(Wording.duration(elapsed)): \(counts)"]
        lines += ["Index:      \(index)", "Thumbnails: \(cache)"]
        lines += offline.map { "Offline:    \($0), kept as it was" }
        if let failing, failing > 0 {
            let which =
                failing == 1 ? "1 file cannot be read; which and why" : "\(failing) files cannot be read; which and why"
            lines.append("\(which): \(errorsCommand)")
        }
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }
}
