import TesseraIndex

/// A run of photos that gets its own pages: a folder album, or a month of the timeline.
struct Collection {
    /// Relative to the output, two levels deep (`albums/<name>`, `months/<YYYY-MM>`), so every
    /// page of every collection reaches the rest of the output through `../../`.
    var folder: String
    var title: String
    var subtitle: String
    /// Newest first, as the index returns them.
    var photos: [PhotoOutline]
    /// The albums above this one, outermost first, with links relative to its folder.
    var crumbs: [(name: String, href: String)] = []
    /// Cover cards of the albums inside this one, shown above its photos.
    var children: [String] = []
    /// The first crumb: the list its kind of collection is in, relative to the output.
    var root = (name: "Albums", href: "index.html")
    /// A month's newer and older months (`prev` and `next`, as the timeline reads), with links
    /// relative to its folder.
    var neighbours: [(rel: String, name: String, href: String)] = []

    static let prefix = "../../"
}
