import Foundation
import SystemPackage
import TesseraFacts
import TesseraTestSupport
import Testing

@testable import TesseraPlaces

/// Place names from positions, on the GeoNames data the README's commands install
/// (scripts/install-places.sh puts `places.bin` beside the test binary, as beside `tessera`).
struct PlaceFinderTests {
    static let finder: PlaceFinder? = {
        let executable = FilePath(CommandLine.arguments[0])
        return try? PlaceFinder.installed(environment: [:], executable: executable).get()
    }()

    private func name(_ latitude: Double, _ longitude: Double) throws -> PlaceName? {
        let finder = try #require(
            Self.finder, "places.bin is not installed beside the tests: scripts/install-places.sh")
        return finder.name(GPSPosition(latitude: latitude, longitude: longitude))
    }

    /// Capitals and a village of 779 people (in cities500, not cities1000), each in its own
    /// region and country, by the names GeoNames gives in English.
    @Test(arguments: [
        (38.7223, -9.1393, "Lisbon", "Portugal"), (52.5200, 13.4050, "Berlin", "Germany"),
        (35.6895, 139.6917, "Tokyo", "Japan"), (-33.8688, 151.2093, "Sydney", "Australia"),
        (47.5622, 13.6493, "Hallstatt", "Austria"), (49.1989, 16.6071, "Brno", "Czechia"),
    ])
    func townsAreNamedInEnglish(latitude: Double, longitude: Double, town: String, country: String) throws {
        let place = try #require(try name(latitude, longitude))
        #expect(place.locality == town && place.country == country && !place.near, "\(place.text)")
        #expect(place.region != nil, "\(place.text)")
        if town == "Lisbon" {
            // Found by its other names, never shown under them.
            #expect(place.searchKeys.contains("|lisboa|") && place.searchKeys.contains("|lissabon|"))
            #expect(!place.text.contains("Lisboa"))
        }
    }

    /// A district GeoNames lists as a place of its own is named for the city it is part of, and a
    /// town beyond the city's reach for itself.
    @Test func aDistrictIsNamedForItsCityAndATownBeyondItForItself() throws {
        // Steglitz (Berlin), Penge (London), then Watford and Potsdam.
        #expect(try name(52.4597, 13.3220)?.locality == "Berlin")
        #expect(try name(51.4169, -0.0806)?.locality == "London")
        #expect(try name(51.6553, -0.3960)?.locality == "Watford")
        #expect(try name(52.3906, 13.0645)?.locality == "Potsdam")
    }

    /// At sea or in the wilderness: near the closest place, with the distance; in mid-ocean and
    /// at the poles, no place.
    @Test func farFromEveryPlaceIsNearOneOrNone() throws {
        let offshore = try #require(try name(43.40, -9.70))
        #expect(offshore.near && offshore.countryCode == "ES" && (offshore.distance ?? 0) > 5, "\(offshore.text)")
        #expect(offshore.text.hasPrefix("near "))
        #expect(try name(40.0, -40.0) == nil)
        #expect(try name(90, 0) == nil)
        #expect(try name(-90, 123) == nil)
    }

    /// Places across the antimeridian are found: Fiji's islands and Chukotka lie on both sides.
    @Test func theAntimeridianIsCrossed() throws {
        let fiji = try #require(try name(-16.90, -179.90))
        #expect(fiji.countryCode == "FJ" && (fiji.distance ?? .infinity) < 120, "\(fiji.text)")
        let chukotka = try #require(try name(66.30, 179.90))
        #expect(chukotka.countryCode == "RU" && chukotka.locality == "Egvekinot", "\(chukotka.text)")
    }

    @Test(arguments: [(Double.nan, 0.0), (0, .nan), (91, 0), (-90.5, 0), (0, 180.5), (.infinity, 0)])
    func aPositionOutOfRangeHasNoPlace(latitude: Double, longitude: Double) throws {
        #expect(try name(latitude, longitude) == nil)
    }

    /// A foreign or cut file is refused with the reason (the damaged one rather than one missing
    /// before it); nothing is read outside it.
    @Test func aDamagedLookupFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let installed = try #require(Self.finder?.table.path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: installed.string))
        let cut = directory.appending("places.bin"), foreign = directory.appending("foreign.bin")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        try Data("not a place file at all, but long enough to hold a header".utf8).write(
            to: URL(fileURLWithPath: foreign))
        #expect(throws: PlaceTableError.self) { try PlaceTable(path: FilePath(cut)) }
        #expect(throws: PlaceTableError.self) { try PlaceTable(path: FilePath(foreign)) }
        let missing = PlaceFinder.installed(environment: [:], executable: FilePath(directory.appending("tessera")))
        guard case .failure(let error) = missing else {
            Issue.record("a place file was found where none is")
            return
        }
        #expect(error.description.hasSuffix("is cut short or too long (\(bytes.count / 2) bytes)"))
    }
}
