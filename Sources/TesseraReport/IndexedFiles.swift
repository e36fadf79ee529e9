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

    /// The stack and the copies the indexed file with row `id` is recorded in; none when the
    /// index cannot say.
    public func groups(of id: Int64) -> (stack: PhotoReport.Group?, copies: PhotoReport.Group?) {
        guard let found = try? index.groups(of: id) else { return (nil, nil) }
        func files(_ members: [ComparedFile]) -> [(path: String, distance: Int?)] {
            members.map { member in
                let distance = members[0].perceptualHash.flatMap { a in
                    member.perceptualHash.map { ($0 ^ a).nonzeroBitCount }
                }
                return (String(decoding: member.pathBytes, as: UTF8.self), distance)
            }
        }
        return (
            found.stack.map { PhotoReport.Group(rule: $0.kind.rawValue, why: $0.why, files: files($0.members)) },
            found.copies.map {
                PhotoReport.Group(
                    rule: $0.rule.rawValue, why: $0.why,
                    files: $0.rule == .sameBytes ? files($0.members).map { ($0.path, nil) } : files($0.members))
            }
        )
    }

    /// The faces of the indexed file with row `id`; nil when the index cannot say.
    public func faces(of id: Int64) -> [FaceSummary]? {
        try? index.faces(photo: id, person: nil)
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
