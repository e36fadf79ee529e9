import Foundation
import SystemPackage
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// Each private album's encrypted site, `private/<id>/` in the output (docs/PRIVATE.md).
///
/// A private album's pages are made as a public album's are, by the same writer, in a folder
/// outside the output (`Options.privateWork`); then every file they use — pages, `photos.js`,
/// renditions, web videos — is sealed into `private/<id>/` under a random name (`SealedFolder`),
/// beside the album's `keys.js` and a page that asks for the passphrase. The id is random: the
/// build finds an album's folder again by the passphrases that open its `keys.js`.
public struct PrivateSite {
    /// What a build left of one private album.
    public struct Written: Sendable {
        /// The configured folder, and its folder under `private/`.
        public var folder: String
        public var id: String
        /// Its albums, and the sealed files its pages use: all, and those sealed by this build.
        public var albums: Int
        public var files: Int
        public var sealed: Int
        /// Files too large to seal, left out of its pages.
        public var tooLarge: Int
        /// Seconds spent encrypting.
        public var sealing: Double

        var line: String {
            "Private album \(folder): \(Wording.count(albums, "album")), \(Wording.count(files, "encrypted file"))"
                + " (\(sealed) encrypted now in \(String(format: "%.2f", sealing)) s) in private/\(id)/"
                + (tooLarge > 0
                    ? "; \(Wording.count(tooLarge, "file")) over \(SealedFolder.largest >> 20) MiB left out" : "")
        }
    }

    let index: any PhotoReading
    let output: OutputFolder
    let options: AlbumBuilder.Options
    let holdings: PrivateHoldings

    /// The folder every private album's is in, in the output.
    static let folder = "private"

    /// Writes each private album's sealed pages; removes the folders no private album opens any
    /// more (unless some album's passphrase could not be read: its folder may be among them).
    func run(shouldStop: @escaping @Sendable () -> Bool) throws(AlbumError) -> ([Written], [String]) {
        let existing = Self.folders(in: output)
        guard !holdings.privateAlbums.isEmpty || !existing.isEmpty else {
            Self.removeWork(in: options.privateWork, for: output, keeping: [])
            return ([], [])
        }
        var (written, failures, claimed) = ([Written](), [String](), Set<String>())
        for (place, album) in holdings.privateAlbums.enumerated() {
            guard !shouldStop() else { throw AlbumError(.stopped, "stopped before every private album was written") }
            let passphrases: [[UInt8]]
            do {
                passphrases = try Self.passphrases(album)
            } catch {
                failures.append("\(album.folder): \(error)")
                continue
            }
            let found = try Self.find(passphrases, among: existing.filter { !claimed.contains($0) }, in: output)
            let (id, key) = (found?.id ?? AlbumKey.randomName(8), found?.key ?? AlbumKey())
            claimed.insert(id)
            let wraps = try KeyWraps.made(for: key, album: id, passphrases: passphrases, keeping: found?.wraps)
            written.append(try write(place, id: id, key: key, wraps: wraps, shouldStop: shouldStop))
        }
        if failures.isEmpty {
            for id in existing where !claimed.contains(id) { try output.remove(Self.folder + "/" + id) }
            Self.removeWork(in: options.privateWork, for: output, keeping: claimed)
        }
        return (written, failures)
    }

    /// The folder under `private/` (of those `among`) whose `keys.js` one of `passphrases` opens,
    /// with the key and its wraps.
    static func find(
        _ passphrases: [[UInt8]], among ids: [String], in output: OutputFolder
    ) throws(AlbumError) -> (id: String, key: AlbumKey, wraps: KeyWraps)? {
        for id in ids {
            if let wraps = KeyWraps.read(in: output.path(folder + "/" + id)), wraps.album == id,
                let key = try wraps.open(with: passphrases)
            {
                return (id, key, wraps)
            }
        }
        return nil
    }

