import Foundation
public import SystemPackage
public import TesseraIndex
public import TesseraScan
import TesseraSystem

/// What a client may ask the daemon: one JSON object on one line.
///
/// `{"command":"status"}`, or `{"command":"rescan","full":false,"wait":true}`, optionally
/// with `"roots"` (base64 of each path's bytes): the folders a handed-over
/// `tessera scan` wanted, which must lie within the daemon's own roots.
public struct ControlRequest: Codable, Sendable {
    public enum Command: String, Codable, Sendable {
        case status, rescan, people
    }

    public var command: Command
    public var full: Bool?
    public var wait: Bool?
    /// What `people` decides (docs/PEOPLE.md): the daemon, which writes the index, carries it out.
    public var decision: PeopleDecision?
    /// The wire form of `requestedRoots`: a path is bytes, which JSON strings cannot carry.
    private var roots: [String]?

    /// - Parameter roots: folders to scan, made absolute against this process's working directory.
    public init(
        command: Command, full: Bool? = nil, wait: Bool? = nil, roots: [FilePath]? = nil,
        decision: PeopleDecision? = nil
    ) {
        self.command = command
        self.decision = decision
        self.full = full
        self.wait = wait
        self.roots = roots?.map { Data(FileSystem.absolute($0).rawBytes).base64EncodedString() }
    }

    /// The folders the request names (none: all the daemon's roots).
    public func requestedRoots() throws(ControlError) -> [FilePath] {
        var paths: [FilePath] = []
        for text in roots ?? [] {
            guard let bytes = Data(base64Encoded: text) else {
                throw ControlError(.malformed, "malformed request: roots must be base64")
            }
            paths.append(FilePath(rawBytes: [UInt8](bytes)).lexicallyNormalized())
        }
        return paths
    }

    /// Longest request line accepted; anything longer is refused unread.
    public static let maximumLength = 4096

    /// The request one line holds.
    ///
    /// - Throws: `ControlError` saying which is wrong: not JSON at all, or a command this daemon
    ///   does not know.
    public static func parse(_ line: [UInt8]) throws(ControlError) -> ControlRequest {
        do {
            return try JSONDecoder().decode(ControlRequest.self, from: Data(line))
        } catch {
            struct Named: Decodable { var command: String }
            if let named = try? JSONDecoder().decode(Named.self, from: Data(line)) {
                throw ControlError(.malformed, "unknown command \"\(named.command)\" (status, rescan or people)")
            }
            throw ControlError(.malformed, "malformed request: expected one JSON object")
        }
    }
}

/// The bytes a client has sent so far, cut into its request line once the newline comes.
///
/// A line longer than `ControlRequest.maximumLength` is refused without waiting for its end, so
/// a client cannot make the daemon hold more than that much of its input.
public struct ControlRequestLine: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// What the bytes read so far make.
    public enum Outcome: Equatable, Sendable {
        /// No newline yet.
        case incomplete
        /// The request line, without its newline.
        case line([UInt8])
        /// More than `ControlRequest.maximumLength` bytes without a newline.
        case tooLong
    }

    /// Adds `chunk`, as read from the socket; after a line or `tooLong` it starts afresh.
    public mutating func append(_ chunk: some Collection<UInt8>) -> Outcome {
        pending += chunk
        if let newline = pending.firstIndex(of: UInt8(ascii: "\n")), newline <= ControlRequest.maximumLength {
            defer { pending = [] }
            return .line(Array(pending[..<newline]))
        }
        guard pending.count <= ControlRequest.maximumLength else {
            pending = []
            return .tooLong
        }
        return .incomplete
    }
}

/// What the daemon is doing.
public enum DaemonState: String, Codable, Sendable {
    case idle
    case scanning
    /// Another process (a `tessera scan`) holds the index; the daemon waits for it.
    case waitingForIndex = "waiting-for-index"
}

