import Foundation
import Synchronization
import SystemPackage
import TesseraConfiguration
import TesseraFacts
import TesseraIndex
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraAlbum

/// A private album's encrypted pages (docs/PRIVATE.md): everything it uses sealed under its key,
/// which its passphrases and links open and nothing else does; nothing of it in the clear.
struct PrivateAlbumPagesTests {
    static func passphrase(_ text: String, in directory: TemporaryDirectory, named name: String) throws -> FilePath {
        let path = FilePath(directory.appending(name))
        try FileSystem.writeAtomically(Array(text.utf8), to: path)
        return path
    }

    /// The key and manifest of the private album in `private/<id>/`, opened with `passphrase`.
    static func opened(_ site: String, id: String, with passphrase: String) throws -> (AlbumKey, SealedFolder)? {
        let wraps = try #require(KeyWraps.read(in: FilePath(site + "/private/" + id)))
        guard let key = try wraps.open(with: [Array(passphrase.utf8)]) else { return nil }
        return (key, SealedFolder(output: OutputFolder(root: FilePath(site)), id: id, key: key))
    }

    static func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    @Test func everyFileOfAPrivateAlbumIsSealedAndNothingOfItIsInTheClear() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (configuration, index) = try PrivateAlbumsSiteTests.library(in: directory)
        let site = directory.appending("site")
        let pass = try Self.passphrase("correct horse battery\n", in: directory, named: "kids.pass")
        var options = AlbumBuilder.Options(output: FilePath(site))
        options.privateAlbums = [PrivateAlbum(folder: "Family/Kids", passphraseFiles: [pass])]
        options.privateWork = configuration.cache.appending("private-albums")
        let summary = try AlbumBuilder(index: index, options: options).build()
        try #require(summary.privateAlbums.count == 1, "\(summary.privateFailures)")
        let written = summary.privateAlbums[0]
        #expect(written.albums == 2 && written.sealed == written.files && written.files > 4)
        #expect(summary.text(options).contains("Private album Family/Kids: 2 albums"))