    /// The folders under `private/` in the output; none when it is not a folder of the output
    /// (a link there is never followed: what it leads to is not the site's to remove).
    static func folders(in output: OutputFolder) -> [String] {
        guard (try? FileSystem.linkStatus(of: output.path(folder)))?.type == .directory else { return [] }
        return (FileSystem.entries(of: output.path(folder)) ?? []).map { String(decoding: $0, as: UTF8.self) }
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The most bytes a passphrase file may hold.
    static let largestPassphraseFile = 4 << 20

    /// The passphrases of `album`: the first line of each of its files, none empty.
    static func passphrases(_ album: PrivateAlbum) throws(AlbumError) -> [[UInt8]] {
        guard !album.passphraseFiles.isEmpty else { throw AlbumError(.output, "no passphrase_file") }
        return try album.passphraseFiles.map { (file: FilePath) throws(AlbumError) in
            let contents: [UInt8]?
            do {
                contents = try RegularFile(opening: file).contents(limit: largestPassphraseFile)
            } catch {
                throw AlbumError(.output, "cannot read the passphrase file: \(error)")
            }
            guard let bytes = contents else {
                throw AlbumError(.output, "\(file): the passphrase file is larger than 4 MiB")
            }
            var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            guard !line.isEmpty else { throw AlbumError(.output, "\(file): the passphrase file is empty") }
            return Array(line)
        }
    }

    /// Makes the pages of the private album at `place` in its work folder and seals them into
    /// `private/<id>/`.
    private func write(
        _ place: Int, id: String, key: AlbumKey, wraps: KeyWraps, shouldStop: @escaping @Sendable () -> Bool
    ) throws(AlbumError) -> Written {
        let album = holdings.privateAlbums[place]
        let scratch = try Self.work(in: options.privateWork, for: output, id: id)
        var own = options
        (own.privateAlbums, own.withheldAlbumIDs, own.onlyAlbumIDs) = ([], [], Set(holdings.albums[place]))
        // (never a link to a private original: they are left out)
        own.originals = .none
        let built = try SiteBuild(
            index: index, store: nil, output: OutputFolder(root: scratch), options: own, optionsKey: "private"
        ).run(shouldStop: shouldStop)
        let folders = built.folders.filter { PrivateHoldings.holder(of: $0.name, in: holdings.privateAlbums) == place }
        let start = (folders.first { $0.name == album.folder } ?? folders.min { $0.name.count < $1.name.count })
            .map { $0.folder + "/index.html" }
        let sealed = SealedFolder(output: output, id: id, key: key)
        let result = try sealed.write(
            from: scratch, folders: folders.map(\.folder), start: start, shouldStop: shouldStop)
        try output.writeIfChanged(wraps.script, to: Self.folder + "/" + id + "/" + KeyWraps.file)
        try output.writeIfChanged(Self.shell, to: Self.folder + "/" + id + "/index.html")
        return Written(
            folder: album.folder, id: id, albums: folders.count, files: result.files, sealed: result.sealed,
            tooLarge: result.tooLarge, sealing: result.seconds)
    }

    /// The work folder of the private album `id` of `output`, below `parent` (or the system's
    /// temporary folder), where its pages are made as a site's are.
    ///
    /// It is kept between builds, so that a build makes again only what changed (its own state
    /// says what), as in the site. This build holds the output's lock: no other is making pages
    /// there for it.
    private static func work(in parent: FilePath?, for output: OutputFolder, id: String) throws(AlbumError) -> FilePath
    {
        let folder = (parent ?? temporary).appending(workPrefix(for: output) + id)
        do throws(SystemError) {
            try FileSystem.createDirectories(folder.removingLastComponent(), mode: 0o700)
            try FileSystem.createDirectories(folder, mode: 0o700)
        } catch {
            throw AlbumError(.output, "\(folder): cannot make the private albums' work folder: \(error)")
        }
        return folder
    }

    /// Removes the work folders of `output`'s private albums but those of `kept` (an album made
    /// public, given a new key, or gone).
    private static func removeWork(in parent: FilePath?, for output: OutputFolder, keeping kept: Set<String>) {
        let (parent, prefix) = (parent ?? temporary, workPrefix(for: output))
        for entry in FileSystem.entries(of: parent) ?? [] {
            let name = String(decoding: entry, as: UTF8.self)
            if name.hasPrefix(prefix), !kept.contains(String(name.dropFirst(prefix.count))) {
                try? FileSystem.removeTree(parent.appending(name))
            }
        }
    }

    private static var temporary: FilePath { FilePath(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") }

    private static func workPrefix(for output: OutputFolder) -> String {
        "tessera-private-" + XXH64.hex(XXH64.hash(Array(output.root.string.utf8))) + "-"
    }

    /// The page a private album is opened at: it names nothing of the album, and asks for a
    /// passphrase unless its link's key is in the address (`assets/private.js`).
    static let shell = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
        <title>Private album</title>
        <link rel="stylesheet" href="../../assets/album.css"><link rel="icon" href="../../assets/icon.svg">
        <script src="../../assets/private.js"></script><script src="keys.js"></script>
        <script src="../../assets/album.js"></script>
        </head><body class="sealed">
        <form class="unlock" hidden><h1>Private album</h1>
        <label>Passphrase <input type="password" name="passphrase" autocomplete="current-password" required></label>
        <button>Open</button><p class="status" role="status"></p></form>
        <noscript><p>This album is encrypted: it opens in a browser with script.</p></noscript>
        </body></html>

        """
}
