import SystemPackage

/// Paths given on the command line, with their exact bytes.
///
/// ArgumentParser hands arguments over as `String`s, which replace bytes that are not
/// UTF-8 with U+FFFD; a Linux file name may hold any byte but `/` and NUL. This finds
/// the raw `argv` entry that decodes to the parsed string and builds the path from it.
enum CommandLinePath {
    static func path(_ argument: String) -> FilePath {
        let argv = CommandLine.unsafeArgv
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = argv[index] else { continue }
            if String(cString: raw) == argument { return FilePath(platformString: raw) }
        }
        return FilePath(argument)
    }
}
