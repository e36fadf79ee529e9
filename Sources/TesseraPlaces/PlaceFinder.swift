import Glibc
public import SystemPackage
public import TesseraFacts

/// Names the place of a position, offline, from the mapped `PlaceTable` (docs/PLACES.md).
///
/// A populated place covers the ground within its *reach* of its centre, which grows with its
/// population (`reach(population:)`: about 22 km for London, 12 for Berlin, 1.5 for a village).
/// A position is named for the most populous place that covers it, so a photo taken in a
/// district of a city is named for the city, not for the district GeoNames also lists; one in a
/// town beyond a city's reach, for the town. A position no place covers is "near" the place whose
/// reach it is closest to (its distance over its reach), within `searchRadius`; further out, near
/// the closest place within `farRadius` (at sea, in the wilderness); beyond that it has no place.
/// Distances are on the sphere, across the antimeridian and the poles.
public struct PlaceFinder: Sendable {
    public let table: PlaceTable

    /// Kilometres around a position searched for the places that may cover it.
    public static let searchRadius = 60.0
    /// Kilometres around a position no place covers searched for the closest place.
    public static let farRadius = 300.0

    public init(table: PlaceTable) {
        self.table = table
    }

    /// Where the place lookup file is looked for: `$TESSERA_PLACES` alone when set; else `places.bin`
    /// beside the executable (where scripts/install-places.sh puts it for a build), then
    /// `../share/tessera/places.bin` from the executable's folder (where scripts/install.sh
    /// puts it: /usr/local or ~/.local), then `/usr/share/tessera/places.bin`.
    public static func installedPaths(environment: [String: String], executable: FilePath?) -> [FilePath] {
        // (a file named is the one used, or none)
        if let named = environment["TESSERA_PLACES"], !named.isEmpty { return [FilePath(named)] }
        var paths: [FilePath] = []
        if let folder = executable?.removingLastComponent() {
            paths.append(folder.appending("places.bin"))
            paths.append(folder.removingLastComponent().appending(["share", "tessera", "places.bin"]))
        }
        return paths + [FilePath("/usr/share/tessera/places.bin")]
    }

    /// The finder over the first installed lookup file, or why there is none.
    public static func installed(
        environment: [String: String], executable: FilePath?
    ) -> Result<PlaceFinder, PlaceTableError> {
        var firstError: PlaceTableError?
        for path in installedPaths(environment: environment, executable: executable) {
            do {
                return .success(PlaceFinder(table: try PlaceTable(path: path)))
            } catch {
                // (a file that is there but damaged is what to report; else the first looked for)
                if firstError == nil || error.reason != "not installed" && firstError?.reason == "not installed" {
                    firstError = error
                }
            }
        }
        return .failure(firstError ?? PlaceTableError(path: "places.bin", "not installed"))
    }

    /// What the places it names depend on: its rules and its data.
    ///
    /// When it changes, the index names every photo's place again.
    public var identity: String {
        "rules 1 (reach 0.0015 km × population^0.6, at least 1.5 km; 60 km, 300 km); "
            + "\(table.placeCount) places, \(table.byteCount) bytes"
    }

    /// How far from its centre a place of `population` covers, in kilometres.
    public static func reach(population: Int) -> Double {
        max(1.5, 0.0015 * pow(Double(max(population, 0)), 0.6))
    }

    /// The place of `position`; nil for a position out of range or far from every place.
    public func name(_ position: GPSPosition) -> PlaceName? {
        let (latitude, longitude) = (position.latitude, position.longitude)
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        var covering: (index: Int, place: PlaceTable.Place, distance: Double)?
        var closest: (index: Int, place: PlaceTable.Place, distance: Double, score: Double)?
        forEachPlace(within: Self.searchRadius, of: latitude, longitude) { index, place, distance in
            let reach = Self.reach(population: place.population)
            if distance <= reach,
                covering.map({ (place.population, -index) > ($0.place.population, -$0.index) }) ?? true
            {
                covering = (index, place, distance)
            }
            let score = distance / reach
            if closest.map({ (score, index) < ($0.score, $0.index) }) ?? true {
                closest = (index, place, distance, score)
            }
        }
        if let covering { return name(covering.place, near: false, distance: covering.distance) }
        if let closest { return name(closest.place, near: true, distance: closest.distance) }
        var far: (index: Int, place: PlaceTable.Place, distance: Double)?
        forEachPlace(within: Self.farRadius, of: latitude, longitude) { index, place, distance in
            if far.map({ (distance, index) < ($0.distance, $0.index) }) ?? true { far = (index, place, distance) }
        }
        return far.flatMap { name($0.place, near: true, distance: $0.distance) }
    }

    private func name(_ place: PlaceTable.Place, near: Bool, distance: Double) -> PlaceName? {
        guard let country = table.country(place.country), let locality = table.string(place.name) else { return nil }
        return PlaceName(
            country: country.name, countryCode: country.code, region: place.region.flatMap(table.region),
            locality: locality, near: near, distance: distance)
    }

    /// Calls `body` with each place within `radius` km of the position, and its distance.
    private func forEachPlace(
        within radius: Double, of latitude: Double, _ longitude: Double,
        _ body: (Int, PlaceTable.Place, Double) -> Void
    ) {
        let spread = radius / Self.kilometresPerDegree
        let south = max(0, Int((latitude - spread + 90).rounded(.down)))
        let north = min(PlaceTable.rows - 1, Int((latitude + spread + 90).rounded(.down)))
        guard south <= north else { return }
        for row in south...north {
            // (the row's edge nearer the pole, where a degree of longitude is shortest)
            let edge = max(abs(Double(row) - 90), abs(Double(row + 1) - 90))
            let width = cos(min(edge, 90) * .pi / 180) * Self.kilometresPerDegree
            let columns: [Int]
            if width <= 0 || radius / width >= 180 {
                columns = Array(0..<PlaceTable.columns)
            } else {
                let span = radius / width
                let west = Int((longitude - span + 180).rounded(.down))
                let east = Int((longitude + span + 180).rounded(.down))
                columns = (west...east).map { ($0 % PlaceTable.columns + PlaceTable.columns) % PlaceTable.columns }
            }
            for column in Set(columns) {
                for index in table.places(row: row, column: column) {
                    let place = table.place(index)
                    let distance = Self.distance(latitude, longitude, place.latitude, place.longitude)
                    if distance <= radius { body(index, place, distance) }
                }
            }
        }
    }

    private static let kilometresPerDegree = 111.195
    private static let earthRadius = 6_371.0

    /// Kilometres between two positions on the sphere (the haversine formula).
    public static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians / 2, dLon = (lon2 - lon1) * radians / 2
        let h = sin(dLat) * sin(dLat) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon) * sin(dLon)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
