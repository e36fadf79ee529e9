import Logging
import Synchronization
import SystemPackage
import TesseraConfiguration
import TesseraDaemon
import TesseraFacts
import TesseraImage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// A daemon run in this process over a small library in a temporary folder, with its log kept.
struct DaemonFixture {
    let directory: TemporaryDirectory
    let configuration: Configuration
    let daemon: Daemon
    let log: LogRecorder

    var photos: FilePath { FilePath(directory.path).appending("photos") }
    var socket: FilePath { configuration.controlSocket }

    init(scanOnStart: Bool = true, clock: ElapsedClock = .continuous) throws {
        directory = try TemporaryDirectory("tessera-daemon")
        var configuration = Configuration(environment: ["HOME": directory.path])
        configuration.roots = [FilePath(directory.path).appending("photos")]
        configuration.index = FilePath(directory.path).appending("index.sqlite")
        configuration.cache = FilePath(directory.path).appending("cache")
        configuration.controlSocket = FilePath(directory.path).appending("control.sock")
        configuration.renditions = [.square(64)]
        configuration.workers = 2
        configuration.watch = false
        configuration.scanOnStart = scanOnStart
        try SampleLibrary.write(to: configuration.roots[0])
        self.configuration = configuration
        let log = LogRecorder()
        self.log = log
        var logger = Logger(label: "tessera-test") { _ in log }
        logger.logLevel = .debug
        daemon = Daemon(
            configuration: configuration, reload: { [configuration] in configuration }, version: "test", logger: logger,
            notifier: SystemdNotifier(environment: [:]), clock: clock, shutdownSignals: [])
    }

    func remove() { directory.remove() }

    /// Sends `request` from a thread of its own (the client blocks) and folds the answers.
    func request(_ request: ControlRequest) async throws -> ControlClient.Outcome {
        let socket = socket
        return try await DedicatedThread.run("client") {
            Result { () throws(ControlError) in try ControlClient.request(request, to: socket) }
        }.get()
    }

    /// The daemon's status, asked over its socket.
    func status() async throws -> DaemonStatus? {
        let socket = socket
        return try await DedicatedThread.run("client") {
            Result { () throws(ControlError) -> DaemonStatus? in
                var status: DaemonStatus?
                try ControlClient.send(ControlRequest(command: .status), to: socket) { status = $0.status ?? status }
                return status
            }
        }.get()
    }
}

/// Waits until `condition` holds, looking every 10 ms for at most 30 s: false when it never did.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<3000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Keeps every log message with its metadata, for tests that read what the daemon said.
final class LogRecorder: LogHandler, Sendable {
    struct Entry: Sendable {
        var message: String
        var metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])
    var logLevel: Logger.Level {
        get { .debug }
        set {}  // every level is recorded
    }
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    var recorded: [Entry] { entries.withLock { $0 } }

    func log(event: LogEvent) {
        let metadata = (event.metadata ?? [:]).mapValues { "\($0)" }
        entries.withLock { $0.append(Entry(message: event.message.description, metadata: metadata)) }
    }
}