        // Opened with its passphrase: its pages and its renditions, byte for byte.
        let (_, sealed) = try #require(try Self.opened(site, id: written.id, with: "correct horse battery"))
        let manifest = try #require(sealed.manifest())
        let start = try #require(manifest.start)
        let startFile = try #require(manifest.files[start])
        let page = String(decoding: try #require(sealed.open(startFile.name)), as: UTF8.self)
        #expect(page.contains("Kids") && page.contains("2019"))
        let kids = try index.photos(PhotoQuery()).filter { $0.path.string.contains("/Kids/") }
        let renditions = try index.renditions(of: kids.map(\.id)).values.flatMap { $0 }
        try #require(!renditions.isEmpty)
        for rendition in renditions {
            let relative = MediaFolder.relative(cachePath: rendition.path)
            let entry = try #require(manifest.files[relative], "\(relative) is not sealed")
            #expect(sealed.open(entry.name) == Self.bytes(rendition.path))
        }
        #expect(manifest.files.keys.contains { $0.hasSuffix("/photos.js") })
        // Every file there but its keys and its door opens with the album key, so each holds ciphertext.
        let folderFiles = (try? FileManager.default.contentsOfDirectory(atPath: site + "/private/" + written.id)) ?? []
        let sealedNames = folderFiles.filter { $0 != "keys.js" && $0 != "index.html" }
        #expect(sealedNames.count == manifest.files.count + 1)
        for file in sealedNames { #expect(sealed.open(String(file.dropLast(3))) != nil, "\(file) does not open") }
        // Not with another passphrase; a file in another's place, or changed, does not open.
        #expect(try Self.opened(site, id: written.id, with: "correct horse") == nil)
        let names = manifest.files.values.map(\.name).sorted()
        let folder = site + "/private/" + written.id + "/"
        let swapped = Self.bytes(folder + names[0] + ".js")
        try FileSystem.writeAtomically(
            swapped.replacing(Array(names[0].utf8), with: Array(names[1].utf8)), to: FilePath(folder + names[1] + ".js")
        )
        #expect(sealed.open(names[1]) == nil)
        var tampered = Self.bytes(folder + names[2] + ".js")
        tampered[tampered.count / 2] =
            tampered[tampered.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try FileSystem.writeAtomically(tampered, to: FilePath(folder + names[2] + ".js"))
        #expect(sealed.open(names[2]) == nil)

        // Nothing of it in the clear anywhere in the site: names, dates, places, pixels.
        let all = PrivateAlbumsSiteTests.everyFile(site)
        for word in ["kidsfirst", "kidssecond", "Kids", "2021-07", "2021:07", "July 2021", "Czechia", "49.19", "16.60"]
        {
            let leaked = all.text.contains(word)
            #expect(!leaked, "\(word) is in the site in the clear")
        }
        var sealedBytes: [UInt8] = [], outsideCiphertext: [UInt8] = []
        for file in all.names where file.hasPrefix("private/") {
            let bytes = Self.bytes(site + "/" + file)
            sealedBytes += bytes
            outsideCiphertext += PrivateAlbumsSiteTests.outsideCiphertext(bytes)
        }
        for signature in [[0xFF, 0xD8, 0xFF], Array("ftyp".utf8), [0x89, 0x50, 0x4E, 0x47]] as [[UInt8]] {
            #expect(outsideCiphertext.firstRange(of: signature) == nil, "\(signature) in a sealed file")
        }
        for rendition in renditions {
            let pixels = Array(Self.bytes(rendition.path).suffix(64))
            #expect(sealedBytes.firstRange(of: pixels) == nil && !pixels.isEmpty)
        }
        // Its work folder, kept for the next build, is the album's own (by its id).
        let work = (try? FileManager.default.contentsOfDirectory(atPath: options.privateWork?.string ?? "")) ?? []
        #expect(work.count == 1 && work.allSatisfy { $0.hasSuffix("-" + written.id) }, "\(work)")
    }

    @Test func anUnchangedPrivateAlbumIsNotSealedAgainAndItsLinksAndPassphrasesAreKeptOrRevoked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, index) = try PrivateAlbumsSiteTests.library(in: directory)
        let site = directory.appending("site")
        let first = try Self.passphrase("first\n", in: directory, named: "first.pass")
        var options = AlbumBuilder.Options(output: FilePath(site))
        options.privateAlbums = [PrivateAlbum(folder: "Family/Kids", passphraseFiles: [first])]
        options.privateWork = FilePath(directory.appending("work"))
        let id = try #require(try AlbumBuilder(index: index, options: options).build().privateAlbums.first).id
        let files = try FileManager.default.contentsOfDirectory(atPath: site + "/private/" + id).sorted()
        let works = { try FileManager.default.contentsOfDirectory(atPath: directory.appending("work")) }
        let work = try #require(try works().first)
        let workPages = { () throws -> [String: Date] in
            var stamps: [String: Date] = [:]
            for case let file as String in FileManager.default.enumerator(atPath: directory.appending("work/" + work))
                ?? .init() where file.hasSuffix(".html")
            {
                let path = directory.appending("work/" + work + "/" + file)
                stamps[file] = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            }
            return stamps
        }
        let pagesBefore = try workPages()
        #expect(!pagesBefore.isEmpty)

        let stamps = { () throws -> [String: Date] in
            var stamps: [String: Date] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: site + "/private/" + id) {
                let path = site + "/private/" + id + "/" + file
                stamps[file] = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            }
            return stamps
        }
        let before = try stamps()
        let again = try #require(try AlbumBuilder(index: index, options: options).build().privateAlbums.first)
        #expect(again.id == id && again.sealed == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/private/" + id).sorted() == files)
        #expect(try stamps() == before, "an unchanged rebuild wrote private files again")
        #expect(try workPages() == pagesBefore, "an unchanged rebuild made the private album's pages again")
        // A sealed file gone (a partial copy of the site) is sealed again, alone.
        let lost = try #require(files.first { $0 != "index.html" && $0 != "keys.js" && $0 != "manifest.js" })
        try FileSystem.removeFile(FilePath(site + "/private/" + id + "/" + lost))
        let mended = try #require(try AlbumBuilder(index: index, options: options).build().privateAlbums.first)
        #expect(mended.sealed == 1)

