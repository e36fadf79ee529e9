/// A place a user gives a folder or a photo in the configuration, over what the files say:
/// the words to name it by, or a position to name it from (docs/PLACES.md).
public struct PlaceCorrection: Sendable, Equatable, Codable {
    public enum Scope: Sendable, Equatable, Codable {
        /// A folder relative to a root, as albums are named ("Trips/Lisbon"): it and the folders below.
        case folder(String)
        /// One photo, relative to a root.
        case photo(String)
    }

    public var scope: Scope
    public var words: LocationWords?
    public var position: GPSPosition?

    public init(scope: Scope, words: LocationWords?, position: GPSPosition?) {
        (self.scope, self.words, self.position) = (scope, words, position)
    }
}

/// A circle whose photos show no position and no place finer than their town in the site; the
/// index keeps what the photos say (docs/PLACES.md).
public struct PrivateZone: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var radiusKilometres: Double

    public init(latitude: Double, longitude: Double, radiusKilometres: Double) {
        (self.latitude, self.longitude, self.radiusKilometres) = (latitude, longitude, radiusKilometres)
    }

    /// Whether `position` lies in it (on the sphere: a zone may straddle the antimeridian).
    public func contains(_ position: GPSPosition) -> Bool {
        GPSPosition.kilometres(from: (latitude, longitude), to: (position.latitude, position.longitude))
            <= radiusKilometres
    }
}

/// What a photo's place is named from: its position, its words, and its path (for corrections).
public struct PlaceEvidence: Sendable {
    public var position: GPSPosition?
    public var words: LocationWords?
    /// The photo's path as text.
    public var path: String

    public init(position: GPSPosition?, words: LocationWords?, path: String) {
        (self.position, self.words, self.path) = (position, words, path)
    }
}
