public import SystemPackage
import TesseraAlbum
import TesseraConfiguration
import TesseraFacts
import TesseraSystem

/// `tessera album share` and `tessera album revoke`: links to a private album, and taking
/// them (or its key) back (docs/PRIVATE.md).
public struct AlbumShareRequest: Sendable {
    public enum Action: Sendable {
        /// A new link; its address under `baseURL` when one is given, else from the site's top.
        case share(baseURL: String?)
        /// Takes out these links (nil: every one).
        case revoke(links: [String]?)
        /// A new key at the next build: every link and every saved key stop opening it.
        case replaceKey
    }

    /// The private album, as the configuration's `private_albums` names its folder.
    public var album: String
    public var action: Action
    /// The site's folder (default: the configuration's `album_dir`).
    public var output: FilePath?

    public init(_ album: String, _ action: Action, output: String?) {
        (self.album, self.action, self.output) = (album, action, output.map { FilePath($0) })
    }

    /// What `tessera album revoke` was asked: the links given, or one of `all` and `newKey`.
    public static func revoking(_ links: [String], all: Bool, newKey: Bool) throws -> Action {
        guard [!links.isEmpty, all, newKey].filter({ $0 }).count == 1 else {
            throw CommandFailure("give the links to revoke, or one of --all-links and --new-key", status: 2)
        }
        return newKey ? .replaceKey : .revoke(links: all ? nil : links)
    }

    public static let shareDiscussion = """
        The link's key is in its fragment (after #), which browsers never send to a server. Anyone with the \
        link can open the album until the link is revoked (tessera album revoke). The album's encrypted \
        pages must have been built (tessera album build). See docs/PRIVATE.md.
        """

    public static let revokeDiscussion = """
        A passphrase is revoked by taking it out of private_albums and building again. A revoked link no \
        longer opens the album; whoever opened it before may have kept its key: --new-key removes the \
        album's encrypted pages, and the next build seals it under a new key. See docs/PRIVATE.md.
        """

    public func run(in context: CommandContext) async throws {
        let configuration = try await context.store.readingConfiguration(renditions: false)
        guard let output = output ?? configuration.albumDirectory else {
            throw CommandFailure(
                "no album folder: give one with --out DIR, or set 'album_dir' in the configuration", status: 2)
        }
        let folder = album.split(separator: "/").joined(separator: "/")
        guard let privateAlbum = configuration.privateAlbums.first(where: { $0.folder == folder }) else {
            let known = configuration.privateAlbums.map(\.folder).joined(separator: ", ")
            throw CommandFailure(
                "\(folder) is not a private album of the configuration (private_albums: "
                    + (known.isEmpty ? "none" : known) + ")", status: 2)
        }
        do {
            switch action {
            case .share(let baseURL):
                let link = try PrivateLinks.share(privateAlbum, output: output)
                let base = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
                context.say(base + link.address)
                context.note(
                    "tessera: anyone with this link can open \(folder) (its photos, videos, names, dates and places)"
                        + (baseURL == nil ? "; the address is from the site's top" : "")
                        + "; it stops opening it after: tessera album revoke \(folder) \(link.id)")
            case .revoke(let links):
                let gone = try PrivateLinks.revoke(privateAlbum, links: links, output: output)
                context.say(
                    gone.isEmpty ? "\(folder) had no links" : "Revoked: \(gone.joined(separator: ", "))")
                context.note(
                    "tessera: whoever opened \(folder) before holds its key still;"
                        + " tessera album revoke \(folder) --new-key encrypts it again under a new one")
            case .replaceKey:
                try PrivateLinks.replaceKey(privateAlbum, output: output)
                context.say(
                    "\(folder): its encrypted pages, key and links removed;"
                        + " the next album build seals it under a new key")
            }
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
