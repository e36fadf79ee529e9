public import SystemPackage
public import TesseraIndex
import TesseraSystem

/// The index's rows of inspected files, asked once per folder whether the index holds it:
/// the files of `find ~ | inspect` mostly lie in folders it does not, and those cost no
/// query each.
public struct IndexedFiles {
    let index: any PhotoStore
    /// A folder as given → where the index records it (absolute, links resolved, as the scan
    /// resolves its roots), or nil when the index holds no file there.
    private var folders: [FilePath: FilePath?] = [:]

    public init(_ index: any PhotoStore) { self.index = index }

    /// The copies of the indexed file with row `id` (`PhotoStore.copies`); none when the index
    /// cannot say.
    public func copies(
        of id: Int64, colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?
    ) -> [PhotoReport.Copy] {
        ((try? index.copies(of: id, colourLimit: colourLimit, colours: colours)) ?? []).map { found in
            PhotoReport.Copy(
                path: String(decoding: found.file.pathBytes, as: UTF8.self), rule: found.rule.rawValue,
                distance: found.distance)
        }
    }

    /// The row of the file at `path`, as given on a command line; nil when the index has none.
    public mutating func record(of path: FilePath) -> PhotoRecord? {
        guard let name = path.lastComponent else { return nil }
        let given = path.removingLastComponent()
        let folder: FilePath?
        if let known = folders[given] {
            folder = known
        } else {
            let absolute = FileSystem.absolute(given)
            let canonical = (try? FileSystem.canonicalPath(absolute)) ?? absolute
            folder = (try? index.isAlbum(canonical)) == true ? canonical : nil
            folders[given] = folder
        }
        return folder.flatMap { try? index.file(at: $0.appending(name)) }
    }
}
