import Crypto
import Foundation
import SystemPackage
import TesseraSystem

/// A private album's `keys.js`: its key wrapped by each passphrase and each link, nothing else.
///
/// It is the only place the key is kept between builds (docs/PRIVATE.md); `tessera album
/// share` adds a link to it, `revoke` takes one out.
struct KeyWraps: Codable, Equatable {
    /// A passphrase's wrap: the PBKDF2 salt (also its id), the wrapped key, and the check that
    /// tells the build, once it holds the key, which configured passphrase it is for.
    struct Passphrase: Codable, Equatable {
        var salt: String
        var key: String
        var check: String
    }
    /// A link's wrap: its id (what `revoke` names) and the key wrapped by the link's secret.
    struct Link: Codable, Equatable {
        var id: String
        var key: String
    }

    /// The album's folder name under `private/`.
    var album: String
    var rounds: Int
    var passphrases: [Passphrase]
    var links: [Link]

    static let file = "keys.js"

    /// The script that hands the wraps to the page (a page opened from disk cannot fetch).
    var script: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "tesseraKeys(\(json));\n"
    }

    /// The wraps in `folder` (`private/<album>/`), when it holds readable ones.
    static func read(in folder: FilePath) -> KeyWraps? {
        guard let bytes = FileSystem.smallFileContents(folder.appending(file), limit: 1 << 20) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("tesseraKeys("), let end = text.range(of: ");", options: .backwards) else { return nil }
        let json = text[text.index(text.startIndex, offsetBy: "tesseraKeys(".count)..<end.lowerBound]
        return try? JSONDecoder().decode(KeyWraps.self, from: Data(json.utf8))
    }

    /// The album's key, when one of `passphrases` opens one of the wraps (each is tried on each,
    /// the passphrase at the wrap's own place first).
    func open(with passphrases: [[UInt8]]) throws(AlbumError) -> AlbumKey? {
        for (place, wrap) in self.passphrases.enumerated() {
            guard let salt = Self.bytes(wrap.salt), let wrapped = Self.bytes(wrap.key) else { continue }
            let order = passphrases.indices.sorted { ($0 == place ? 0 : 1, $0) < ($1 == place ? 0 : 1, $1) }
            for number in order {
                let key = try AlbumKey.passphraseKey(passphrases[number], salt: salt, rounds: rounds)
                if let album = AlbumKey.unwrap(wrapped, under: key, album: album, id: wrap.salt) { return album }
            }
        }
        return nil
    }

    /// The album's key, when the link `id` with `secret` opens it.
    func open(link id: String, secret: [UInt8]) -> AlbumKey? {
        guard let link = links.first(where: { $0.id == id }), let wrapped = Self.bytes(link.key) else { return nil }
        return AlbumKey.unwrap(wrapped, under: SymmetricKey(data: secret), album: album, id: id)
    }

    /// Wraps of `key` for exactly `passphrases`: a wrap of `old` whose check names one of them is
    /// kept as it is, the others are made (a passphrase gone from the configuration is revoked);
    /// links are kept when `old` wraps this key.
    static func made(
        for key: AlbumKey, album: String, passphrases: [[UInt8]], keeping old: KeyWraps?
    ) throws(AlbumError) -> KeyWraps {
        var wraps = KeyWraps(album: album, rounds: AlbumKey.rounds, passphrases: [], links: old?.links ?? [])
        for passphrase in passphrases {
            if let kept = old?.passphrases.first(where: { wrap in
                bytes(wrap.salt).map { key.check(passphrase, salt: $0) == wrap.check } ?? false
            }), old?.rounds == AlbumKey.rounds {
                wraps.passphrases.append(kept)
                continue
            }
            let salt = AlbumKey.random(16)
            let id = Data(salt).base64EncodedString()
            let wrapped = try key.wrapped(
                under: try AlbumKey.passphraseKey(passphrase, salt: salt), album: album, id: id)
            wraps.passphrases.append(
                Passphrase(salt: id, key: Data(wrapped).base64EncodedString(), check: key.check(passphrase, salt: salt))
            )
        }
        return wraps
    }

    /// A new link to the album: its id and secret, with the wraps that hold it.
    func adding(linkFor key: AlbumKey) throws(AlbumError) -> (wraps: KeyWraps, id: String, secret: [UInt8]) {
        let (id, secret) = (AlbumKey.randomName(4), AlbumKey.random(32))
        var wraps = self
        let wrapped = try key.wrapped(under: SymmetricKey(data: secret), album: album, id: id)
        wraps.links.append(Link(id: id, key: Data(wrapped).base64EncodedString()))
        return (wraps, id, secret)
    }

    static func bytes(_ base64: String) -> [UInt8]? { Data(base64Encoded: base64).map { [UInt8]($0) } }
}
