import Foundation
import Glibc
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraTestSupport
import Testing

@testable import TesseraConfiguration

struct ConfigurationTests {
    @Test func theDocumentedConfigurationIsTheDefault() throws {
        let documented = Corpus.projectRoot.appendingPathComponent("config/tessera.yaml").path
        let environment = ["HOME": "/home/someone"]
        let loaded = try Configuration.load(explicit: documented, environment: environment)
        let defaults = Configuration(environment: environment)
        #expect(loaded.renditions.sorted() == defaults.renditions.sorted())
        #expect(loaded.renderSettings.recorded == defaults.renderSettings.recorded)
        #expect(loaded.roots == defaults.roots && loaded.index == defaults.index && loaded.cache == defaults.cache)
    }

    @Test func renditionListsAreCheckedAndNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("config.yaml")
        func load(_ yaml: String) -> Result<Configuration, ConfigurationError> {
            Result { () throws(ConfigurationError) in
                do { try Data(yaml.utf8).write(to: URL(fileURLWithPath: file)) } catch { Issue.record(error) }
                return try Configuration.load(explicit: file, environment: ["HOME": directory.path])
            }
        }
        #expect(
            try load("thumbnails:\n  square: [128]\n  fit: [1600]\n").get().renditions == [.fit(1600), .square(128)])
        // An empty list turns a kind off; the older name of the squares still works.
        #expect(try load("thumbnails:\n  sizes: [200]\n  fit: []\n").get().renditions == [.square(200)])
        for (yaml, expected) in [
            ("thumbnails:\n  fit: [3]\n", "key 'thumbnails.fit': must be between 16 and 8192"),
            ("thumbnails:\n  square: [9000]\n", "key 'thumbnails.square': must be between 16 and 4096"),
            ("thumbnails:\n  square: []\n  fit: []\n", "key 'thumbnails': needs at least one square or fit size"),
            ("thumbnails:\n  sizes: [128]\n  square: [256]\n", "'sizes' is the older name of 'square'"),
            ("thumbnails:\n  color_management: maybe\n", "key 'thumbnails.color_management'"),
        ] {
            guard case .failure(let error) = load(yaml) else {
                Issue.record("accepted: \(yaml)")
                continue
            }
            #expect(error.description.contains(file) && error.description.contains(expected), "\(error)")
        }
    }

    /// A cluster's index and store are named by address (docs/SCALE.md); another kind of address
    /// is refused where it is written.
    @Test func aClusterIsNamedByItsAddressesAndAWrongOneByItsLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("config.yaml")
        try Data(
            "index_url: postgres://tessera@db/photos\nrenditions_url: s3://renditions/library\nrenditions_credentials: ~/keys\n"
                .utf8
        ).write(to: URL(fileURLWithPath: file))
        let loaded = try Configuration.load(explicit: file, environment: ["HOME": directory.path])
        #expect(loaded.indexURL == "postgres://tessera@db/photos")
        #expect(loaded.renditionsURL == "s3://renditions/library")
        #expect(loaded.renditionsCredentials == FilePath(directory.appending("keys")))
        #expect(Configuration(environment: ["HOME": directory.path]).indexURL == nil)
        for (yaml, expected) in [
            ("index_url: mysql://db/photos\n", ":1:12: key 'index_url': must be a postgres:// address (docs/SCALE.md)"),
            (
                "renditions_url: https://bucket.example/\n",
                ":1:17: key 'renditions_url': must be an s3://BUCKET/PREFIX address (docs/SCALE.md)"
            ),
        ] {
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: file))
            do {
                _ = try Configuration.load(explicit: file, environment: ["HOME": directory.path])
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.description == file + expected, "\(error)")
            }
        }
    }

    @Test func errorsNameTheLineAndColumnAndSuggestTheKeyMeant() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("config.yaml")
        for (yaml, expected) in [
            (
                "roots: [/photos]\nthumbnail:\n  square: [128]\n",
                ":2:1: key 'thumbnail': unknown key; did you mean 'thumbnails'?"
            ),
            ("thumbnails:\n  sqare: [128]\n", ":2:3: key 'thumbnails.sqare': unknown key; did you mean 'square'?"),
            ("thumbnails:\n  quality: 300\n", ":2:12: key 'thumbnails.quality': must be between 1 and 100"),
            ("workers: many\n", ":1:10: key 'workers': must be a whole number, not \"many\""),
            // A key nothing like a known one gets no suggestion.
            ("colour_management: true\n", ":1:1: key 'colour_management': unknown key"),
        ] {
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: file))
            do {
                _ = try Configuration.load(explicit: file, environment: ["HOME": directory.path])
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(
                    error.description.hasSuffix(file + expected) || error.description == file + expected, "\(error)")
            }
        }
    }

    @Test func aFileThatIsNotAConfigurationSaysWhatItIsAndWhere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("config.yaml")
        func error(loading path: String) -> String {
            do {
                _ = try Configuration.load(explicit: path, environment: ["HOME": directory.path])
                return "accepted"
            } catch {
                return error.description
            }
        }
        // A folder, a FIFO (read without blocking), bytes that are not UTF-8, a key given twice.
        #expect(error(loading: directory.path) == directory.path + ": is a directory, not a configuration file")
        #expect(mkfifo(directory.appending("fifo.yaml"), 0o644) == 0)
        #expect(
            error(loading: directory.appending("fifo.yaml")).hasSuffix("fifo.yaml: is a FIFO, not a configuration file")
        )
        try Data([UInt8]("workers: 2\nroots: [caf".utf8) + [0xE9, 0x5D, 0x0A]).write(to: URL(fileURLWithPath: file))
        #expect(error(loading: file) == file + ":2:12: is not UTF-8 text (byte 0xe9)")
        // Its first bad byte is found in one pass: a megabyte of text around it is not a hang
        // (looking back from the end for the longest valid prefix was quadratic: minutes).
        let half = [UInt8](repeating: UInt8(ascii: "a"), count: 500_000)
        try Data(half + [0xFF] + half).write(to: URL(fileURLWithPath: file))
        #expect(error(loading: file) == file + ":1:500001: is not UTF-8 text (byte 0xff)")
        try Data("workers: 2\nthumbnails:\n  fit: [512]\n  fit: [640]\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(error(loading: file) == file + ":4:3: key 'thumbnails.fit': given twice (first on line 3)")
    }

    @Test func aFileStartingWithAByteOrderMarkIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("config.yaml")
        try Data([0xEF, 0xBB, 0xBF] + Array("workers: 3\n".utf8)).write(to: URL(fileURLWithPath: file))
        #expect(try Configuration.load(explicit: file, environment: ["HOME": directory.path]).workerCount == 3)
    }

    /// Place corrections and private zones as docs/PLACES.md writes them; a wrong one names its
    /// file, line and key.
    @Test func placeCorrectionsAndPrivateZonesAreReadAndCheckedByLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("config.yaml")
        try Data(
            """
            place_corrections:
              - folder: /Trips/2019 Lisbon/
                city: Lisbon
                country_code: pt
              - photo: Scans/1987/beach.jpg
                latitude: 43.5528
                longitude: 7.0174
            private_zones:
              - latitude: 48.2082
                longitude: 16.3738
                radius_km: 0.5
            private_albums:
              - folder: /Family/Kids/
                passphrase_file: /etc/tessera/kids.pass
              - folder: Clients/Ada
                passphrase_file: [/etc/tessera/ada.pass, /etc/tessera/studio.pass]
            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let loaded = try Configuration.load(explicit: file, environment: ["HOME": directory.path])
        #expect(
            loaded.placeCorrections == [
                PlaceCorrection(
                    scope: .folder("Trips/2019 Lisbon"), words: LocationWords(city: "Lisbon", countryCode: "PT"),
                    position: nil),
                PlaceCorrection(
                    scope: .photo("Scans/1987/beach.jpg"), words: nil,
                    position: GPSPosition(latitude: 43.5528, longitude: 7.0174)),
            ])
        #expect(loaded.privateZones == [PrivateZone(latitude: 48.2082, longitude: 16.3738, radiusKilometres: 0.5)])
        #expect(
            loaded.privateAlbums == [
                PrivateAlbum(folder: "Family/Kids", passphraseFiles: ["/etc/tessera/kids.pass"]),
                PrivateAlbum(
                    folder: "Clients/Ada", passphraseFiles: ["/etc/tessera/ada.pass", "/etc/tessera/studio.pass"]),
            ])
        #expect(PrivateAlbum(folder: "Family/Kids", passphraseFiles: []).holds(albumNamed: "Family/Kids/2019"))
        #expect(!PrivateAlbum(folder: "Family/Kids", passphraseFiles: []).holds(albumNamed: "Family/Kidsroom"))
        for (yaml, expected) in [
            (
                "place_corrections:\n  - city: Lisbon\n",
                ":2:5: key 'place_corrections': each item needs `folder` or `photo` (one of them)"
            ),
            ("place_corrections:\n  - folder: A\n    town: B\n", ":3:5: key 'place_corrections.town': unknown key"),
            ("place_corrections:\n  - folder: A\n", ":2:5: key 'place_corrections': each item needs a place"),
            (
                "private_zones:\n  - latitude: 95\n    longitude: 0\n    radius_km: 1\n",
                ":2:15: key 'private_zones.latitude': must be between -90.0 and 90.0"
            ),
            (
                "private_zones:\n  - latitude: 1\n    longitude: 2\n",
                ":2:5: key 'private_zones': each item needs latitude"
            ),
            ("private_zones:\n  - latitude: nan\n", ":2:15: key 'private_zones.latitude': must be a number"),
            (
                "private_albums:\n  - folder: Kids\n",
                ":2:5: key 'private_albums': each item needs `folder` and `passphrase_file`"
            ),
            (
                "private_albums:\n  - folder: /\n    passphrase_file: /k\n",
                ":2:13: key 'private_albums.folder': must name a folder inside a root"
            ),
            (
                "private_albums:\n  - folder: A\n    passphrase: secret\n",
                ":3:5: key 'private_albums.passphrase': unknown key"
            ),
        ] {
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: file))
            do {
                _ = try Configuration.load(explicit: file, environment: ["HOME": directory.path])
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.description.hasPrefix(file + expected), "\(error)")
            }
        }
    }
}
