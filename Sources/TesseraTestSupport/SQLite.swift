import Foundation

/// Reads an index with the `sqlite3` command-line tool, read-only and with no busy timeout
/// unless given one: exactly as a front end that never heard of Tessera would.
public enum SQLite {
    /// Rows of `sql` against the file at `path`, as tab-separated fields; nil when sqlite3 failed.
    public static func query(_ path: String, _ sql: String, busyTimeout milliseconds: Int? = nil) -> [[String]]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments =
            ["-readonly", "-separator", "\t"] + (milliseconds.map { ["-cmd", ".timeout \($0)"] } ?? []) + [path, sql]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// Runs `sql` against the file at `path`, writing (as another program might); whether it worked.
    public static func write(_ path: String, _ sql: String) -> Bool {
        guard let process = try? Process.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [path, sql]) else {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The first field of the first row of `sql`, as an integer; nil when there is none.
    public static func integer(_ path: String, _ sql: String, busyTimeout milliseconds: Int? = nil) -> Int? {
        query(path, sql, busyTimeout: milliseconds)?.first?.first.flatMap { Int($0) }
    }
}