        // A link opens it, and stops opening it once revoked; a build keeps it meanwhile.
        let album = options.privateAlbums[0]
        let link = try PrivateLinks.share(album, output: FilePath(site))
        #expect(link.address.hasPrefix("private/\(id)/index.html#key=\(link.id)."))
        let secret = String(link.address.split(separator: ".").last ?? "")
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let raw = try #require(Data(base64Encoded: secret + String(repeating: "=", count: (4 - secret.count % 4) % 4)))
        _ = try AlbumBuilder(index: index, options: options).build()
        #expect(KeyWraps.read(in: FilePath(site + "/private/" + id))?.open(link: link.id, secret: [UInt8](raw)) != nil)
        #expect(try PrivateLinks.revoke(album, links: [link.id], output: FilePath(site)) == [link.id])
        #expect(KeyWraps.read(in: FilePath(site + "/private/" + id))?.open(link: link.id, secret: [UInt8](raw)) == nil)
        #expect(throws: AlbumError.self) { try PrivateLinks.revoke(album, links: ["nolink"], output: FilePath(site)) }

        // A second passphrase, then the first taken out (revoked): the key is the same, nothing
        // is sealed again, and the first no longer opens it.
        let second = try Self.passphrase("second\n", in: directory, named: "second.pass")
        options.privateAlbums = [PrivateAlbum(folder: "Family/Kids", passphraseFiles: [first, second])]
        _ = try AlbumBuilder(index: index, options: options).build()
        #expect(try Self.opened(site, id: id, with: "second") != nil)
        options.privateAlbums = [PrivateAlbum(folder: "Family/Kids", passphraseFiles: [second])]
        let changed = try #require(try AlbumBuilder(index: index, options: options).build().privateAlbums.first)
        #expect(changed.id == id && changed.sealed == 0)
        #expect(try Self.opened(site, id: id, with: "first") == nil)
        #expect(try Self.opened(site, id: id, with: "second") != nil)

