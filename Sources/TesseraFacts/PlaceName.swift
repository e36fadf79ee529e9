import Foundation
import TesseraSystem

/// Where a photo was taken, in words: the country, its region (state, province) and the
/// populated place people would name, from the position (docs/PLACES.md).
public struct PlaceName: Sendable, Equatable, Codable {
    public var country: String
    /// ISO 3166-1 alpha-2, such as "PT".
    public var countryCode: String
    public var region: String?
    /// The town, village or city; "near" it when the position is outside it.
    public var locality: String
    /// Whether the position lies outside the locality, `distance` away from its centre.
    public var near: Bool
    /// Kilometres from the locality's centre, as GeoNames places it.
    public var distance: Double

    public init(
        country: String, countryCode: String, region: String?, locality: String, near: Bool, distance: Double
    ) {
        (self.country, self.countryCode, self.region) = (country, countryCode, region)
        (self.locality, self.near, self.distance) = (locality, near, distance)
    }

    /// What a search for a place compares: `text` in lower case without accents ("Petaẖ Tiqva"
    /// and "petah tiqva" are the same).
    public static func searchKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }

    /// The keys a search finds it by: its locality, region, country and country code, each
    /// between bars ("|lisbon|lisbon|portugal|pt|").
    public var searchKeys: String {
        "|" + ([locality, region, country, countryCode].compactMap { $0.map(Self.searchKey) }).joined(separator: "|")
            + "|"
    }

    /// "Hallstatt, Upper Austria, Austria"; "near Gosau (12 km), Upper Austria, Austria".
    public var text: String {
        let town = near ? "near \(locality) (\(Wording.number(distance, decimals: 0)) km)" : locality
        return ([town] + [region, country].compactMap { $0 }).joined(separator: ", ")
    }
}
