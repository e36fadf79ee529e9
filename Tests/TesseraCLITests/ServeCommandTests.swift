import Foundation
import Glibc
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`, drained by a thread of its own.
final class NotifyListener: @unchecked Sendable {
    // @unchecked: `messages` is only touched under `lock`.
    let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var received: [String] = []

    init(path: String) throws {
        self.path = path
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        Thread.detachNewThread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0, let self else { return }
                let message = String(decoding: buffer[..<count], as: UTF8.self)
                self.lock.withLock { self.received.append(message) }
            }
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// Every message received so far.
    var messages: [String] { lock.withLock { received } }

    /// All messages so far, once one satisfies `until` or `seconds` pass.
    func receive(for seconds: Double, until: (String) -> Bool) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let received = messages
            if received.contains(where: until) || Date() >= deadline { return received }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

/// A real `tessera serve` process on a temporary library.
final class DaemonProcess {
    let directory: TemporaryDirectory
    let process = Process()
    let notify: NotifyListener
    var socket: String { directory.appending("run/control.sock") }
    let store: [String]

    init(
        photos: String, directory: TemporaryDirectory, watch: Bool = false, configuration extra: String = "",
        environment extraEnvironment: [String: String] = [:], store: [String]? = nil
    ) throws {
        self.directory = directory
        self.store = store ?? ["--index", directory.appending("index.sqlite"), "--cache", directory.appending("cache")]
        notify = try NotifyListener(path: directory.appending("notify.sock"))
        let config = directory.appending("config.yaml")
        try Data("watch: \(watch)\n\(extra)".utf8).write(to: URL(fileURLWithPath: config))
        process.executableURL = TesseraProcess.executable
        process.arguments =
            ["serve", photos, "--config", config, "--socket", directory.appending("run/control.sock")]
            + self.store
        var environment = ProcessInfo.processInfo.environment.merging(extraEnvironment) { $1 }
        environment["NOTIFY_SOCKET"] = notify.path
        environment["WATCHDOG_USEC"] = "2000000"
        environment.removeValue(forKey: "WATCHDOG_PID")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// A client socket connected to the daemon's control socket.
    static func connect(_ path: String) -> Int32 {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return descriptor
    }

    /// Sends raw bytes as one client and returns the first answer (empty when `closeEarly`).
    ///
    /// Sends `bytes` and returns the first answer; "" when none comes within `timeout` seconds.
    static func raw(_ bytes: [UInt8], to path: String, closeEarly: Bool = false, timeout: Int = 30) -> String {
        let descriptor = connect(path)
        defer { close(descriptor) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL))
        if closeEarly { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }

    func tessera(_ arguments: [String]) throws -> TesseraProcess.Result {
        try TesseraProcess.run(arguments + ["--socket", socket])
    }

    /// SIGTERM, then the seconds it took to exit (or nil after 15 s).
    func terminate() -> (seconds: Double, status: Int32)? {
        let start = Date()
        kill(process.processIdentifier, SIGTERM)
        _ = Deadline.wait(seconds: 15) { !self.process.isRunning }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return (Date().timeIntervalSince(start), process.terminationStatus)
    }

    func scansStarted() throws -> Int {
        try status()["scansStarted"] as? Int ?? -1
    }

    /// `tessera status --json`, parsed.
    func status() throws -> [String: Any] {
        let status = try tessera(["status", "--json"])
        return try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any] ?? [:]
    }
}

struct ServeCommandTests {
    @Test func readyRescanReloadBurstAndGracefulStop() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 6, width: 400)
        let daemon = try DaemonProcess(photos: photos, directory: directory)
        defer { if daemon.process.isRunning { kill(daemon.process.processIdentifier, SIGKILL) } }

        // READY=1 once the index is open and the socket listens; WATCHDOG=1 while healthy.
        let messages = daemon.notify.receive(for: 10) { $0.contains("WATCHDOG=1") }
        #expect(messages.contains { $0.contains("READY=1") })
        #expect(messages.contains { $0.contains("WATCHDOG=1") })

        // Add, modify and delete photos; a waited rescan brings the index up to date.
        let added = FilePath(photos).appending("album0/new.jpg")
        try FileSystem.writeAtomically(
            SampleImage.jpeg(SampleImage.pixels(width: 300, height: 200, seed: 99)), to: added)
        try FileManager.default.removeItem(atPath: photos + "/album1/p1.jpg")
        let modified = photos + "/album2/p2.jpg"
        try Data(try SampleImage.jpeg(SampleImage.pixels(width: 500, height: 300, seed: 5))).write(
            to: URL(fileURLWithPath: modified))
        let rescan = try daemon.tessera(["rescan", "--wait", "--json"])
        #expect(rescan.status == 0, "\(rescan.stderr)")
        let list = try TesseraProcess.run(["list", "--json"] + daemon.store)
        let indexed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let paths = Set(indexed.compactMap { $0["path"] as? String })
        #expect(paths.contains(added.string) && !paths.contains(photos + "/album1/p1.jpg") && paths.count == 6)
        #expect(indexed.first { $0["path"] as? String == modified }?["width"] as? Int == 500)

        // SIGHUP (systemctl reload) triggers a scan.
        let before = try daemon.scansStarted()
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(Deadline.wait(seconds: 10) { (try? daemon.scansStarted()) == before + 1 })
        _ = try daemon.tessera(["rescan", "--wait"])

        // A burst of 100 rescan requests yields at most 2 scans.
        let burstStart = try daemon.scansStarted()
        let socketPath = daemon.socket
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            _ = DaemonProcess.raw(Array(#"{"command":"rescan"}"#.utf8) + [10], to: socketPath)
        }
        _ = try daemon.tessera(["rescan", "--wait"])
        let burstScans = try daemon.scansStarted() - burstStart
        #expect(burstScans >= 1 && burstScans <= 2)

        // SIGTERM: exit 0 within 10 s, STOPPING=1 sent.
        let stop = try #require(daemon.terminate())
        #expect(stop.status == 0 && stop.seconds < 10)
        #expect(daemon.notify.receive(for: 1) { $0.contains("STOPPING=1") }.contains { $0.contains("STOPPING=1") })
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    @Test func aReloadMakesTheAddedRenditionsAndDropsTheRemovedOnes() throws {
        // Given a daemon whose configuration asks for a 64 square only, with its library scanned,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 4, width: 300)
        let daemon = try DaemonProcess(
            photos: photos, directory: directory, configuration: "thumbnails:\n  square: [64]\n  fit: []\n")
        defer { _ = daemon.terminate() }
        _ = daemon.notify.receive(for: 10) { $0.contains("READY=1") }
        #expect(try daemon.tessera(["rescan", "--wait"]).status == 0)
        let index = directory.appending("index.sqlite")
        let renditions = "SELECT kind || ' ' || size, count(*) FROM renditions GROUP BY kind, size ORDER BY kind, size"
        #expect(SQLite.query(index, renditions) == [["square 64", "4"]])
        let squares = (SQLite.query(index, "SELECT path FROM renditions") ?? []).map { $0[0] }
        // when the configuration trades the square for a 128 fit and systemctl reload sends SIGHUP,
        let finished = try #require(try daemon.status()["scansFinished"] as? Int)
        try Data("watch: false\nthumbnails:\n  square: []\n  fit: [128]\n".utf8)
            .write(to: URL(fileURLWithPath: directory.appending("config.yaml")))
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(Deadline.wait(seconds: 30) { (try? daemon.status()["scansFinished"] as? Int) == finished + 1 })
        // then the next scan makes the fits of the unchanged photos and deletes the squares' files.
        #expect(SQLite.query(index, renditions) == [["fit 128", "4"]])
        #expect(SQLite.integer(index, "SELECT rerendered FROM scans ORDER BY id DESC LIMIT 1") == 4)
        #expect(squares.count == 4 && squares.allSatisfy { !FileManager.default.fileExists(atPath: $0) })

        // A configuration that does not load is reported and changes nothing.
        try Data("thumbnails:\n  fit: [3]\n".utf8).write(to: URL(fileURLWithPath: directory.appending("config.yaml")))
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(Deadline.wait(seconds: 30) { (try? daemon.status()["scansFinished"] as? Int) == finished + 2 })
        #expect(SQLite.query(index, renditions) == [["fit 128", "4"]])
        #expect(daemon.process.isRunning)
    }

    @Test func sigtermInTheMiddleOfAScanLeavesASoundIndex() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 40)
        let daemon = try DaemonProcess(photos: photos, directory: directory)
        defer { if daemon.process.isRunning { kill(daemon.process.processIdentifier, SIGKILL) } }
        // Once the first scan has written part of the library,
        let indexPath = directory.appending("index.sqlite")
        #expect(Deadline.wait(seconds: 60) { (SQLite.integer(indexPath, "SELECT count(*) FROM photos") ?? 0) > 0 })
        let scanning = try daemon.status()["state"] as? String == "scanning"
        let stop = try #require(daemon.terminate())
        try #require(scanning, "the library is too small to catch the scan at work")
        // SIGTERM ends the daemon at once, and the scan is recorded as interrupted.
        #expect(stop.status == 0 && stop.seconds < 10)
        let index = try PhotoIndex(path: FilePath(indexPath))
        #expect(try index.integrityCheck() == "ok")
        #expect(try index.lastScan()?.state == .interrupted)
    }

    @Test func garbageOnTheControlSocketIsRejectedWhileStatusKeepsAnswering() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 100)
        let daemon = try DaemonProcess(photos: photos, directory: directory)
        defer { _ = daemon.terminate() }
        _ = daemon.notify.receive(for: 10) { $0.contains("READY=1") }
        #expect(try daemon.tessera(["rescan", "--wait"]).status == 0)

        func raw(_ bytes: [UInt8], closeEarly: Bool = false) -> String {
            DaemonProcess.raw(bytes, to: daemon.socket, closeEarly: closeEarly)
        }
        #expect(raw(Array("not json\n".utf8)).contains("malformed request"))
        #expect(raw(Array(#"{"command":"format-disk"}"#.utf8) + [10]).contains("unknown command"))
        #expect(raw([UInt8](repeating: 0x41, count: 10_000)).contains("too long"))
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            _ = raw(
                (0..<Int.random(in: 1...600)).map { _ in UInt8.random(in: 0...255, using: &random) }, closeEarly: true)
        }
        // A slow client that never finishes its line does not block others.
        let slow = DaemonProcess.connect(daemon.socket)
        defer { close(slow) }
        _ = send(slow, Array(#"{"comm"#.utf8), 6, 0)
        let status = try daemon.tessera(["status", "--json"])
        #expect(status.status == 0)
        #expect(status.stdout.contains(#""photos" : 2"#))
    }

    @Test func changesSeenByInotifyAreScannedWithoutBeingAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 100)
        let daemon = try DaemonProcess(photos: photos, directory: directory, watch: true)
        defer { _ = daemon.terminate() }
        _ = daemon.notify.receive(for: 10) { $0.contains("READY=1") }
        #expect(try daemon.tessera(["rescan", "--wait"]).status == 0)
        // A new folder with a photo in it: the folder gets a watch, the photo a scan.
        let added = FilePath(photos).appending("brand new/photo.jpg")
        try FileSystem.writeAtomically(SampleImage.jpeg(SampleImage.pixels(width: 120, height: 80)), to: added)
        #expect(Deadline.wait(seconds: 20) { (try? daemon.status())?["photos"] as? Int == 3 })
        // A second photo in the folder that appeared is seen through the folder's own watch.
        try FileSystem.writeAtomically(
            SampleImage.jpeg(SampleImage.pixels(width: 120, height: 80, seed: 3)),
            to: FilePath(photos).appending("brand new/second.jpg"))
        #expect(Deadline.wait(seconds: 20) { (try? daemon.status())?["photos"] as? Int == 4 })
    }

    /// A sidecar edit does not change its photo's mtime: the watch on the folder sees the
    /// sidecar itself, and the row follows its adding, editing and deleting, pixels untouched.
    @Test func sidecarChangesSeenByInotifyUpdateThePhotoRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 100)
        let daemon = try DaemonProcess(photos: photos, directory: directory, watch: true)
        defer { _ = daemon.terminate() }
        _ = daemon.notify.receive(for: 10) { $0.contains("READY=1") }
        #expect(try daemon.tessera(["rescan", "--wait"]).status == 0)
        let photo = FilePath(photos).appending("album0/p0.jpg")
        func row() -> PhotoRecord? {
            let index = try? PhotoIndex(path: FilePath(directory.appending("index.sqlite")), readOnly: true)
            return (try? index?.photos(.init()))?.first { $0.path == photo }
        }
        let renditions = ScanCommandTests.thumbnails(directory)
        #expect(!renditions.isEmpty)

        let sidecar = FilePath(photos).appending("album0/p0.jpg.xmp")
        try FileSystem.writeAtomically(SampleSidecar.xmp(rating: 4, keyword: "harbour"), to: sidecar)
        #expect(Deadline.wait(seconds: 20) { row()?.annotations.rating == 4 })
        #expect(row()?.annotations.keywords == ["harbour"] && row()?.annotations.sidecar == "p0.jpg.xmp")

        try FileSystem.writeAtomically(SampleSidecar.xmp(rating: 1, keyword: "sunset"), to: sidecar)
        #expect(Deadline.wait(seconds: 20) { row()?.annotations.keywords == ["sunset"] })
        #expect(row()?.annotations.rating == 1)

        try FileSystem.removeFile(sidecar)
        #expect(Deadline.wait(seconds: 20) { row()?.annotations.sidecar == nil })
        #expect(row()?.annotations.rating == nil && row()?.annotations.keywords == [])
        // The same rendition files, never written again (their inodes are the same).
        #expect(ScanCommandTests.thumbnails(directory) == renditions)
    }

    @Test func anIdleDaemonMakesAgainTheRenditionsDeletedFromItsCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 6, width: 100)
        let daemon = try DaemonProcess(photos: photos, directory: directory, configuration: "cache_check_interval: 1\n")
        defer { _ = daemon.terminate() }
        _ = daemon.notify.receive(for: 10) { $0.contains("READY=1") }
        #expect(try daemon.tessera(["rescan", "--wait"]).status == 0)
        let index = try PhotoIndex(path: FilePath(directory.appending("index.sqlite")), readOnly: true)
        let files = Array(Set(try index.photos(.init()).flatMap { $0.renditions.map(\.path) })).sorted()
        #expect(files.count > 6)
        // Deleted by hand while nothing in the photo folders changes: no watch fires, no rescan is due.
        let deleted = stride(from: 0, to: files.count, by: 3).map { files[$0] }
        for path in deleted { try FileManager.default.removeItem(atPath: path) }
        #expect(Deadline.wait(seconds: 30) { deleted.allSatisfy { FileManager.default.fileExists(atPath: $0) } })
    }

    @Test func statusSaysIdleWhenAScanEndsAndNoProgressLineFollows() throws {
        // Given a daemon whose first scan lasts long enough for progress lines (every 2 s) on an
        // idle machine too (one worker, a slow disk),
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 80, width: 320)
        let daemon = try DaemonProcess(
            photos: photos, directory: directory, configuration: "workers: 1\n",
            environment: ["TESSERA_FAULT": "read:SLOW"])
        defer { _ = daemon.terminate() }
        for round in 1...2 {
            if round == 2 {
                // (a second, shorter scan: 12 new photos)
                for number in 0..<12 {
                    try FileSystem.writeAtomically(
                        try ScanCommandTests.jpeg(width: 320, seed: 100 + number),
                        to: FilePath(photos).appending("more/\(number).jpg"))
                }
                kill(daemon.process.processIdentifier, SIGHUP)
            }
            // when the daemon says it is idle,
            #expect(
                Deadline.wait(seconds: 120) {
                    guard let status = try? daemon.status() else { return false }
                    return status["state"] as? String == "idle" && status["scansFinished"] as? Int == round
                })
            // then STATUS= says so with the last scan's line, and still does two progress periods later
            // (systemd shows the last STATUS= it got: a late "Scanning: N/N" would stick).
            let statusLines = {
                daemon.notify.messages.flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("STATUS=") }
            }
            _ = daemon.notify.receive(for: 5) { _ in statusLines().last?.hasPrefix("STATUS=Idle") == true }
            _ = Deadline.wait(seconds: 4.5) { statusLines().last?.hasPrefix("STATUS=Idle") != true }
            let lines = statusLines()
            let last = try daemon.status()["lastScan"] as? [String: Any]
            #expect(lines.last?.hasPrefix("STATUS=Idle; last scan finished") == true, "\(lines.suffix(3))")
            #expect(
                lines.last?.contains("\(last?["counts"].flatMap { ($0 as? [String: Any])?["found"] } ?? -1) files")
                    == true)
            if round == 1 {
                try #require(
                    lines.contains { $0.hasPrefix("STATUS=Scanning: ") },
                    "the scan ended before a progress line: too short to test")
            }
        }
    }

    /// Only root can run a client as another user.
    @Test(.enabled(if: getuid() == 0)) func aClientThatMayNotUseTheSocketIsToldSoNotThatNoDaemonRuns() throws {
        // Given a running daemon whose socket's folder only its own user may enter,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 100)
        let daemon = try DaemonProcess(photos: photos, directory: directory)
        defer { _ = daemon.terminate() }
        _ = daemon.notify.receive(for: 10) { $0.contains("READY=1") }
        #expect(chmod(directory.appending("run"), 0o750) == 0)
        // when another user asks for its status or a rescan,
        for command in ["status", "rescan"] {
            let other = try TesseraProcess.runUnprivileged([command, "--socket", daemon.socket])
            let message = other.stderr
            // then it is refused with a reason, and nothing claims that no daemon runs.
            #expect(other.status == 1, "\(command): \(message)")
            #expect(
                message.contains("cannot use the daemon's control socket") && message.contains("Permission denied"),
                "\(message)")
            #expect(message.contains("members of group 'root'") && !message.contains("no tessera daemon"), "\(message)")
        }
    }

    @Test func rescanWithoutADaemonSaysSo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try TesseraProcess.run(["rescan", "--socket", directory.appending("none.sock")])
        #expect(result.status != 0)
        #expect(result.stderr.contains("no tessera daemon is running"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
