import ArgumentParser
import SystemPackage
import TesseraCommands
import TesseraFacts
import TesseraLayout

/// `tessera album build`: static HTML album pages.
struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Static HTML album pages.", subcommands: [Build.self])

    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Write the album site: folder albums and a timeline, newest first, with a photo viewer.",
            discussion: """
                The output folder works wherever it is copied and under any static web server: renditions \
                are hard-linked from the cache into it (copied when the cache is on another file system, or \
                with --copy-renditions) and every reference is relative. Only albums and months that changed \
                since the last build are written again.
                """)

        @OptionGroup var store: StoreOptions

        @Option(help: "Output folder (default: the configuration's 'album_dir').", completion: .directory)
        var out: String?

        @Option(help: "The layout style (default: the configuration's 'album_style').")
        var style: LayoutConfig.Style?

        @Option(
            help: """
                Headers by day, month or year, none, or auto (default): the finest level whose sections mostly \
                hold a row's worth of photos.
                """)
        var sections: LayoutConfig.GroupBy?

        @Flag(
            help: """
                Show every copy of a photo, not only the one to keep (default: the configuration's \
                'album_show_copies').
                """)
        var showCopies = false

        @Flag(help: "Copy renditions into the output even where a hard link would do.")
        var copyRenditions = false

        @Option(
            help: """
                Originals in the output: symlink (no space, this machine only), copy (hard link or copy: works \
                anywhere) or none (default: the configuration's 'album_originals').
                """)
        var originals: AlbumOriginals?

        @Option(help: "Albums beside each other by name, or newest first (default: the configuration's 'album_order').")
        var albumOrder: AlbumOrder?

        @Option(help: "Photos per page, 1 to \(AlbumBuildRequest.mostPhotosPerPage).")
        var pageSize: Int = 60

        func validate() throws {
            let most = AlbumBuildRequest.mostPhotosPerPage
            guard (1...most).contains(pageSize) else {
                throw ValidationError("--page-size must be 1 to \(most): a page draws no more images than that")
            }
        }

        func run() async throws {
            var request = AlbumBuildRequest()
            request.output = out.map { FilePath($0) }
            (request.style, request.sections, request.originals, request.order) = (
                style, sections, originals, albumOrder
            )
            (request.showCopies, request.copyRenditions, request.photosPerPage) = (showCopies, copyRenditions, pageSize)
            try await request.run(in: store.context)
        }
    }
}
