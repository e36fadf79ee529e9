/// What an album site carries of the originals: a plain option, so that the configuration can
/// name it without the album module.
public enum AlbumOriginals: String, Sendable, CaseIterable {
    /// A symbolic link to each original (no space; the folder works on this machine).
    case symlink
    /// A hard link, or a copy on another file system (the folder works anywhere).
    case copy
    /// No originals: the viewer shows renditions only.
    case none
}
