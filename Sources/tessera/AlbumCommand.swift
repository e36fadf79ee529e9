import ArgumentParser
import SystemPackage
import TesseraAlbum
import TesseraIndex
import TesseraLayout
import TesseraService

/// `tessera album build`: static HTML album pages.
struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Static HTML album pages.", subcommands: [Build.self])

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Write album pages, newest first, laid out for phone and desktop widths.",
            discussion: "Only albums that changed since the last build are written again. Pages work offline.")

        @OptionGroup var store: StoreOptions

        @Option(help: "Output folder.", completion: .directory)
        var out: String

        @Option(help: "The layout style (default: the configuration's 'album_style').")
        var style: LayoutConfig.Style?

        @Flag(help: "Copy thumbnails into the output instead of linking to the cache.")
        var copyThumbnails = false

        @Option(help: "Photos per page.")
        var pageSize: Int = 60

        func run() throws {
            let configuration = try store.configuration()
            var options = AlbumBuilder.Options(output: FilePath(out))
            options.style = style ?? configuration.albumStyle
            options.copyThumbnails = copyThumbnails
            options.photosPerPage = max(1, pageSize)
            do {
                let index = try PhotoIndex(path: configuration.index, readOnly: true)
                let summary = try AlbumBuilder(index: index, options: options).build()
                print("Album pages: \(summary.albums) albums (\(summary.written) written, \(summary.unchanged) unchanged)")
                print("Open: \(summary.indexPage)")
            } catch let error as AlbumError {
                throw CLIError(error.description)
            } catch {
                throw CLIError("\(error)")
            }
        }
    }
}
