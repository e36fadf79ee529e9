import SystemPackage
import TesseraFacts
import Testing

@testable import TesseraPlaces

/// A photo's place from all that says where it was (docs/PLACES.md): corrections, then the
/// photo's words, completed from its position only where they agree, then the position.
struct PlaceNamerTests {
    private static let roots: [FilePath] = ["/photos", "/more"]

    private func namer(_ corrections: [PlaceCorrection] = []) throws -> PlaceNamer {
        let finder = try #require(
            PlaceFinderTests.finder, "places.bin is not installed beside the tests: scripts/install-places.sh")
        return PlaceNamer(data: .success(finder), corrections: corrections, roots: Self.roots)
    }

    private static let brno = GPSPosition(latitude: 49.1989, longitude: 16.6071)

    @Test func wordsThatAgreeWithThePositionKeepItsRegionAndDistance() throws {
        let place = try #require(
            try namer().place(
                PlaceEvidence(
                    position: Self.brno, words: LocationWords(city: "BRNO", sublocation: "Špilberk"), path: "/p/1.jpg"))
        )
        #expect(place.locality == "BRNO" && place.region == "South Moravian" && place.countryCode == "CZ")
        #expect(place.source == .words && place.distance != nil && place.sublocation == "Špilberk")
        #expect(place.text == "Špilberk, BRNO, South Moravian, Czechia")
    }

    /// The words win: another town keeps none of the position's region; another country none of it.
    @Test func wordsThatDisagreeWinAlone() throws {
        let town = try #require(
            try namer().place(
                PlaceEvidence(position: Self.brno, words: LocationWords(city: "Olomouc"), path: "/p/1.jpg")))
        #expect(town.locality == "Olomouc" && town.region == nil && town.country == "Czechia" && town.distance == nil)
        let country = try #require(
            try namer().place(
                PlaceEvidence(
                    position: Self.brno, words: LocationWords(city: "Vienna", country: "austria"), path: "/p/1.jpg")))
        #expect(country.country == "Austria" && country.countryCode == "AT" && country.region == nil)
    }

    /// Without a position: a country by its code or its English name; an alpha-3 code or a name the
    /// data does not know stays as written, with no code.
    @Test func wordsAloneNameAPlace() throws {
        let namer = try namer()
        let coded = namer.place(PlaceEvidence(position: nil, words: LocationWords(countryCode: "pt"), path: "/x"))
        #expect(coded?.country == "Portugal" && coded?.locality == nil && coded?.text == "Portugal")
        let unknown = namer.place(
            PlaceEvidence(
                position: nil, words: LocationWords(city: "Shimizu", country: "Nippon", countryCode: "JPN"), path: "/x")
        )
        #expect(unknown?.country == "Nippon" && unknown?.countryCode == "" && unknown?.locality == "Shimizu")
        #expect(namer.place(PlaceEvidence(position: nil, words: nil, path: "/x")) == nil)
    }

    /// A folder's correction covers the folders below it under every root; a photo's wins over its
    /// folder's, a deeper folder's over a shallower; a correction by position is named from it.
    @Test func correctionsWinByScope() throws {
        let namer = try namer([
            PlaceCorrection(scope: .folder("Trips"), words: LocationWords(country: "Portugal"), position: nil),
            PlaceCorrection(
                scope: .folder("Trips/Lisbon"), words: LocationWords(city: "Lisbon", countryCode: "PT"), position: nil),
            PlaceCorrection(scope: .photo("Trips/Lisbon/porto.jpg"), words: nil, position: Self.brno),
        ])
        let photo = { (path: String) in
            namer.place(PlaceEvidence(position: nil, words: LocationWords(city: "Paris"), path: path))
        }
        #expect(photo("/photos/Trips/a.jpg")?.country == "Portugal")
        #expect(photo("/more/Trips/Lisbon/2019/b.jpg")?.locality == "Lisbon")
        #expect(photo("/photos/Trips/Lisbon/porto.jpg")?.locality == "Brno")
        #expect(photo("/photos/Trips/Lisbon/porto.jpg")?.source == .correction)
        #expect(photo("/photos/TripsAndMore/c.jpg")?.locality == "Paris")
        #expect(photo("/photos/TripsAndMore/c.jpg")?.source == .words)
        #expect(namer.identity != (try self.namer().identity))
    }
}
