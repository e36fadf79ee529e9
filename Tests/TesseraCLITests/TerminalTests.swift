import Foundation
import Glibc
import TesseraTestSupport
import Testing

/// `tessera scan` in a real terminal (tmux): what a person sees.
struct TerminalTests {
    static func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts a detached tmux session.
    ///
    /// Through posix_spawn: a tmux server started by
    /// Foundation's Process does not outlive its first client here.
    static func newSession(_ name: String, columns: Int, command: String) -> Int32 {
        let arguments = ["/usr/bin/tmux", "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "20", command]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func theProgressBarFitsTheTerminalAndFollowsResizes() throws {
        // Given a scan running in a 60-column terminal (from a slow disk: long enough to watch),
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 120, width: 320)
        let session = "tessera-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        let command =
            "TESSERA_FAULT=read:SLOW "
            + ([TesseraProcess.executable.path, "scan", photos, "--workers", "1"] + ScanCommandTests.store(directory))
            .map { "'\($0)'" }.joined(separator: " ") + "; echo SCAN-ENDED; sleep 60"
        #expect(Self.newSession(session, columns: 60, command: command) == 0)
        defer { _ = try? Self.tmux(["kill-session", "-t", session]) }
        func screen() -> [String] {
            ((try? Self.tmux(["capture-pane", "-p", "-t", session])) ?? "").split(separator: "\n").map(String.init)
        }
        func progressLines() -> [String] { screen().filter { $0.contains("files") && $0.contains("%") } }
        // then while it runs the bar stays on one line within the width,
        #expect(Deadline.wait(seconds: 60) { !progressLines().isEmpty }, "\(screen())")
        let first = progressLines()
        #expect(first.count <= 1 && first.allSatisfy { $0.count < 60 }, "\(screen())")
        // and once the terminal narrows to 40 columns (at once: a fast scan must not end first),
        // every redraw is within the new width (five redraws: each sample waits for a change).
        _ = try Self.tmux(["resize-window", "-t", session, "-x", "40", "-y", "20"])
        var narrowBarSeen = false
        _ = Deadline.wait(seconds: 10) {
            narrowBarSeen = narrowBarSeen || progressLines().contains { $0.count < 40 }
            return narrowBarSeen || screen().contains("SCAN-ENDED")
        }
        #expect(narrowBarSeen, "the scan ended before the resize could be seen: \(screen())")
        var shown = screen()
        for _ in 0..<5 where !shown.contains("SCAN-ENDED") {
            let lines = progressLines()
            #expect(lines.count <= 1 && lines.allSatisfy { $0.count < 40 }, "\(screen())")
            _ = Deadline.wait(seconds: 10) { screen() != shown }
            shown = screen()
        }
    }

    /// The progress of a rescan, as `rescan --wait` draws it in a terminal and as `status`
    /// reports it: one model, the same bar as `scan`, and a count that never passes its total.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func rescanWaitDrawsTheScanBarAndCountsStayWithinTheirTotal() throws {
        // Given a daemon that has not scanned yet (its disk slow), and a rescan waited on in a terminal,
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // (some 85 ms a photo: seconds to sample, however busy the machine)
        let photos = try ScanCommandTests.library(in: directory, count: 200, width: 320)
        let daemon = try DaemonProcess(
            photos: photos, directory: directory, configuration: "scan_on_start: false\nworkers: 1\n",
            environment: ["TESSERA_FAULT": "read:SLOW"])
        defer { _ = daemon.terminate() }
        #expect(Deadline.wait(seconds: 20) { (try? daemon.status())?["state"] as? String == "idle" })
        let session = "tessera-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        let command =
            [TesseraProcess.executable.path, "rescan", "--wait", "--socket", daemon.socket].map { "'\($0)'" }
            .joined(separator: " ") + "; echo RESCAN-ENDED $?; sleep 60"
        #expect(Self.newSession(session, columns: 100, command: command) == 0)
        defer { _ = try? Self.tmux(["kill-session", "-t", session]) }
        func screen() -> String { (try? Self.tmux(["capture-pane", "-p", "-t", session])) ?? "" }
        // then while it runs, the terminal shows scan's bar, and every count, in the terminal
        // and in `status` (text and JSON), stays within its total;
        var sawBar = false, samples = 0
        let pattern = /(\d+)\/(\d+) files/
        let finished = Deadline.wait(seconds: 120) {
            let text = screen()
            if text.contains("█") || text.contains("░") { sawBar = true }
            for match in text.matches(of: pattern) {
                samples += 1
                #expect(Int(match.output.1) ?? 0 <= Int(match.output.2) ?? 0, "\(text)")
            }
            if let status = try? daemon.tessera(["status"]).stdout {
                for match in status.matches(of: pattern) {
                    samples += 1
                    #expect(Int(match.output.1) ?? 0 <= Int(match.output.2) ?? 0, "\(status)")
                }
            }
            if let progress = (try? daemon.status())?["progress"] as? [String: Any],
                let done = progress["done"] as? Int, let expected = progress["expected"] as? Int
            {
                samples += 1
                #expect(done <= expected, "\(progress)")
            }
            return text.contains("RESCAN-ENDED")
        }
        #expect(finished, "\(screen())")
        #expect(sawBar && samples >= 3, "\(screen())")
        // and it ends with the scan's outcome and exit status 0.
        #expect(screen().contains("RESCAN-ENDED 0"), "\(screen())")
    }
}
