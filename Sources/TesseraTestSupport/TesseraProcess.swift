public import Foundation

/// Runs the built `tessera` executable as a real process and captures what it prints.
public enum TesseraProcess {
    /// The `tessera` binary beside the test bundle in the build folder.
    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tessera")
    }

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `tessera arguments…` to completion with `environment` added to this process's own.
    public static func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain both pipes while the process runs, so a chatty child cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var stdoutData = Data(), stderrData = Data()
        DispatchQueue.global().async(group: group) { stdoutData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { stderrData = err.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}
