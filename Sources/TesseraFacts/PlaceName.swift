import Foundation
import TesseraSystem

/// Where a photo was taken, in words: the country, its region (state, province) and the
/// populated place people would name (docs/PLACES.md).
public struct PlaceName: Sendable, Equatable, Codable {
    /// What decided a place: the place data from a position, the photo's own location words
    /// (completed from the position where they agree with it), or a correction in the configuration.
    public enum Source: String, Sendable, Codable, CaseIterable {
        case gps, words, correction
    }

    public var country: String
    /// ISO 3166-1 alpha-2, such as "PT"; empty when the words name a country the data does not know.
    public var countryCode: String
    public var region: String?
    /// The town, village or city; "near" it when the position is outside it.
    ///
    /// Nil when only words name the place, and they name no town.
    public var locality: String?
    /// Whether the position lies outside the locality, `distance` away from its centre.
    public var near: Bool
    /// Kilometres from the locality's centre, as GeoNames places it; nil when no position decided it.
    public var distance: Double?
    /// A spot within the locality the photo's words name ("Eiffel Tower"): the photo's, not the place's.
    public var sublocation: String?
    public var source: Source
    /// The locality's other names the data has ("Lisboa", "Lissabon"): found by a search, never
    /// shown (nor encoded).
    public var alternateNames: [String] = []

    private enum CodingKeys: String, CodingKey {
        case country, countryCode, region, locality, near, distance, sublocation, source
    }

    public init(
        country: String, countryCode: String, region: String?, locality: String?, near: Bool = false,
        distance: Double?, sublocation: String? = nil, source: Source = .gps
    ) {
        (self.country, self.countryCode, self.region) = (country, countryCode, region)
        (self.locality, self.near, self.distance) = (locality, near, distance)
        (self.sublocation, self.source) = (sublocation, source)
    }

    /// What a search for a place compares: `text` in lower case without accents ("Petaẖ Tiqva"
    /// and "petah tiqva" are the same).
    public static func searchKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }

    /// The keys a search finds it by: its locality, region, country and country code, each
    /// between bars, then the locality's other names ("|lisbon|lisbon|portugal|pt|lisboa|…|").
    public var searchKeys: String {
        let names = [locality, region, country, countryCode.isEmpty ? nil : countryCode].compactMap { $0 }
        var keys: [String] = []
        for key in (names + alternateNames).map(Self.searchKey) where !key.isEmpty && !keys.contains(key) {
            keys.append(key)
        }
        return "|" + keys.joined(separator: "|") + "|"
    }

    /// `old` keys with those of `new` it lacks: what a place is found by grows as photos name it.
    public static func mergedKeys(_ old: String, _ new: String) -> String {
        let missing = new.split(separator: "|").filter { !old.contains("|\($0)|") }
        return missing.isEmpty ? old : old + missing.joined(separator: "|") + "|"
    }

    /// The place with nothing finer than its town: no spot, no distance (a private zone's).
    public var town: PlaceName {
        PlaceName(
            country: country, countryCode: countryCode, region: region, locality: locality, distance: nil,
            source: source)
    }

    /// "Hallstatt, Upper Austria, Austria"; "near Gosau (12 km), Upper Austria, Austria";
    /// "Eiffel Tower, Paris, Île-de-France, France".
    public var text: String {
        let town = locality.map { town in
            guard near, let distance else { return town }
            return "near \(town) (\(Wording.number(distance, decimals: 0)) km)"
        }
        return [sublocation, town, region, country].compactMap { $0 }.joined(separator: ", ")
    }
}

/// The words a photo's XMP gives for where it was taken (`photoshop:City`, `photoshop:State`,
/// `photoshop:Country`, `Iptc4xmpCore:CountryCode`, `Iptc4xmpCore:Location`, or the first
/// `Iptc4xmpExt:LocationShown`), or that a correction gives.
public struct LocationWords: Sendable, Equatable, Codable {
    public var city: String?
    public var region: String?
    public var country: String?
    public var countryCode: String?
    public var sublocation: String?

    public init(
        city: String? = nil, region: String? = nil, country: String? = nil, countryCode: String? = nil,
        sublocation: String? = nil
    ) {
        (self.city, self.region, self.country) = (city, region, country)
        (self.countryCode, self.sublocation) = (countryCode, sublocation)
    }

    /// Nil when it says nothing.
    public var nonEmpty: LocationWords? {
        [city, region, country, countryCode, sublocation].allSatisfy { $0 == nil } ? nil : self
    }

    /// Each field of this, else of `other`.
    public func filling(from other: LocationWords?) -> LocationWords {
        guard let other else { return self }
        return LocationWords(
            city: city ?? other.city, region: region ?? other.region, country: country ?? other.country,
            countryCode: countryCode ?? other.countryCode, sublocation: sublocation ?? other.sublocation)
    }
}
