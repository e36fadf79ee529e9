import ArgumentParser
import Foundation
import Logging
import TesseraCommands
import TesseraDaemon
import TesseraSystem

/// The `tessera` command: a thin shell over the library modules.
@main
struct Tessera: AsyncParsableCommand {
    static let version = TesseraVersion.current

    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Photo-library indexer and thumbnail daemon.",
        version: version,
        subcommands: [
            ScanCommand.self, ServeCommand.self, RescanCommand.self, StatusCommand.self, ListCommand.self,
            InspectCommand.self, ExplainCommand.self, ThumbCommand.self, LayoutCommand.self, AlbumCommand.self,
            PruneCommand.self, PeopleCommand.self, SampleLibraryCommand.self, WorkerCommand.self,
            ExportIndexCommand.self,
        ])

    /// Runs the command line; a `CommandFailure` is one line on standard error (or none) and its own
    /// exit status.
    static func main() async {
        let (arguments, files) = InspectCommand.takingFiles(from: Array(CommandLine.arguments.dropFirst()))
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        // Every command's log in one form: the journal's when it reads standard error, a line with
        // the time and the level otherwise.
        LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
        if var inspect = command as? InspectCommand {
            inspect.files += files
            command = inspect
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as CommandFailure {
            guard let message = error.message else { Foundation.exit(error.status) }
            fail(message, status: error.status)
        } catch let error where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            // ArgumentParser's own: an exit status, a usage error, the help `tessera help` prints.
            exit(withError: error)
        } catch {
            // A library's error (IndexError, ScanError, ControlError, …) says what went wrong in
            // one line, naming the file where one is concerned.
            fail(String(describing: error), status: 1)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("tessera: \(TerminalText.escaped(message))\n".utf8))
        Foundation.exit(status)
    }
}
