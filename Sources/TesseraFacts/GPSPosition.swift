import Foundation

/// A GPS position in decimal degrees; altitude in metres, negative below sea level.
public struct GPSPosition: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}

extension GPSPosition {
    /// Exactly 0°, 0°: what receivers without a fix and tools that write a zero record, never a
    /// photo's position (the Gulf of Guinea's "null island").
    public var isNullIsland: Bool { latitude == 0 && longitude == 0 }

    /// The great-circle distance between two points in kilometres (haversine, on a sphere of
    /// the Earth's mean radius).
    public static func kilometres(
        from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)
    ) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * radians, dLongitude = (b.longitude - a.longitude) * radians
        let h =
            sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * 6_371.0 * asin(min(1, h.squareRoot()))
    }
}
