import Foundation
import Glibc
import Synchronization
import SystemPackage
import TesseraImage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// The daemon under faults: a scan stuck in a read, hostile clients, roots that come and go.
struct DaemonFaultTests {
    @Test func theWatchdogStopsWhileAScanIsStuckAndSIGTERMStillStopsTheDaemon() throws {
        // Given a daemon whose first read never returns (as from a dead NFS server),
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 3, width: 200)
        let daemon = try DaemonProcess(
            photos: photos, directory: directory, environment: ["TESSERA_FAULT": "read:STALL"])
        defer { if daemon.process.isRunning { kill(daemon.process.processIdentifier, SIGKILL) } }
        // then STATUS says the scan is stalled,
        let messages = daemon.notify.receive(for: 30) { $0.contains("STATUS=Stalled") }
        #expect(messages.contains { $0.contains("STATUS=Stalled") }, "\(messages)")
        // WATCHDOG=1 is no longer sent (systemd would restart the service),
        let pingsBefore = daemon.notify.messages.filter { $0.contains("WATCHDOG=1") }.count
        _ = daemon.notify.receive(for: 4) { _ in false }
        let pingsAfter = daemon.notify.messages.filter { $0.contains("WATCHDOG=1") }.count
        #expect(pingsAfter == pingsBefore, "the watchdog kept being fed while nothing moved")
        // and SIGTERM ends the daemon within 10 s anyway.
        let stop = try #require(daemon.terminate())
        #expect(stop.status == 0 && stop.seconds < 10, "\(stop)")
    }

    @Test func slowAndIdleClientsCannotLockStatusOut() throws {
        // Given a daemon, 200 clients that connect and say nothing, and 40 that send one byte every 4 s,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 100)
        let daemon = try DaemonProcess(photos: photos, directory: directory)
        defer { _ = daemon.terminate() }
        #expect(Deadline.wait(seconds: 30) { (try? daemon.status())?["scansFinished"] as? Int == 1 })
        let idle = (0..<200).map { _ in DaemonProcess.connect(daemon.socket) }
        defer { idle.forEach { close($0) } }
        let stopSlow = Flag()
        let rounds = Atomic(0)
        let socket = daemon.socket
        let slow = Thread {
            var clients = (0..<40).map { _ in DaemonProcess.connect(socket) }
            while !stopSlow.isSet {
                for (number, client) in clients.enumerated() {
                    // Dropped by the daemon? Come straight back, as a hostile client would.
                    if send(client, "{", 1, Int32(MSG_NOSIGNAL)) < 0 {
                        close(client)
                        clients[number] = DaemonProcess.connect(socket)
                    }
                }
                rounds.add(1, ordering: .sequentiallyConsistent)
                _ = Deadline.wait(seconds: 4) { stopSlow.isSet }
            }
            clients.forEach { close($0) }
        }
        slow.start()
        defer { stopSlow.set() }
        // then a status request answers within 2 s (the socket's receive timeout: no answer by
        // then reads as none) after each of four rounds of dribbled bytes,
        var answers = 0
        for round in 1...4 {
            #expect(Deadline.wait(seconds: 30) { rounds.load(ordering: .sequentiallyConsistent) >= round })
            let answer = DaemonProcess.raw(Array(#"{"command":"status"}"#.utf8) + [10], to: daemon.socket, timeout: 2)
            #expect(answer.contains(#""photos":2"#) || answer.contains(#""photos" : 2"#), "\(answer)")
            answers += 1
        }
        #expect(answers == 4)
        // and `tessera status` says the same.
        let status = try TesseraProcess.start(["status", "--json", "--socket", daemon.socket]).wait(seconds: 10)
        #expect(status.status == 0 && status.stdout.contains(#""photos" : 2"#), "\(status.stdout) \(status.stderr)")
    }

    @Test func aRootDeletedAndMadeAgainIsWatchedAgain() throws {
        // Given a watching daemon,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 100)
        let daemon = try DaemonProcess(photos: photos, directory: directory, watch: true)
        defer { _ = daemon.terminate() }
        #expect(Deadline.wait(seconds: 30) { (try? daemon.status())?["photos"] as? Int == 2 })
        // when its root is deleted and made again with a new photo in it,
        let before = try daemon.scansStarted()
        try FileManager.default.removeItem(atPath: photos)
        // (the watch sees the root go, and the scan it asks for finds it offline)
        #expect(
            Deadline.wait(seconds: 30) {
                (try? daemon.scansStarted()) ?? 0 > before && (try? daemon.status())?["state"] as? String == "idle"
            })
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: 5)),
            to: FilePath(photos).appending("new/one.jpg"))
        // then the daemon notices, without being asked, and indexes what is there now.
        #expect(
            Deadline.wait(seconds: 30) {
                let status = try? daemon.status()
                return status?["photos"] as? Int == 1 && (status?["state"] as? String) == "idle"
            }, "\((try? daemon.status()) ?? [:])")
    }

    @Test func tesserasOwnOutputInsideARootTriggersNoScans() throws {
        // Given a daemon whose index, cache and album pages all lie inside its watched root,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 3, width: 100)
        let own = photos + "/tessera"
        let daemon = try DaemonProcess(
            photos: photos, directory: directory, watch: true, configuration: "album_dir: \(own)/albums\n",
            store: ["--index", own + "/index.sqlite", "--cache", own + "/cache"])
        defer { _ = daemon.terminate() }
        #expect(Deadline.wait(seconds: 30) { FileManager.default.fileExists(atPath: own + "/albums/index.html") })
        #expect(Deadline.wait(seconds: 10) { (try? daemon.status())?["state"] as? String == "idle" })
        let settled = try daemon.scansStarted()
        // then writing them starts no further scan (looked for over ten debounce periods),
        #expect(!Deadline.wait(seconds: 5) { (try? daemon.scansStarted()) != settled })
        #expect(settled == 1)
        // while a photo added beside them still does.
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: 9)),
            to: FilePath(photos).appending("added.jpg"))
        #expect(Deadline.wait(seconds: 20) { (try? daemon.status())?["photos"] as? Int == 4 })
        // The album site follows, one album rewritten: the new photo is in its lightbox data.
        #expect(
            Deadline.wait(seconds: 30) {
                let albums = (try? FileManager.default.contentsOfDirectory(atPath: own + "/albums/albums")) ?? []
                return albums.contains { album in
                    (try? String(contentsOfFile: own + "/albums/albums/\(album)/photos.js", encoding: .utf8))?.contains(
                        "added.jpg") == true
                }
            })
    }
}
