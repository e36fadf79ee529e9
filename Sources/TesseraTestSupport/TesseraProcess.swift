public import Foundation
import Glibc

/// Runs the built `tessera` executable as a real process and captures what it prints.
public enum TesseraProcess {
    /// The `tessera` binary beside the test bundle in the build folder, or the one named by
    /// `$TESSERA_EXECUTABLE` (to run the process tests against another build).
    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["TESSERA_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "tessera")
    }

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `tessera arguments…` to completion with `environment` added to this process's own,
    /// and `input` on its standard input.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, input: Data? = nil
    ) throws -> Result {
        let process = try start(arguments, environment: environment, in: directory, input: input)
        return process.wait()
    }

    /// Runs `tessera arguments…` as the unprivileged user nobody (through setpriv) when this
    /// process is root, who may read and connect where others may not; as itself otherwise.
    public static func runUnprivileged(_ arguments: [String]) throws -> Result {
        guard getuid() == 0 else { return try run(arguments) }
        let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path]
        return try Running(
            executable: setpriv, arguments: nobody + arguments, environment: [:], directory: nil, input: nil
        ).wait()
    }

    /// Status of `inMountNamespace` when the namespace could not be had (no tmpfs mount allowed).
    public static let noNamespace: Int32 = 90

    /// Runs the shell `script` as root of a user and mount namespace of its own (`unshare -Urm`),
    /// where it may mount and unmount tmpfs file systems as a disk is plugged and unplugged.
    ///
    /// The
    /// script gets `tessera`'s path as `$T` and `arguments` as `$1…`; `wait_for CONDITION` waits up
    /// to 60 s for a shell condition to hold, and the script should exit `noNamespace` when a
    /// mount fails.
    public static func inMountNamespace(_ script: String, _ arguments: [String] = []) throws -> Result {
        let prelude = """
            T='\(executable.path)'
            wait_for() { n=0; until eval "$1"; do n=$((n + 1)); [ $n -ge 600 ] && return 1; sleep 0.1; done; }

            """
        let unshare = URL(fileURLWithPath: "/usr/bin/unshare")
        return try Running(
            executable: unshare, arguments: ["-Urm", "sh", "-c", prelude + script, "sh"] + arguments, environment: [:],
            directory: nil, input: nil
        ).wait()
    }

    /// Starts `tessera arguments…` in the background; `wait()` collects it.
    public static func start(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, input: Data? = nil
    ) throws -> Running {
        try Running(
            executable: executable, arguments: arguments, environment: environment, directory: directory, input: input)
    }

    /// A started process whose output is drained while it runs.
    public final class Running: @unchecked Sendable {
        // @unchecked: `stdoutData` and `stderrData` are written by the drain blocks under `lock`.
        public let process = Process()
        private let group = DispatchGroup()
        private let lock = NSLock()
        private var stdoutData = Data(), stderrData = Data()

        init(executable: URL, arguments: [String], environment: [String: String], directory: URL?, input: Data?) throws
        {
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            if let directory { process.currentDirectoryURL = directory }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            let stdin = input.map { _ in Pipe() }
            process.standardInput = stdin ?? FileHandle.nullDevice
            try process.run()
            if let stdin, let input {
                stdin.fileHandleForWriting.write(input)
                try stdin.fileHandleForWriting.close()
            }
            // Drain both pipes while the process runs, so a chatty child cannot block on a full pipe.
            DispatchQueue.global().async(group: group) { self.drain(out, into: \.stdoutData) }
            DispatchQueue.global().async(group: group) { self.drain(err, into: \.stderrData) }
        }

        private func drain(_ pipe: Pipe, into output: ReferenceWritableKeyPath<Running, Data>) {
            let handle = pipe.fileHandleForReading
            while case let chunk = handle.availableData, !chunk.isEmpty {
                lock.withLock { self[keyPath: output].append(chunk) }
            }
        }

        /// What the process has written to standard error so far.
        public var stderrSoFar: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }

        public var pid: Int32 { process.processIdentifier }
        public var isRunning: Bool { process.isRunning }

        /// Waits for the process to end (or kills it after `seconds`, then reports status -9).
        public func wait(seconds: Double = 600) -> Result {
            let finished = Deadline.wait(seconds: seconds) { !self.process.isRunning }
            if !finished { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            group.wait()
            return lock.withLock {
                Result(
                    status: finished ? process.terminationStatus : -9,
                    stdout: String(decoding: stdoutData, as: UTF8.self),
                    stderr: String(decoding: stderrData, as: UTF8.self))
            }
        }
    }

    /// The outcome of a run measured with `wait4`: its exit status and peak resident memory.
    public struct Measured: Sendable {
        public var status: Int32
        /// Peak resident set size in KiB (`ru_maxrss`).
        public var peakKiB: Int
        public var stderr: String
    }

    /// Runs `tessera arguments…` and measures its own peak RSS (not that of other children).
    public static func measure(_ arguments: [String], environment: [String: String] = [:]) throws -> Measured {
        try measure(bytes: arguments.map { Array($0.utf8) }, environment: environment).measured
    }

    /// Runs `tessera` with arguments given as exact bytes (file names that are not UTF-8 cannot
    /// pass through `String`), measuring it; also returns what it printed on standard output.
    ///
    /// It runs under GNU time, which forks it: a child spawned straight from this (large) test
    /// process would report this process's resident set as its own peak, since Linux carries
    /// the high-water mark of the memory a vfork-spawned child shares across its exec.
    public static func measure(
        bytes arguments: [[UInt8]], environment: [String: String] = [:]
    ) throws -> (measured: Measured, stdout: [UInt8]) {
        let errors = try TemporaryDirectory("tessera-measure")
        defer { errors.remove() }
        let errorFile = errors.appending("stderr"), outputFile = errors.appending("stdout")
        let peakFile = errors.appending("peak")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let timer = "/usr/bin/time"
        let argv =
            ([
                Array(timer.utf8), Array("-f".utf8), Array("%M".utf8), Array("-o".utf8), Array(peakFile.utf8),
                Array(executable.path.utf8),
            ] + arguments).map { bytes in
                strdup((bytes + [0]).map { CChar(bitPattern: $0) })
            } + [nil]
        defer { argv.forEach { free($0) } }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, timer, &actions, nil, argv, envp)
        guard spawned == 0 else { throw CocoaError(.fileNoSuchFile) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        var exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : -(status & 0x7F)
        let peak = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
        // GNU time exits 128 + N for a child killed by signal N, and says so first.
        if peak.contains("signal"), exit > 128 { exit = -(exit - 128) }
        let stderr = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        let stdout = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: outputFile)))) ?? []
        let kib = peak.split(whereSeparator: \.isNewline).last.flatMap { Int($0) } ?? Int.max
        return (Measured(status: exit, peakKiB: kib, stderr: stderr), stdout)
    }
}

/// Waiting on facts, with a deadline: the way tests wait, never a bare sleep.
public enum Deadline {
    /// Checks `condition` every 20 ms until it holds (true) or `seconds` pass (false).
    @discardableResult
    public static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while true {
            if condition() { return true }
            if Date() >= end { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
