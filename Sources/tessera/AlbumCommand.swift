import ArgumentParser
import SystemPackage
import TesseraCommands
import TesseraFacts
import TesseraLayout

/// `tessera album build`: static HTML album pages; `share` and `revoke`: links to a private album.
struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Static HTML album pages.", subcommands: [Build.self, Share.self, Revoke.self])

    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a link that opens a private album without its passphrase.",
            discussion: AlbumShareRequest.shareDiscussion)
        @Argument(help: "The private album: its folder, as private_albums names it.") var album: String
        @Option(help: "The address the site is served at (default: from the site's top).") var baseURL: String?
        @Option(help: "The album folder (default: 'album_dir').", completion: .directory) var out: String?
        @OptionGroup var store: StoreOptions
        func run() async throws {
            try await AlbumShareRequest(album, .share(baseURL: baseURL), output: out).run(in: store.context)
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop links, or every key given so far, opening a private album.",
            discussion: AlbumShareRequest.revokeDiscussion)
        @Argument(help: "The private album: its folder, as private_albums names it.") var album: String
        @Argument(help: "The links to revoke, by the id tessera album share printed.") var links: [String] = []
        @Flag(help: "Revoke every link.") var allLinks = false
        @Flag(help: "Remove its encrypted pages: the next build seals it under a new key.") var newKey = false
        @Option(help: "The album folder (default: 'album_dir').", completion: .directory) var out: String?
        @OptionGroup var store: StoreOptions
        func run() async throws {
            let action = try AlbumShareRequest.revoking(links, all: allLinks, newKey: newKey)
            try await AlbumShareRequest(album, action, output: out).run(in: store.context)
        }
    }

    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Write the album site: folder albums and a timeline, newest first, with a photo viewer.",
            discussion: AlbumBuildRequest.discussion)
        @OptionGroup var store: StoreOptions
        @Option(help: "Output folder (default: the configuration's 'album_dir').", completion: .directory)
        var out: String?
        @Option(help: "The layout style (default: 'album_style').") var style: LayoutConfig.Style?
        @Option(help: "Headers by day, month or year, none, or auto (default): the finest level holding about a row.")
        var sections: LayoutConfig.GroupBy?
        @Flag(help: "Show every copy of a photo, not only the one to keep (default: 'album_show_copies').")
        var showCopies = false
        @Flag(help: "Copy renditions into the output even where a hard link would do.") var copyRenditions = false
        @Option(
            help: "Originals: symlink (this machine only), copy (works anywhere) or none (default: 'album_originals').")
        var originals: AlbumOriginals?
        @Option(help: "Albums beside each other by name, or newest first (default: 'album_order').")
        var albumOrder: AlbumOrder?
        @Option(help: "Photos per page, 1 to \(AlbumBuildRequest.mostPhotosPerPage).") var pageSize: Int = 60
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
