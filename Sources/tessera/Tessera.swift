import ArgumentParser
import Foundation
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
            InspectCommand.self,
            ExplainCommand.self,
            ThumbCommand.self, LayoutCommand.self, AlbumCommand.self, PruneCommand.self,
            SampleLibraryCommand.self,
        ])

    /// Runs the command line; a `CLIError` is one line on standard error and its own exit status.
    static func main() async {
        do {
            let (arguments, files) = InspectCommand.takingFiles(from: Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot(arguments)
            if var inspect = command as? InspectCommand {
                inspect.files += files
                command = inspect
            }
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("tessera: \(error)\n".utf8))
            Foundation.exit(error.status)
        } catch {
            exit(withError: error)
        }
    }
}
