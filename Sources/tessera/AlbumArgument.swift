import SystemPackage
import TesseraIndex

/// An `--album` argument: a folder relative to its root, or an absolute path.
enum AlbumArgument {
    /// The one album `text` names in `index`.
    ///
    /// - Throws: `CLIError` when no album has that name, or several do (two roots may each
    ///   hold a "Garden"): then the absolute paths tell them apart.
    static func resolve(_ text: String, in index: any PhotoStore) throws -> AlbumRecord {
        let albums: [AlbumRecord] = try index.albums(named: text)
        switch albums.count {
        case 0: throw CLIError("no album is named \"\(text)\" (tessera list --albums shows them)")
        case 1: return albums[0]
        default:
            let paths = albums.map(\.path.string).joined(separator: ", ")
            throw CLIError("several albums are named \"\(text)\": \(paths); give the path of the one you mean")
        }
    }
}