/// The daemon's answer to `status`.
public struct DaemonStatus: Codable, Sendable {
    public var state: DaemonState
    public var progress: ScanProgress.Snapshot?
    /// What the index holds; its keys (`photos`, `videos`, …) sit beside the others in the JSON.
    public var totals: IndexTotals
    public var lastScan: ScanSummary?
    public var lastError: String?
    public var scansStarted: Int
    public var scansFinished: Int
    public var version: String
    public var uptime: Double
    public var index: String
    public var cache: String

    private enum CodingKeys: String, CodingKey {
        case state, progress, lastScan, lastError, scansStarted, scansFinished, version, uptime, index, cache
    }

    init(
        state: DaemonState, progress: ScanProgress.Snapshot?, totals: IndexTotals, lastScan: ScanSummary?,
        lastError: String?,
        scansStarted: Int, scansFinished: Int, version: String, uptime: Double, index: String, cache: String
    ) {
        (self.state, self.progress, self.totals, self.lastScan, self.lastError) = (
            state, progress, totals, lastScan, lastError
        )
        (self.scansStarted, self.scansFinished, self.version, self.uptime) = (
            scansStarted, scansFinished, version, uptime
        )
        (self.index, self.cache) = (index, cache)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            state: try container.decode(DaemonState.self, forKey: .state),
            progress: try container.decodeIfPresent(ScanProgress.Snapshot.self, forKey: .progress),
            totals: try IndexTotals(from: decoder),
            lastScan: try container.decodeIfPresent(ScanSummary.self, forKey: .lastScan),
            lastError: try container.decodeIfPresent(String.self, forKey: .lastError),
            scansStarted: try container.decode(Int.self, forKey: .scansStarted),
            scansFinished: try container.decode(Int.self, forKey: .scansFinished),
            version: try container.decode(String.self, forKey: .version),
            uptime: try container.decode(Double.self, forKey: .uptime),
            index: try container.decode(String.self, forKey: .index),
            cache: try container.decode(String.self, forKey: .cache))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(progress, forKey: .progress)
        try totals.encode(to: encoder)
        try container.encodeIfPresent(lastScan, forKey: .lastScan)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        try container.encode(scansStarted, forKey: .scansStarted)
        try container.encode(scansFinished, forKey: .scansFinished)
        try container.encode(version, forKey: .version)
        try container.encode(uptime, forKey: .uptime)
        try container.encode(index, forKey: .index)
        try container.encode(cache, forKey: .cache)
    }
}

/// One line of the daemon's answer.
public struct ControlResponse: Codable, Sendable {
    public var status: DaemonStatus?
    /// The number of the scan that will answer a rescan request.
    public var accepted: Int?
    public var progress: ScanProgress.Snapshot?
    public var finished: ScanSummary?
    /// What a `people` request did, in a line.
    public var done: String?
    public var error: String?

    public init(
        status: DaemonStatus? = nil, accepted: Int? = nil, progress: ScanProgress.Snapshot? = nil,
        finished: ScanSummary? = nil, done: String? = nil, error: String? = nil
    ) {
        self.done = done
        self.status = status
        self.accepted = accepted
        self.progress = progress
        self.finished = finished
        self.error = error
    }

    /// The response as one JSON line.
    var line: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        var data = (try? encoder.encode(self)) ?? Data(#"{"error":"cannot encode the response"}"#.utf8)
        data.append(UInt8(ascii: "\n"))
        return [UInt8](data)
    }
}

/// A control-socket failure: what kind, and one line for the user.
public struct ControlError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case noDaemon, denied, socket, silent, malformed, client }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// Nothing listens on the socket: no daemon runs.
        public static let noDaemon = Code(.noDaemon)
        /// A daemon may be running, but this user may not use its socket.
        public static let denied = Code(.denied)
        /// The socket cannot be made or used (a path too long, a directory that cannot be created).
        public static let socket = Code(.socket)
        /// The daemon stopped answering.
        public static let silent = Code(.silent)
        /// The other side sent something that is not the protocol.
        public static let malformed = Code(.malformed)
        /// A client went away, dawdled or misbehaved (server side).
        public static let client = Code(.client)

        public var description: String { kind.rawValue }
    }

    public let code: Code
    public let description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
