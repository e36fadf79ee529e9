import ArgumentParser
import Foundation
import SystemPackage
import TesseraConfiguration
import TesseraFacts
import TesseraIndex
import TesseraMetadata
import TesseraReport
import TesseraSystem

/// `tessera list`: photos newest first, or the files that failed or are not photos, or the albums.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List indexed photos newest first, the files that failed, or the albums.",
        discussion: "Reads the index read-only: it works while a scan or the daemon writes.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "An array of objects with the fields of `tessera inspect --json` plus id, album, thumbnails, status.")
    var json = false

    @Option(help: "Only this album: its folder relative to its root, or its absolute path.")
    var album: String?

    @Option(help: "At most this many entries.")
    var limit: Int?

    @Flag(help: "The files that could not be read, with their reasons.")
    var errors = false

    @Flag(help: "The files that are not photos Tessera reads, with why.")
    var unsupported = false

    @Flag(help: "The albums, newest first.")
    var albums = false

    @Option(help: "Only photos rated at least this (0–5; XMP xmp:Rating, from the file or its sidecar).")
    var rating: Int?

    @Option(help: "Only photos with this keyword, in any case; a level of a hierarchical keyword matches too.")
    var keyword: String?

    @Option(
        help: "Only stills (photo) or only videos (video).",
        completion: .list(PhotoIndex.PhotoQuery.Media.allCases.map(\.rawValue)))
    var kind: PhotoIndex.PhotoQuery.Media?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if let rating, !(0...5).contains(rating) { throw ValidationError("--rating must be between 0 and 5") }
        if [errors, unsupported, albums].filter({ $0 }).count > 1 {
            throw ValidationError("give at most one of --errors, --unsupported and --albums")
        }
    }

    func run() throws {
        let configuration = try store.configuration()
        let index = try store.openIndex(configuration, readOnly: true)
        if albums { return try listAlbums(index) }
        let listing: PhotoIndex.PhotoQuery.Kind = errors ? .errors : unsupported ? .unsupported : .photos
        let albumID = try album.map { try AlbumArgument.resolve($0, in: index).id }
        let records: [PhotoRecord]
        do {
            records = try index.photos(
                .init(
                    albumID: albumID, minimumRating: rating, keyword: keyword, media: kind, limit: limit, kind: listing)
            )
        } catch {
            throw CLIError("\(error)")
        }
        if json {
            try printJSON(records.map(PhotoReport.init(record:)))
            return
        }
        guard !records.isEmpty else {
            let what =
                listing == .errors
                ? "No file has an error"
                : listing == .unsupported
                    ? "No unsupported file"
                    : kind == .video ? "No video" : "No photo"
            printError(album.map { "\(what) in album \($0)." } ?? "\(what) in \(configuration.index).")
            return
        }
        for line in Self.table(records, kind: listing) { print(TerminalText.escaped(line)) }
    }

    /// Aligned text lines: date, where it came from, size, format and path; or path and reason.
    static func table(_ records: [PhotoRecord], kind: PhotoIndex.PhotoQuery.Kind) -> [String] {
        guard kind == .photos else {
            return records.map { "\($0.path): \($0.error ?? "no reason recorded")" }
        }
        let rows = records.map { record -> [String] in
            let date = (record.capturedAt ?? "undated") + (record.utcOffset.map { " \($0)" } ?? "")
            return [
                date, record.dateSource?.rawValue ?? "?", "\(record.displayWidth ?? 0)×\(record.displayHeight ?? 0)",
                record.format.rawValue + (record.video?.duration.map { String(format: " %.1f s", $0) } ?? ""),
                record.path.string,
            ]
        }
        return align(rows)
    }

    private func listAlbums(_ index: PhotoIndex) throws {
        let albums: [AlbumRecord]
        do {
            albums = try index.albums()
        } catch {
            throw CLIError("\(error)")
        }
        if json {
            struct Album: Encodable {
                var id: Int64; var name: String; var path: String; var photos: Int; var newest, oldest: String?
            }
            try printJSON(
                (albums.map {
                    Album(
                        id: $0.id, name: $0.name, path: $0.path.string, photos: $0.photoCount,
                        newest: $0.newestCapturedAt, oldest: $0.oldestCapturedAt)
                }))
            return
        }
        guard !albums.isEmpty else { return printError("No album in the index yet.") }
        let rows = albums.map { album in
            [
                String(album.id), Wording.count(album.photoCount, "photo"),
                String((album.newestCapturedAt ?? "").prefix(10)), album.path.string,
            ]
        }
        for line in Self.align(rows) { print(TerminalText.escaped(line)) }
    }

    /// Pads every column but the last to its widest cell.
    static func align(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == columns - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