        // A new key: a new folder, everything sealed again, the old gone.
        try PrivateLinks.replaceKey(options.privateAlbums[0], output: FilePath(site))
        let renewed = try #require(try AlbumBuilder(index: index, options: options).build().privateAlbums.first)
        #expect(renewed.id != id && renewed.sealed == renewed.files)
        #expect(!FileManager.default.fileExists(atPath: site + "/private/" + id))
        let kept = try works()
        #expect(kept.map { $0.hasSuffix("-" + renewed.id) } == [true], "\(kept)")
        // Public again: its work folder goes too.
        options.privateAlbums = []
        _ = try AlbumBuilder(index: index, options: options).build()
        #expect(try works().isEmpty)
    }

    @Test func badPassphraseFilesAreSaidAndTheRestIsBuiltAndAPrivateAlbumInsideAnotherIsItsOwn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, index) = try PrivateAlbumsSiteTests.library(in: directory)
        let site = directory.appending("site")
        let empty = try Self.passphrase("\n", in: directory, named: "empty.pass")
        var options = AlbumBuilder.Options(output: FilePath(site))
        options.privateWork = FilePath(directory.appending("work"))
        options.privateAlbums = [
            PrivateAlbum(folder: "Family/Kids", passphraseFiles: [FilePath(directory.appending("missing.pass"))]),
            PrivateAlbum(folder: "Trip", passphraseFiles: [empty]),
        ]
        let failed = try AlbumBuilder(index: index, options: options).build()
        #expect(failed.privateAlbums.isEmpty && failed.privateFailures.count == 2)
        let text = failed.text(options)
        #expect(text.contains("missing.pass") && text.contains("the passphrase file is empty"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: site + "/index.html"))
        #expect(String(decoding: Self.bytes(site + "/index.html"), as: UTF8.self).contains("Family"))

        // A passphrase of a megabyte; a private album inside it with a passphrase of its own.
        let long = String(repeating: "long passphrase ", count: 65_536)
        let family = try Self.passphrase(long, in: directory, named: "family.pass")
        let kids = try Self.passphrase("kids", in: directory, named: "kids.pass")
        options.privateAlbums = [
            PrivateAlbum(folder: "Family", passphraseFiles: [family]),
            PrivateAlbum(folder: "Family/Kids", passphraseFiles: [kids]),
        ]
        let built = try AlbumBuilder(index: index, options: options).build()
        try #require(built.privateAlbums.count == 2, "\(built.privateFailures)")
        let (outer, inner) = (built.privateAlbums[0], built.privateAlbums[1])
        #expect(try Self.opened(site, id: outer.id, with: "kids") == nil)
        #expect(try Self.opened(site, id: inner.id, with: long) == nil)
        let outerFiles = try #require(try Self.opened(site, id: outer.id, with: long)?.1.manifest()?.files)
        let innerFiles = try #require(try Self.opened(site, id: inner.id, with: "kids")?.1.manifest()?.files)
        let outerSealed = try #require(try Self.opened(site, id: outer.id, with: long)?.1)
        let innerSealed = try #require(try Self.opened(site, id: inner.id, with: "kids")?.1)
        let outerText = outerFiles.values.compactMap { outerSealed.open($0.name) }
            .map { String(decoding: $0, as: UTF8.self) }.joined()
        let innerText = innerFiles.values.compactMap { innerSealed.open($0.name) }
            .map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(outerText.contains("porto") && !outerText.contains("kidsfirst"))
        #expect(innerText.contains("kidsfirst") && !innerText.contains("porto"))
        #expect(Set(outerFiles.keys).isDisjoint(with: innerFiles.keys.filter { $0.hasPrefix("media/") }))
    }

    @Test(.enabled(if: VideoFixture.ffmpeg != nil, "ffmpeg is not installed: this test makes its video with it"))
    func aLongVideoIsSealedInPartsThatStreamAndOtherLargeMediaInPartsThatJoin() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scratch = FilePath(directory.appending("scratch"))
        for folder in ["media/video", "media/ab/cd", "albums/x"] {
            try FileSystem.createDirectories(scratch.appending(folder))
        }
        let clip = Self.bytes(try VideoFixture.clip(in: directory, extra: ["-x264-params", "scenecut=0"]))
        try FileSystem.writeAtomically(clip, to: scratch.appending("media/video/1.mp4"))
        let picture = (0..<100).map { UInt8($0) }
        try FileSystem.writeAtomically(picture, to: scratch.appending("media/ab/cd/big.jpg"))
        try FileSystem.writeAtomically(Array("<p>x</p>".utf8), to: scratch.appending("albums/x/index.html"))
        let site = directory.appending("site")
        var sealed = SealedFolder(output: OutputFolder(root: FilePath(site)), id: "0123456789abcdef", key: AlbumKey())
        sealed.partBytes = 40
        let write = { try sealed.write(from: scratch, folders: ["albums/x"], start: "albums/x/index.html") }
        // What a build killed while writing a video again in fragments left in the work folder goes.
        try FileSystem.writeAtomically(Array(repeating: 0, count: 64), to: scratch.appending(".fragmented-killed.mp4"))
        // Stopped after a file or two: an error, and what it sealed is removed by the next build.
        let asked = Mutex(0)
        #expect(throws: AlbumError.self) {
            try sealed.write(
                from: scratch, folders: ["albums/x"], start: "albums/x/index.html",
                shouldStop: {
                    asked.withLock { count in
                        count += 1
                        return count > 2
                    }
                })
        }
        #expect(sealed.manifest() == nil)
        #expect(try write().sealed == 3)
        #expect(!FileManager.default.fileExists(atPath: scratch.appending(".fragmented-killed.mp4").string))
        let manifest = try #require(sealed.manifest())

        // The video: its header, then parts, each at a keyframe (one a second) or a cut fragment,
        // which join into an MP4 in fragments.
        let video = try #require(manifest.files["media/video/1.mp4"])
        #expect(video.type?.hasPrefix("video/mp4; codecs=\"avc1.") == true, "\(video)")
        let times = video.parts?.compactMap(\.time) ?? []
        #expect(times.first == 0 && Set(times).isSubset(of: [0, 1, 2, 3]) && times.count > 1, "\(video)")
        #expect(abs((video.seconds ?? 0) - 3.5) < 0.15)
        let joined = video.names.flatMap { sealed.open($0) ?? [] }
        #expect(String(decoding: joined[4..<8], as: UTF8.self) == "ftyp" && joined.count > clip.count / 2)
        // Anything else large: its bytes in parts, which join into the file.
        let large = try #require(manifest.files["media/ab/cd/big.jpg"])
        #expect(large.type == nil && large.parts?.count == 2)
        #expect(large.names.flatMap { sealed.open($0) ?? [] } == picture)

        // Unchanged: nothing sealed again. A part gone: its file sealed again, its old parts removed.
        #expect(try write().sealed == 0)
        let folder = site + "/private/0123456789abcdef/"
        try FileSystem.removeFile(FilePath(folder + video.names[2] + ".js"))
        #expect(try write().sealed == 1)
        let after = try #require(sealed.manifest())
        let names = Set(after.files.values.flatMap(\.names).map { $0 + ".js" } + ["manifest.js"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == names)
        #expect(after.files["media/ab/cd/big.jpg"] == large && after.files["media/video/1.mp4"] != video)
    }
}
