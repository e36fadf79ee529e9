import Foundation
import SystemPackage
import TesseraAlbum
import TesseraConfiguration
import TesseraFacts
import TesseraIndex
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// A private album's photos are on no public page (docs/PRIVATE.md): not in the album list, the
/// timeline, a month, Find, Places, the map or a stack's viewer, by name, date, place or rendition.
struct PrivateAlbumsSiteTests {
    /// Two public albums (`Trip`, and `Family/Trips` beside the private folder) and `Family/Kids`
    /// with an album below it: the Kids' photos in a month and a country of their own.
    static func library(in directory: TemporaryDirectory) throws -> (Configuration, PhotoIndex) {
        var configuration = AlbumBuilderTests.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        let photos: [(String, String, GPSPosition?)] = [
            ("Trip/lisbon.jpg", "2023:05:10", GPSPosition(latitude: 38.7223, longitude: -9.1393)),
            ("Family/Trips/porto.jpg", "2023:06:10", GPSPosition(latitude: 41.1496, longitude: -8.6110)),
            ("Family/Kids/kidsfirst.jpg", "2021:07:04", GPSPosition(latitude: 49.1989, longitude: 16.6071)),
            ("Family/Kids/2019/kidssecond.jpg", "2021:07:05", nil),
        ]
        for (number, (name, date, position)) in photos.enumerated() {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: "\(date) 10:00:00")
            exif.gps = position
            let jpeg = try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: number * 11), exif: exif)
            try FileSystem.createDirectories(FilePath(directory.appending("photos/" + name)).removingLastComponent())
            try FileSystem.writeAtomically(jpeg, to: FilePath(directory.appending("photos/" + name)))
        }
        let index = try PhotoIndex(path: configuration.index)
        try AlbumBuilderTests.scan(configuration, index)
        return (configuration, index)
    }

    /// Every file's name, and every byte of every file of the site as text where it is text (the
    /// site's state too), but a sealed file's ciphertext: base64 of random bytes spells any short word
    /// somewhere, and the tests that open every sealed file prove it is ciphertext.
    static func everyFile(_ site: String) -> (names: [String], text: String) {
        var (names, text) = ([String](), "")
        for case let file as String in FileManager.default.enumerator(atPath: site) ?? .init() {
            names.append(file)
            if let data = FileManager.default.contents(atPath: site + "/" + file) {
                text += String(decoding: outsideCiphertext([UInt8](data)), as: UTF8.self)
            }
        }
        return (names, text)
    }

    /// A file's bytes, but for a sealed file's base64 ciphertext (Latin-1 keeps every byte as it is).
    static func outsideCiphertext(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.starts(with: "tesseraSealed(".utf8) else { return bytes }
        let text = String(bytes.map { Character(Unicode.Scalar($0)) })
        let kept = text.replacing(/^(tesseraSealed\("[^"]*",")[A-Za-z0-9+\/=]*("\);\n)$/) { $0.1 + $0.2 }
        return kept.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    }

    @Test func aPrivateFolderIsOnNoPublicPageAndComesBackWhenItIsNotPrivate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, index) = try Self.library(in: directory)
        let site = directory.appending("site")
        let kids = try index.photos(PhotoQuery()).filter { $0.path.string.contains("/Kids/") }
        try #require(kids.count == 2)
        let renditions = try index.renditions(of: kids.map(\.id)).values.flatMap { $0 }.map {
            String($0.path.split(separator: "/").last ?? "")
        }
        try #require(!renditions.isEmpty)

        var options = AlbumBuilder.Options(output: FilePath(site))
        options.privateAlbums = [PrivateAlbum(folder: "Family/Kids", passphraseFiles: ["/nowhere/kids.pass"])]
        let summary = try AlbumBuilder(index: index, options: options).build()
        #expect(summary.withheld.albums == 1 && summary.withheld.photos == 2)
        #expect(summary.text(options).contains("Private: 1 folder (2 photos) left out of every public page"))
        let withheld = Self.everyFile(site)
        for word in ["kidsfirst", "kidssecond", "Kids", "2021-07", "July 2021", "Czechia", "49.19"] {
            let leaked = withheld.text.contains(word)
            #expect(!leaked, "\(word) is in the public site")
        }
        for rendition in renditions {
            #expect(!withheld.names.contains { $0.hasSuffix(rendition) }, "\(rendition) is in the public site")
        }
        // The public albums are there, the one beside the private folder too.
        let (lisbon, porto) = (withheld.text.contains("lisbon.jpg"), withheld.text.contains("porto.jpg"))
        #expect(lisbon && porto)

        // Not private any more: every page that shows it is written again; private again: gone again.
        options.privateAlbums = []
        _ = try AlbumBuilder(index: index, options: options).build()
        let shown = Self.everyFile(site)
        let (kid, country) = (shown.text.contains("kidsfirst"), shown.text.contains("Czechia"))
        #expect(kid && country)
        #expect(FileManager.default.fileExists(atPath: site + "/months/2021-07/index.html"))
        options.privateAlbums = [PrivateAlbum(folder: "Family/Kids", passphraseFiles: ["/nowhere/kids.pass"])]
        // (every page written again: one that listed a private photo beside its own, as a stack's
        // member in another folder does, has no change of its own to say so)
        let rewritten = try AlbumBuilder(index: index, options: options).build()
        #expect(rewritten.unchanged == 0 && rewritten.written > 0, "\(rewritten.written) \(rewritten.unchanged)")
        let again = Self.everyFile(site)
        for word in ["kidsfirst", "kidssecond", "Kids", "2021-07", "Czechia"] {
            let leaked = again.text.contains(word)
            #expect(!leaked, "\(word) is in the public site after it went private again")
        }
        #expect(!FileManager.default.fileExists(atPath: site + "/months/2021-07"))
        let named = again.names.filter { $0.lowercased().contains("kids") }
        #expect(named.isEmpty, "\(named)")
    }
}
