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
        "rules 2 (reach 0.0015 km × population^0.6, at least 1.5 km; 60 km, 300 km; alternate names); "
            + "\(table.placeCount) places, \(table.byteCount) bytes"
    }

    /// How far from its centre a place of `population` covers, in kilometres.
    public static func reach(population: Int) -> Double {
        // (0.0015 × 100,000^0.6 is 1.5: most places are smaller, and need no power)
        population <= 100_000 ? 1.5 : 0.0015 * pow(Double(population), 0.6)
    }

    /// The place of `position`; nil for a position out of range or far from every place.
    public func name(_ position: GPSPosition) -> PlaceName? {
        let (latitude, longitude) = (position.latitude, position.longitude)
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        var covering: (index: Int, place: PlaceTable.Place, distance: Double)?
        var closest: (index: Int, place: PlaceTable.Place, distance: Double, score: Double)?
        // (a place further than its reach times the best score so far can be neither)
        let beyond = { (distance: Double, population: Int) in
            distance > Self.reach(population: population) * max(1, closest?.score ?? .infinity)
        }
        forEachPlace(within: Self.searchRadius, of: latitude, longitude, beyond: beyond) { index, place, distance in
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
        forEachPlace(
            within: Self.farRadius, of: latitude, longitude,
            beyond: { distance, _ in distance > far?.distance ?? .infinity }
        ) { index, place, distance in
            if far.map({ (distance, index) < ($0.distance, $0.index) }) ?? true { far = (index, place, distance) }
        }
        return far.flatMap { name($0.place, near: true, distance: $0.distance) }
    }

    private func name(_ place: PlaceTable.Place, near: Bool, distance: Double) -> PlaceName? {
        guard let country = table.country(place.country), let locality = table.string(place.name) else { return nil }
        var name = PlaceName(
            country: country.name, countryCode: country.code, region: place.region.flatMap(table.region),
            locality: locality, near: near, distance: distance)
        name.alternateNames =
            place.alternates.flatMap(table.string)?.split(separator: "\u{1F}").map(String.init) ?? []
        return name
    }

    /// Calls `body` with each place within `radius` km of the position, and its distance, but
    /// those `beyond` says cannot matter.
    ///
    /// The cells are visited nearest first, and a cell's places most populous first: `beyond`,
    /// given a distance no place of the cell is nearer than and a place's population, ends the
    /// cell when it says true (it must say true of every smaller place at that distance too).
    private func forEachPlace(
        within radius: Double, of latitude: Double, _ longitude: Double,
        beyond: (_ distance: Double, _ population: Int) -> Bool,
        _ body: (Int, PlaceTable.Place, Double) -> Void
    ) {
        let cosine = cos(latitude * Self.radians)
        for cell in cells(within: radius, of: latitude, longitude) {
            for index in table.places(row: cell.row, column: cell.column) {
                if beyond(cell.nearest, table.population(index)) { break }
                // (a box first: most places of a cell are out of reach)
                let (placeLatitude, placeLongitude) = table.position(index)
                guard abs(placeLatitude - latitude) <= cell.latitudeSpan else { continue }
                if let span = cell.longitudeSpan {
                    let apart = abs(placeLongitude - longitude)
                    guard min(apart, 360 - apart) <= span else { continue }
                }
                let distance = Self.distance(latitude, longitude, cosine: cosine, placeLatitude, placeLongitude)
                if distance <= radius { body(index, table.place(index), distance) }
            }
        }
    }

    /// A cell within reach of a position: how near to it any of its places can be (km), and the
    /// degrees of latitude and longitude (nil: any) a place within the radius is from it.
    private struct Cell {
        var row: Int, column: Int
        var nearest: Double
        var latitudeSpan: Double
        var longitudeSpan: Double?
    }

    /// The cells within `radius` km of the position, nearest first.
    private func cells(within radius: Double, of latitude: Double, _ longitude: Double) -> [Cell] {
        let size = PlaceTable.cellDegrees
        let spread = radius / Self.kilometresPerDegree
        let south = max(0, Int(((latitude - spread + 90) / size).rounded(.down)))
        let north = min(PlaceTable.rows - 1, Int(((latitude + spread + 90) / size).rounded(.down)))
        guard south <= north else { return [] }
        var found: [Cell] = []
        for row in south...north {
            let (bottom, top) = (Double(row) * size - 90, Double(row + 1) * size - 90)
            // (the latitude, of the row's and the position's, nearest a pole: where a degree of
            // longitude is shortest)
            let polar = max(abs(bottom), abs(top), abs(latitude))
            let width = cos(min(polar, 90) * Self.radians) * Self.kilometresPerDegree
            let span = width <= 0 || radius / width >= 180 ? nil : radius / width
            let rowGap = max(0, bottom - latitude, latitude - top) * Self.kilometresPerDegree
            guard let span else {
                found += (0..<PlaceTable.columns).map {
                    Cell(row: row, column: $0, nearest: rowGap, latitudeSpan: spread, longitudeSpan: nil)
                }
                continue
            }
            let west = Int(((longitude - span + 180) / size).rounded(.down))
            let east = Int(((longitude + span + 180) / size).rounded(.down))
            for unwrapped in west...min(east, west + PlaceTable.columns - 1) {
                let column = (unwrapped % PlaceTable.columns + PlaceTable.columns) % PlaceTable.columns
                let left = Double(unwrapped) * size - 180
                let columnGap = max(0, left - longitude, longitude - (left + size))
                // (along the parallel nearest the pole: below 70°, within 2 % of the great circle)
                let nearest = polar < 70 ? max(rowGap, 0.98 * columnGap * width) : rowGap
                found.append(
                    Cell(row: row, column: column, nearest: nearest, latitudeSpan: spread, longitudeSpan: span))
            }
        }
        return found.sorted { $0.nearest < $1.nearest }
    }

    private static let kilometresPerDegree = 111.195
    private static let earthRadius = 6_371.0

    private static let radians = Double.pi / 180

    /// Kilometres between two positions on the sphere (the haversine formula); `cosine` is
    /// that of the first's latitude.
    ///
    /// Below 70° of latitude, the equirectangular approximation is
    /// within 0.4 % of it within 60 km and 1 % within 300 km, at a fraction of the cost (no
    /// trigonometry for each place).
    private static func distance(
        _ lat1: Double, _ lon1: Double, cosine: Double, _ lat2: Double, _ lon2: Double
    ) -> Double {
        var apart = abs(lon2 - lon1)
        if apart > 180 { apart = 360 - apart }
        if abs(lat1) < 70 && abs(lat2) < 70 {
            let x = apart * cosine, y = lat2 - lat1
            return (x * x + y * y).squareRoot() * radians * earthRadius
        }
        let dLat = (lat2 - lat1) * radians / 2, dLon = apart * radians / 2
        let h = sin(dLat) * sin(dLat) + cosine * cos(lat2 * radians) * sin(dLon) * sin(dLon)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
