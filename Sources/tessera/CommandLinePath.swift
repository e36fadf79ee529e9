import SystemPackage
import TesseraCommands
import TesseraSystem

/// Paths given on the command line, with their exact bytes.
///
/// ArgumentParser hands arguments over as `String`s, which replace bytes that are not
/// UTF-8 with U+FFFD; a Linux file name may hold any byte but `/` and NUL. This finds
/// the raw `argv` entry that decodes to the parsed string and builds the path from it.
enum CommandLinePath {
    static func path(_ argument: String) -> FilePath {
        rawArguments[argument] ?? FilePath(argument)
    }

    /// Every `argv` entry by the string it decodes to, the first where two decode alike; made
    /// once, as `inspect` or `thumb` may be given thousands of files.
    private static let rawArguments: [String: FilePath] = {
        let argv = CommandLine.unsafeArgv
        var paths: [String: FilePath] = [:]
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = argv[index] else { continue }
            let decoded = String(cString: raw)
            if paths[decoded] == nil { paths[decoded] = FilePath(platformString: raw) }
        }
        return paths
    }()

    /// The paths listed in the file at `list` (`-`: standard input).
    static func paths(listedIn list: String) throws -> [FilePath] {
        do { return try FileSystem.listedPaths(in: list == "-" ? nil : FilePath(list)) } catch {
            throw CommandFailure("\(list): cannot read the list of files: \(error.errno)")
        }
    }
}
