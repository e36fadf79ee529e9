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
