import Crypto
import CryptoExtras
import Foundation

/// A private album's key (docs/PRIVATE.md): 256 random bits that seal each of its files with
/// AES-256-GCM, and that its passphrases and links wrap, as the browser's WebCrypto opens them.
///
/// The cryptography is swift-crypto's (BoringSSL), which the cluster's object store already
/// builds: nothing of it is Tessera's own but the formats below.
struct AlbumKey: Sendable {
    let key: SymmetricKey

    /// PBKDF2-SHA256 rounds from a passphrase to the key that unwraps an album's key (OWASP's
    /// figure for PBKDF2-SHA256; WebCrypto has no Argon2).
    static let rounds = 600_000
    /// A sealed file's plaintext is padded to a multiple of this, so its size says less.
    static let padding = 4096

    /// A new random key.
    init() { key = SymmetricKey(size: .bits256) }

    init(_ key: SymmetricKey) { self.key = key }

    /// `plain`, padded (a 0x80 byte, then zeros) and sealed: nonce, ciphertext and tag, bound
    /// to the file's `name` in the album `album` (a file put in another's place does not open).
    func seal(_ plain: some Swift.Collection<UInt8>, album: String, file name: String) throws(AlbumError) -> [UInt8] {
        var padded = [UInt8]()
        let size = (plain.count + 1 + Self.padding - 1) / Self.padding * Self.padding
        padded.reserveCapacity(size)
        padded += plain
        padded.append(0x80)
        padded += repeatElement(0, count: size - padded.count)
        return try Self.sealed(padded, under: key, binding: Self.fileBinding(album, name), what: name)
    }

    /// What `seal` sealed, unpadded; nil when it does not open with this key (another key, another
    /// name or album, a byte changed).
    func open(_ sealed: [UInt8], album: String, file name: String) -> [UInt8]? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let padded = try? AES.GCM.open(box, using: key, authenticating: Array(Self.fileBinding(album, name).utf8)),
            let end = padded.lastIndex(where: { $0 != 0 }), padded[end] == 0x80
        else { return nil }
        return [UInt8](padded[..<end])
    }

    /// What a file is bound to (the page's script binds it the same way).
    private static func fileBinding(_ album: String, _ name: String) -> String { "tessera-file|\(album)|\(name)" }

    /// This key wrapped under `wrapping`, bound to the album and the wrap's `id`.
    func wrapped(under wrapping: SymmetricKey, album: String, id: String) throws(AlbumError) -> [UInt8] {
        let raw = key.withUnsafeBytes { [UInt8]($0) }
        return try Self.sealed(raw, under: wrapping, binding: "tessera-key|\(album)|\(id)", what: "an album's key")
    }

    /// `plain` sealed with AES-256-GCM under `key` and a random nonce, bound to `binding`:
    /// nonce, ciphertext and tag.
    private static func sealed(
        _ plain: [UInt8], under key: SymmetricKey, binding: String, what: String
    ) throws(AlbumError) -> [UInt8] {
        guard let box = try? AES.GCM.seal(plain, using: key, authenticating: Array(binding.utf8)),
            let combined = box.combined
        else { throw AlbumError(.output, "cannot encrypt \(what)") }
        return [UInt8](combined)
    }

    /// The key `wrapped` holds, when `wrapping` opens it.
    static func unwrap(_ wrapped: [UInt8], under wrapping: SymmetricKey, album: String, id: String) -> AlbumKey? {
        guard let box = try? AES.GCM.SealedBox(combined: wrapped),
            let raw = try? AES.GCM.open(box, using: wrapping, authenticating: Array("tessera-key|\(album)|\(id)".utf8)),
            raw.count == 32
        else { return nil }
        return AlbumKey(SymmetricKey(data: raw))
    }

    /// The key a passphrase gives with `salt`: PBKDF2-SHA256 at `rounds`.
    static func passphraseKey(
        _ passphrase: [UInt8], salt: [UInt8], rounds: Int = rounds
    ) throws(AlbumError)
        -> SymmetricKey
    {
        do {
            return try KDF.Insecure.PBKDF2.deriveKey(
                from: passphrase, salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds)
        } catch {
            throw AlbumError(.output, "cannot derive a key from a passphrase: \(error)")
        }
    }

    /// Whether `passphrase` is the one a wrap with `salt` was made for, told by this key (which
    /// only those who hold it can ask): the build keeps a configured passphrase's wrap without
    /// deriving its key again.
    func check(_ passphrase: [UInt8], salt: [UInt8]) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Array("tessera-passphrase|".utf8) + salt + passphrase, using: key)
        return Self.hex(Data(code).prefix(16))
    }

    /// `count` random bytes.
    static func random(_ count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { [UInt8]($0) }
    }

    /// `count` random bytes as lowercase hex: names nothing can be guessed from.
    static func randomName(_ count: Int = 12) -> String {
        hex(random(count))
    }

    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
