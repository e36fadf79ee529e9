import ArgumentParser
import SystemPackage
import TesseraAlbum
import TesseraConfiguration
import TesseraFacts
import TesseraIndex
import TesseraLayout
import TesseraSystem

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
            help:
                "Show every copy of a photo, not only the one to keep (default: the configuration's 'album_show_copies')."
        )
        var showCopies = false

        @Flag(help: "Copy renditions into the output even where a hard link would do.")
        var copyRenditions = false

        @Option(
            help: """
                Originals in the output: symlink (no space, this machine only), copy (hard link or copy: works anywhere) \
                or none (default: the configuration's 'album_originals').
                """)
        var originals: AlbumOriginals?

        @Option(help: "Albums beside each other by name, or newest first (default: the configuration's 'album_order').")
        var albumOrder: AlbumOrder?

        @Option(help: "Photos per page.")
        var pageSize: Int = 60

        func run() async throws {
            let configuration = try await store.readingConfiguration(renditions: true)
            guard let output = out.map({ FilePath($0) }) ?? configuration.albumDirectory else {
                throw CLIError(
                    "no output folder: give one with --out DIR, or set 'album_dir' in the configuration", status: 2)
            }
            var options = AlbumBuilder.Options(
                output: output, style: configuration.albumStyle, originals: configuration.albumOriginals,
                order: configuration.albumOrder, showCopies: configuration.albumShowCopies)
            if let style { options.style = style }
            if let sections { options.sections = sections }
            if let originals { options.originals = originals }
            if let albumOrder { options.order = albumOrder }
            options.copyRenditions = copyRenditions
            options.showCopies = options.showCopies || showCopies
            options.photosPerPage = max(1, pageSize)
            try Self.publish(options, index: configuration.index)
        }

        /// Writes the site `options` describe from the index at `index`, and says what was
        /// written and which page to open.
        static func publish(_ options: AlbumBuilder.Options, index path: FilePath) throws {
            // A build writes one collection after another, the largest (a month of a million
            // photos' library) some megabytes: each given back once written keeps its memory
            // flat as the library grows. (4 MiB: from 1 MiB on, mapping cost 12 % more CPU.
            // A daemon's scans keep glibc's default.)
            CurrentProcess.mapAllocations(from: 4 << 20)
            let index = try PhotoIndex(path: path, readOnly: true)
            let summary = try AlbumBuilder(index: index, options: options).build(waiting: {
                printError("tessera: another album build is writing \(options.output); waiting for it to finish")
            })
            print(summary.text(options))
        }
    }
}
