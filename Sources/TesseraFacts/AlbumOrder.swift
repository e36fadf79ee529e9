/// How an album site orders the albums beside each other (on the home page, and inside a
/// folder's page): a plain option, so that the configuration can name it without the album module.
public enum AlbumOrder: String, Sendable, CaseIterable {
    /// By name, as a file manager lists the folders ("2" before "10", case aside).
    case name
    /// Newest photo first.
    case date
}
