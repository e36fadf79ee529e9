import ArgumentParser
import Foundation
import SystemPackage
import TesseraIndex
import TesseraLayout
import TesseraMetadata
import TesseraService

/// `tessera layout`: album page geometry (LAYOUT-SPEC) from the index or from photo records.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Lay out album pages: frames for every photo, as JSON.",
        discussion: """
            Reads the index read-only (it works while a daemon writes), or photo records from --photos: \
            a JSON array of objects with id, width, height and optionally orientation, capturedAt, album. \
            Any parameter of the layout specification is set with --option key=value, e.g. \
            --option justified.targetRowHeight=220 --option page.insets=0,12,0,12.
            """,
        subcommands: [ReferenceCommand.self])

    @OptionGroup var store: StoreOptions

    @Option(help: "tiles, masonry, grid, strip or justified.")
    var style: String = "justified"

    @Option(help: "Page width in points.")
    var width: Double = 390

    @Option(help: "Only this album (its folder relative to its root).")
    var album: String?

    @Option(help: "Sections by day, month or none.")
    var sections: String = "day"

    @Option(help: "viewport (pages of a fixed height) or count (pages of a fixed number of photos).")
    var paging: String = "viewport"

    @Option(help: "Page height in viewport mode.")
    var pageHeight: Double = 844

    @Option(help: "Photos per page in count mode.")
    var pageSize: Int = 24

    @Option(help: "Photo records as JSON instead of the index ('-' for standard input).")
    var photos: String?

    @Option(parsing: .singleValue, help: "A layout parameter, key=value (repeatable).")
    var option: [String] = []

    @Flag(help: "Print JSON (the default; kept for symmetry with the other commands).")
    var json = false

    func run() throws {
        var config = LayoutConfig()
        do {
            try config.set("style", style)
            try config.set("page.width", String(width))
            try config.set("sections.groupBy", sections)
            try config.set("paging.mode", paging)
            try config.set("page.height", String(pageHeight))
            try config.set("paging.count", String(pageSize))
            for assignment in option {
                guard let equals = assignment.firstIndex(of: "=") else { throw LayoutError(field: assignment) }
                try config.set(String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
            }
            let records = try photos.map(Self.records(from:)) ?? indexRecords()
            print(try AlbumLayout.layout(records, config: config).canonicalJSON())
        } catch let error as LayoutError {
            print(try error.canonicalJSON())
            throw ExitCode(2)
        }
    }

    /// Photos from the index, newest first, with their paths as ids.
    private func indexRecords() throws -> [LayoutPhoto] {
        let configuration = try store.configuration()
        do {
            let index = try PhotoIndex(path: configuration.index, readOnly: true)
            return try index.photos(.init(album: album)).map(Self.record)
        } catch {
            throw CLIError("\(error)")
        }
    }

    static func record(_ photo: PhotoJSON) -> LayoutPhoto {
        LayoutPhoto(
            id: photo.path, pixelWidth: photo.width.map(Double.init), pixelHeight: photo.height.map(Double.init),
            orientation: photo.orientation, capturedAt: photo.capturedAt.map { $0 + (photo.utcOffset ?? "") })
    }

    private static func records(from source: String) throws -> [LayoutPhoto] {
        let data = source == "-" ? FileHandle.standardInput.readDataToEndOfFile()
            : try Data(contentsOf: URL(fileURLWithPath: source))
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw CLIError("\(source): expected a JSON array of photo objects")
        }
        return try list.enumerated().map { index, object in
            guard let id = object["id"] as? String ?? (object["id"] as? NSNumber)?.stringValue else {
                throw CLIError("\(source): photo \(index) has no id")
            }
            func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
            return LayoutPhoto(
                id: id, pixelWidth: number("width") ?? number("pixelWidth"), pixelHeight: number("height") ?? number("pixelHeight"),
                orientation: number("orientation").map { Int($0) }, capturedAt: object["capturedAt"] as? String,
                bodyHeight: number("bodyHeight"))
        }
    }
}

/// `tessera layout reference flickr|rows-optimal`: the compatibility entry points (LAYOUT-SPEC §7).
struct ReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference", abstract: "Reference-compatible layouts: JSON on standard input, JSON on standard output.")

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
            let output = algorithm == "flickr"
                ? try ReferenceEntryPoints.flickr(input) : try ReferenceEntryPoints.rowsOptimal(input)
            print(String(decoding: output, as: UTF8.self))
        } catch {
            throw CLIError("standard input is not JSON: \(error.localizedDescription)")
        }
    }
}
