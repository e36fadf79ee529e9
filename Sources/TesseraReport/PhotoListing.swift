import Foundation
import SystemPackage
import TesseraFacts
public import TesseraIndex
import TesseraSystem

/// What `tessera list` prints: photos or albums as aligned lines, control characters from file
/// names made visible.
public enum PhotoListing {
    /// The sentence for a listing that found nothing in `place` (an album or an index file).
    public static func nothing(_ listing: PhotoQuery.Kind, media: PhotoQuery.Media?, in place: String) -> String {
        let what =
            switch listing {
            case .errors: "No file has an error"
            case .unsupported: "No unsupported file"
            case .warnings: "No photo has a warning"
            case .photos: media == .video ? "No video" : "No photo"
            }
        return "\(what) in \(place)."
    }

    /// Date, where it came from, size, format and path a line; for `errors` and `unsupported`,
    /// path and reason; for `warnings`, path and each warning.
    public static func table(_ records: [PhotoRecord], listing: PhotoQuery.Kind = .photos) -> String {
        switch listing {
        case .errors, .unsupported:
            return lines(records.map { "\($0.path): \($0.error ?? "no reason recorded")" })
        case .warnings:
            return lines(
                records.map {
                    "\($0.path): \($0.warnings.isEmpty ? "no warning recorded" : $0.warnings.joined(separator: "; "))"
                })
        case .photos: break
        }
        let rows = records.map { record -> [String] in
            let date = (record.capturedAt ?? "undated") + (record.utcOffset.map { " \($0)" } ?? "")
            return [
                date, record.dateSource?.rawValue ?? "?", "\(record.displayWidth ?? 0)×\(record.displayHeight ?? 0)",
                record.format.rawValue + (record.video?.duration.map { String(format: " %.1f s", $0) } ?? ""),
                record.path.string,
            ]
        }
        return lines(aligned(rows))
    }

    /// Id, photos and videos, newest date and folder a line.
    public static func table(_ albums: [AlbumRecord], media: [Int64: AlbumMedia]) -> String {
        let rows = albums.map { album in
            let shown = media[album.id] ?? AlbumMedia(stills: album.photoCount, videos: 0)
            return [
                String(album.id), shown.summary, String((album.newestCapturedAt ?? "").prefix(10)), album.path.string,
            ]
        }
        return lines(aligned(rows))
    }

    /// An album in `list --albums --json`: its stills (`photos`) and videos as the site shows
    /// them (a Live Photo is one photo).
    public struct Album: Encodable {
        var id: Int64
        var name: String
        var path: String
        var photos: Int
        var videos: Int
        var newest, oldest: String?

        public init(_ album: AlbumRecord, media: AlbumMedia?) {
            let shown = media ?? AlbumMedia(stills: album.photoCount, videos: 0)
            (id, name, path, photos, videos) = (album.id, album.name, album.path.string, shown.stills, shown.videos)
            (newest, oldest) = (album.newestCapturedAt, album.oldestCapturedAt)
        }
    }

    private static func lines(_ lines: [String]) -> String {
        lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    /// Pads every column but the last to its widest cell.
    static func aligned(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == columns - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
