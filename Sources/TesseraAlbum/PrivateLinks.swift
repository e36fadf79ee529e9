import Foundation
public import SystemPackage
public import TesseraFacts
import TesseraSystem

/// Links to a private album, and their revocation (`tessera album share`, `revoke`): each link
/// is a random secret that wraps the album's key in its `keys.js`; the secret is in the link's
/// fragment, which no server is sent, and nowhere else (docs/PRIVATE.md).
public enum PrivateLinks {
    /// A link made: its id (what `revoke` names), and its address from the site's top.
    public struct Shared: Sendable {
        public var id: String
        public var address: String
    }

    /// Adds a link to `album`'s pages in the site at `output`, which a build has written.
    public static func share(_ album: PrivateAlbum, output: FilePath) throws(AlbumError) -> Shared {
        try changing(album, output: output) { folder, key, wraps throws(AlbumError) in
            let link = try wraps.adding(linkFor: key)
            let secret = Data(link.secret).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            return (
                link.wraps,
                Shared(id: link.id, address: "\(PrivateSite.folder)/\(folder)/index.html#key=\(link.id).\(secret)")
            )
        }
    }

    /// Takes the links `ids` (nil: every link) out of `album`'s keys; returns the ids taken out.
    public static func revoke(
        _ album: PrivateAlbum, links ids: [String]?, output: FilePath
    ) throws(AlbumError)
        -> [String]
    {
        try changing(album, output: output) { _, _, wraps throws(AlbumError) in
            var kept = wraps
            kept.links = wraps.links.filter { link in ids.map { !$0.contains(link.id) } ?? false }
            let gone = wraps.links.map(\.id).filter { id in !kept.links.contains { $0.id == id } }
            if let ids, let unknown = ids.first(where: { !gone.contains($0) }) {
                throw AlbumError(.output, "\(album.folder) has no link \(unknown)")
            }
            return (kept, gone)
        }
    }

    /// Removes `album`'s encrypted pages, key and links: the next build seals it again under a
    /// new key, which no earlier passphrase wrap, link or saved key opens.
    public static func replaceKey(_ album: PrivateAlbum, output: FilePath) throws(AlbumError) {
        let site = OutputFolder(root: FileSystem.absolute(output))
        try locked(site) { () throws(AlbumError) in
            let (folder, _, _) = try found(album, in: site)
            try site.remove(PrivateSite.folder + "/" + folder)
        }
    }

    /// Runs `change` on `album`'s folder, key and wraps, under the build's lock, and writes the
    /// wraps it returns.
    private static func changing<T>(
        _ album: PrivateAlbum, output: FilePath,
        _ change: (String, AlbumKey, KeyWraps) throws(AlbumError) -> (KeyWraps, T)
    ) throws(AlbumError) -> T {
        let site = OutputFolder(root: FileSystem.absolute(output))
        return try locked(site) { () throws(AlbumError) in
            let (folder, key, wraps) = try found(album, in: site)
            let (changed, result) = try change(folder, key, wraps)
            try site.write(changed.script, to: PrivateSite.folder + "/" + folder + "/" + KeyWraps.file)
            return result
        }
    }

    private static func found(
        _ album: PrivateAlbum, in site: OutputFolder
    ) throws(AlbumError)
        -> (String, AlbumKey, KeyWraps)
    {
        let passphrases = try PrivateSite.passphrases(album)
        guard let found = try PrivateSite.find(passphrases, among: PrivateSite.folders(in: site), in: site) else {
            throw AlbumError(
                .output,
                "\(album.folder) has no encrypted pages in \(site.root) that its passphrase opens:"
                    + " run tessera album build first")
        }
        return found
    }

    private static func locked<T>(_ site: OutputFolder, _ work: () throws(AlbumError) -> T) throws(AlbumError) -> T {
        let lock: FileLock
        do throws(SystemError) {
            lock = try FileLock(path: site.root.appending(AlbumBuilder.lockName))
            try lock.lock()
        } catch {
            throw AlbumError(.output, "cannot lock the album folder: \(error)")
        }
        return try withExtendedLifetime(lock) { () throws(AlbumError) in try work() }
    }
}
