import ArgumentParser

/// The `tessera` command: a thin shell over the library modules.
@main
struct Tessera: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Photo-library indexer and thumbnail daemon.",
        version: version,
        subcommands: [
            ScanCommand.self, ServeCommand.self, RescanCommand.self, StatusCommand.self, ListCommand.self, InspectCommand.self,
            ThumbCommand.self, LayoutCommand.self, AlbumCommand.self,
            SampleLibraryCommand.self,
        ])
}
