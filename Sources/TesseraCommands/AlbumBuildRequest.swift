public import SystemPackage
import TesseraAlbum
import TesseraConfiguration
import TesseraDaemon
public import TesseraFacts
import TesseraIndex
public import TesseraLayout
import TesseraSystem

/// `tessera album build`: the static album site, written again only where the index changed.
public struct AlbumBuildRequest: Sendable {
    /// The output folder (default: the configuration's `album_dir`).
    public var output: FilePath?
    /// Each nil: the configuration's.
    public var style: LayoutConfig.Style?
    public var sections: LayoutConfig.GroupBy?
    public var originals: AlbumOriginals?
    public var order: AlbumOrder?
    public var showCopies = false
    public var copyRenditions = false
    public var photosPerPage = 60
    /// The most photos a page may draw.
    public static let mostPhotosPerPage = AlbumBuilder.Options.mostPhotosPerPage

    public init() {}

    public static let discussion = """
        The output folder works wherever it is copied and under any static web server: renditions are \
        hard-linked from the cache into it (copied when the cache is on another file system, or with \
        --copy-renditions) and every reference is relative. Only albums and months that changed since the \
        last build are written again. Private albums (private_albums) are written encrypted: \
        docs/PRIVATE.md.
        """

    public func run(in context: CommandContext) async throws {
        let configuration = try await context.store.readingConfiguration(renditions: true)
        guard let output = output ?? configuration.albumDirectory else {
            throw CommandFailure(
                "no output folder: give one with --out DIR, or set 'album_dir' in the configuration", status: 2)
        }
        var options = AlbumBuilder.Options(configuration, output: output)
        if let style { options.style = style }
        if let sections { options.sections = sections }
        if let originals { options.originals = originals }
        if let order { options.order = order }
        options.copyRenditions = copyRenditions
        options.showCopies = options.showCopies || showCopies
        options.photosPerPage = photosPerPage
        try Self.publish(options, index: configuration.index, in: context)
    }

    /// Writes the site `options` describe from the index at `index`, and says what was written
    /// and which page to open.
    static func publish(_ options: AlbumBuilder.Options, index path: FilePath, in context: CommandContext) throws {
        // A build writes one collection after another, the largest (a month of a million
        // photos' library) some megabytes: each given back once written keeps its memory
        // flat as the library grows. (4 MiB: from 1 MiB on, mapping cost 12 % more CPU.
        // A daemon's scans keep glibc's default.)
        CurrentProcess.mapAllocations(from: 4 << 20)
        let index = try PhotoIndex(path: path, readOnly: true)
        let summary = try AlbumBuilder(index: index, options: options).build(waiting: {
            context.note("tessera: another album build is writing \(options.output); waiting for it to finish")
        })
        context.say(summary.text(options))
    }
}
