import SystemPackage
import TesseraIndex
import TesseraSystem

/// An `--album` argument: a folder relative to its root, or an absolute path; an album, or a
/// folder of albums at any level above them (`Trips` for `Trips/2023/Rome`).
enum AlbumArgument {
    /// The path of the one folder `text` names in `index`: the albums in it and below it are
    /// what it stands for.
    ///
    /// - Throws: `CommandFailure` when no album is in or below a folder of that name, or several
    ///   folders have it (two roots may each hold a "Garden"): then their paths tell them apart.
    static func resolve(_ text: String, in index: any PhotoStore) throws -> [UInt8] {
        let wanted = text.hasSuffix("/") && text.count > 1 ? String(text.dropLast()) : text
        let bytes = Array(wanted.utf8)
        let levels = Set(
            try index.albums().compactMap { album -> [UInt8]? in
                if album.pathBytes == bytes || album.pathBytes.starts(with: bytes + [UInt8(ascii: "/")]) {
                    return bytes
                }
                // By name: the album's path without the components it has below the named folder.
                guard album.name == wanted || album.name.hasPrefix(wanted + "/") else { return nil }
                var path = album.pathBytes[...]
                let below = album.name.split(separator: "/").count - wanted.split(separator: "/").count
                for _ in 0..<max(0, below) {
                    guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return nil }
                    path = path[..<slash]
                }
                return Array(path)
            })
        switch levels.count {
        case 0: throw CommandFailure("no album is named \"\(text)\" (tessera list --albums shows them)")
        case 1: return levels.first ?? bytes
        default:
            let paths = levels.map { FilePath(rawBytes: $0).string }.sorted().joined(separator: ", ")
            throw CommandFailure("several folders are named \"\(text)\": \(paths); give the path of the one you mean")
        }
    }
}
