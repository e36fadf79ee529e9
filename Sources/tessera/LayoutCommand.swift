import ArgumentParser
import Foundation
import TesseraCommands
import TesseraLayout

/// `tessera layout`: album page geometry (docs/LAYOUT.md) from the index or from photo records.
struct LayoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Lay out album pages: frames for every photo, as JSON.",
        discussion: """
            Reads the index read-only (it works while a daemon writes), or photo records from --photos: \
            a JSON array of objects with id, width, height and optionally orientation, capturedAt, bodyHeight. \
            Any parameter of the layout specification is set with --option key=value, e.g. \
            --option justified.targetRowHeight=220 --option page.insets=0,12,0,12.
            """,
        subcommands: [ReferenceCommand.self])

    @OptionGroup var store: StoreOptions

    // Strings, not enums, so a wrong value gets the layout engine's sentence; completion still
    // offers the names.
    @Option(
        help: "tiles, masonry, grid, strip or justified.",
        completion: .list(LayoutConfig.Style.allCases.map(\.rawValue)))
    var style: String = "justified"

    @Option(help: "Page width in points.")
    var width: Double = 390

    @Option(help: "Only this album and the albums inside it (its folder relative to its root).")
    var album: String?

    @Option(help: "Sections by day, month or none.", completion: .list(LayoutConfig.GroupBy.allCases.map(\.rawValue)))
    var sections: String = "day"

    @Option(
        help: "viewport (pages of a fixed height) or count (pages of a fixed number of photos).",
        completion: .list(LayoutConfig.PagingMode.allCases.map(\.rawValue)))
    var paging: String = "viewport"

    @Option(help: "Page height in viewport mode.")
    var pageHeight: Double = 844

    @Option(help: "Photos per page in count mode.")
    var pageSize: Int = 24

    @Option(help: "Only the newest N photos (of the album, with --album).")
    var limit: Int?

    @Option(
        help: "Photo records as JSON instead of the index ('-' for standard input).",
        completion: .file(extensions: ["json"]))
    var photos: String?

    @Option(parsing: .singleValue, help: "A layout parameter, key=value (repeatable).")
    var option: [String] = []

    @Flag(help: "Also report errors as JSON on standard output (layouts are always JSON).")
    var json = false

    func run() async throws {
        var request = LayoutRequest()
        request.parameters = [
            ("style", style), ("page.width", String(width)), ("sections.groupBy", sections), ("paging.mode", paging),
            ("page.height", String(pageHeight)), ("paging.count", String(pageSize)),
        ]
        request.assignments = option
        (request.album, request.limit, request.photos, request.json) = (album, limit, photos, json)
        request.optionNames = [
            "style": "--style", "page.width": "--width", "sections.groupBy": "--sections", "paging.mode": "--paging",
            "page.height": "--page-height", "paging.count": "--page-size",
        ]
        try await request.run(in: store.context)
    }
}

struct ReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference",
        abstract: "Reference-compatible layouts: JSON on standard input, JSON on standard output.")

    @Argument(help: "flickr or rows-optimal.")
    var algorithm: String

    func validate() throws {
        guard ["flickr", "rows-optimal"].contains(algorithm) else {
            throw ValidationError("the algorithm is flickr or rows-optimal")
        }
    }

    func run() throws {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        do {
            let output =
                algorithm == "flickr"
                ? try ReferenceEntryPoints.flickr(input) : try ReferenceEntryPoints.rowsOptimal(input)
            print(String(decoding: output, as: UTF8.self))
        } catch {
            throw CommandFailure("standard input is not JSON: \(error.localizedDescription)")
        }
    }
}
