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

/// Places in the site (docs/PLACES.md): the Places pages, the place in the viewer, the map's
/// data, and the private zones, from a real scan of photos with positions.
struct PlacesSiteTests {
    /// Home: within a kilometre of Berlin's centre.
    static let home = PrivateZone(latitude: 52.5200, longitude: 13.4050, radiusKilometres: 1)

    /// Photos in Lisbon (two), Brno, at home in Berlin, and one without a position.
    static func library(in directory: TemporaryDirectory) throws -> (Configuration, PhotoIndex) {
        var configuration = AlbumBuilderTests.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        let photos: [(String, GPSPosition?)] = [
            ("lisbon-1.jpg", GPSPosition(latitude: 38.7223, longitude: -9.1393)),
            ("lisbon-2.jpg", GPSPosition(latitude: 38.7100, longitude: -9.1400)),
            ("brno.jpg", GPSPosition(latitude: 49.1989, longitude: 16.6071)),
            ("home.jpg", GPSPosition(latitude: 52.5205, longitude: 13.4060)),
            ("nowhere.jpg", nil),
        ]
        for (number, (name, position)) in photos.enumerated() {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: "2023:05:1\(number) 10:00:00")
            exif.gps = position
            let jpeg = try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: number * 7), exif: exif)
            try FileSystem.writeAtomically(jpeg, to: FilePath(directory.appending("photos/Trip/\(name)")))
        }
        let index = try PhotoIndex(path: configuration.index)
        try AlbumBuilderTests.scan(configuration, index)
        return (configuration, index)
    }

    @Test func placesMapAndViewerShowWhereAndNotAPrivatePosition() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        try #require(
            FileManager.default.fileExists(atPath: binaries.appendingPathComponent("places.bin").path),
            "places.bin is not installed beside the tests: scripts/install-places.sh")
        let (configuration, index) = try Self.library(in: directory)
        let site = directory.appending("site")
        var options = AlbumBuilder.Options(output: FilePath(site))
        options.privateZones = [Self.home]
        let summary = try AlbumBuilder(index: index, options: options).build()
        #expect(summary.mapped == 3 && summary.placesShown == 4)

        // Places: the countries, most photos first, each a page of its regions and photos.
        let list = try String(contentsOfFile: site + "/places.html", encoding: .utf8)
        let names = list.matches(of: /class="name">([^<]*)</).map { String($0.output.1) }
        #expect(names == ["Portugal", "Czechia", "Germany"], "\(names)")
        #expect(list.contains("4 photos with a place, in 3 countries") && list.contains("GeoNames"))
        let portugal = try String(
            contentsOfFile: site + "/places/" + placeFolder(list, "Portugal") + "/index.html", encoding: .utf8)
        #expect(portugal.contains("<h2>Places</h2>") && portugal.contains("2 photos"))

        // The viewer: the place in words; the position, linked to the site's own map, but at home.
        let text = try AlbumBuilderTests.siteText(site)
        #expect(!text.contains("openstreetmap.org/?"))
        let data = try String(contentsOfFile: site + "/albums/" + albumFolder(site) + "/photos.js", encoding: .utf8)
        #expect(data.contains("\"Lisbon, Lisbon, Portugal\""), "\(data)")
        #expect(data.contains("\"at\":[38.7223,-9.1393]"))
        #expect(data.contains("\"Berlin, State of Berlin, Germany\""))
        #expect(!data.contains("52.5205") && !data.contains("13.406"))
        // The album's own map, under its photos, drawn from that data.
        let album = try String(
            contentsOfFile: site + "/albums/" + albumFolder(site) + "/index.html", encoding: .utf8)
        #expect(album.contains("<section class=\"album-map\">"))

        // The map: three photos (none at home), every zoom counting all three.
        let map = try String(contentsOfFile: site + "/map/index.js", encoding: .utf8)
        #expect(map.contains("\"photos\":3"))
        for zoom in [0, 9, 16] {
            var total = 0
            for file in try FileManager.default.contentsOfDirectory(atPath: site + "/map/\(zoom)") {
                let chunk = try String(contentsOfFile: site + "/map/\(zoom)/" + file, encoding: .utf8)
                for line in chunk.split(separator: "\n") where line.hasPrefix("[") {
                    total += Int(line.split(separator: ",")[2]) ?? 0
                    #expect(!line.hasPrefix("[52.5"), "a private position on the map: \(line)")
                }
            }
            #expect(total == 3, "zoom \(zoom)")
        }

        // Unchanged: nothing is written again; one more photo in Lisbon: Portugal counts three.
        let before = try AlbumBuilderTests.stamps(of: site)
        _ = try AlbumBuilder(index: index, options: options).build()
        #expect(try AlbumBuilderTests.stamps(of: site) == before)
        var exif = ExifBuilder()
        exif.gps = GPSPosition(latitude: 38.7000, longitude: -9.1500)
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: 99), exif: exif),
            to: FilePath(directory.appending("photos/Trip/lisbon-3.jpg")))
        try AlbumBuilderTests.scan(configuration, index)
        let again = try AlbumBuilder(index: index, options: options).build()
        // (the map's files of Brno's area are left as they were)
        let after = try AlbumBuilderTests.stamps(of: site)
        let brno = try FileManager.default.contentsOfDirectory(atPath: site + "/map/16").filter {
            try String(contentsOfFile: site + "/map/16/" + $0, encoding: .utf8).contains("[49.19")
        }
        #expect(brno.count == 1 && brno.allSatisfy { after["map/16/" + $0] == before["map/16/" + $0] }, "\(brno)")
        #expect(again.mapped == 4 && again.placesShown == 5)
        #expect(try String(contentsOfFile: site + "/places.html", encoding: .utf8).contains("3 photos"))
    }

    private func placeFolder(_ list: String, _ name: String) throws -> String {
        let match = try #require(
            list.matches(of: /href="places\/([^"\/]+)\/index.html" title="([^"]*)"/).first { $0.output.2 == name })
        return String(match.output.1)
    }

    private func albumFolder(_ site: String) throws -> String {
        try #require(try FileManager.default.contentsOfDirectory(atPath: site + "/albums").first { !$0.hasPrefix(".") })
    }
}
