/// The folder of each album (`albums/<name>`) whose photos a writer's pages show, as the tree
/// has it: a page's albums looked up together, a bounded number of them remembered.
final class AlbumFolders {
    private let tree: AlbumTree
    private var known: [Int64: String] = [:]

    /// The most folders remembered: more than a page's photos can name.
    static let remembered = 4096

    init(tree: AlbumTree) {
        self.tree = tree
    }

    /// Looks up the folders of the albums `ids` not known yet.
    func load(_ ids: [Int64]) throws(AlbumError) {
        let missing = Set(ids.filter { known[$0] == nil })
        guard !missing.isEmpty else { return }
        if known.count + missing.count > Self.remembered { known = [:] }
        known.merge(try tree.folders(of: missing)) { _, new in new }
    }

    /// The folder of the album `id`, when it was loaded and the tree has it.
    subscript(id: Int64) -> String? { known[id] }
}
