public import SystemPackage

/// A folder whose photos the site shows only encrypted, to whoever has one of its passphrases
/// or a link made for it (docs/PRIVATE.md); never on a public page.
public struct PrivateAlbum: Sendable, Equatable {
    /// The folder relative to its root, as albums are named ("Family/Kids"); the albums below it
    /// are in it too.
    public var folder: String
    /// Files each holding a passphrase (its first line): never the passphrase itself.
    public var passphraseFiles: [FilePath]

    public init(folder: String, passphraseFiles: [FilePath]) {
        (self.folder, self.passphraseFiles) = (folder, passphraseFiles)
    }

    /// Whether the album named `name` (relative to its root) is this folder or below it.
    public func holds(albumNamed name: String) -> Bool {
        name == folder || folder.isEmpty || name.hasPrefix(folder + "/")
    }
}
