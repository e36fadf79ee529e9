public import SystemPackage
public import TesseraFacts

/// Names a photo's place from everything that says where it was (docs/PLACES.md): a correction
/// in the configuration, else the photo's own location words, completed from the place its
/// position names where they agree with it, else the place its position names.
public struct PlaceNamer: Sendable {
    /// The place data, or why there is none (then only words and corrections name places).
    public let data: Result<PlaceFinder, PlaceTableError>
    private let corrections: [(path: String, folder: Bool, correction: PlaceCorrection)]
    /// The data's countries by code and by `PlaceName.searchKey` of name.
    private let countriesByCode: [String: String]
    private let countriesByName: [String: (name: String, code: String)]

    /// - Parameter roots: the library's roots, which corrections' folders and photos are relative to.
    public init(data: Result<PlaceFinder, PlaceTableError>, corrections: [PlaceCorrection], roots: [FilePath]) {
        self.data = data
        var byCode: [String: String] = [:], byName: [String: (name: String, code: String)] = [:]
        if case .success(let finder) = data {
            for index in 0..<finder.table.countryCount {
                guard let country = finder.table.country(index) else { continue }
                byCode[country.code] = country.name
                byName[PlaceName.searchKey(country.name)] = country
            }
        }
        (countriesByCode, countriesByName) = (byCode, byName)
        self.corrections = corrections.flatMap { correction in
            roots.map { root in
                switch correction.scope {
                case .folder(let folder):
                    (folder.isEmpty ? root.string : root.appending(folder).string, true, correction)
                case .photo(let photo): (root.appending(photo).string, false, correction)
                }
            }
        }
    }

    /// What the places it names depend on: the data's rules and size, and the corrections.
    ///
    /// When it changes, the index names every photo's place again.
    public var identity: String {
        let data = (try? self.data.get().identity) ?? "no place data"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a over the corrections as configured
        for byte in corrections.map({ "\($0.path)\u{1F}\($0.correction)" }).joined(separator: "\u{1E}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\(data); words 1; \(corrections.count) corrections \(String(hash, radix: 16))"
    }

    /// The photo's place; nil when nothing names one.
    public func place(_ evidence: PlaceEvidence) -> PlaceName? {
        let correction = self.correction(of: evidence.path)
        let position = correction?.position ?? evidence.position
        // (a correction's position is the whole of it: the file's words may be what it corrects)
        let words = correction != nil ? correction?.words : evidence.words
        let finder = try? data.get()
        var named = position.flatMap { finder?.name($0) }
        if correction != nil { named?.source = .correction }
        guard let words else { return named }
        return place(words, named: named, source: correction != nil ? .correction : .words)
    }

    /// The correction that covers `path`: its photo's, else its nearest folder's.
    private func correction(of path: String) -> PlaceCorrection? {
        guard !corrections.isEmpty else { return nil }
        if let photo = corrections.first(where: { !$0.folder && $0.path == path }) { return photo.correction }
        return corrections.filter { $0.folder && path.hasPrefix($0.path + "/") }
            .max { $0.path.count < $1.path.count }?.correction
    }

    /// The place the words name: what they say wins, and what they leave out comes from the
    /// place the position names when that place is in their country (and town, for its region).
    private func place(_ words: LocationWords, named: PlaceName?, source: PlaceName.Source) -> PlaceName {
        var country: (name: String, code: String)?
        if let code = words.countryCode?.uppercased(), let name = countriesByCode[code] {
            country = (name, code)
        } else if let name = words.country {
            country = countriesByName[PlaceName.searchKey(name)] ?? (name, Self.alpha2(words.countryCode))
        }
        let inCountry = named.map { named in country.map { $0.code == named.countryCode } ?? true } ?? false
        var inTown = inCountry
        if inCountry, let city = words.city {
            inTown = named?.locality.map { PlaceName.searchKey($0) == PlaceName.searchKey(city) } ?? false
        }
        let agreed = inCountry ? named : nil
        var place = PlaceName(
            country: country?.name ?? agreed?.country ?? "", countryCode: country?.code ?? agreed?.countryCode ?? "",
            region: words.region ?? (inTown ? agreed?.region : nil), locality: words.city ?? agreed?.locality,
            near: inTown ? agreed?.near ?? false : false, distance: inTown ? agreed?.distance : nil,
            sublocation: words.sublocation, source: source)
        if inTown { place.alternateNames = agreed?.alternateNames ?? [] }
        return place
    }

    /// An ISO 3166-1 alpha-2 code as given, or empty for anything else ("PRT" is not one).
    private static func alpha2(_ code: String?) -> String {
        guard let code = code?.uppercased(), code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return ""
        }
        return code
    }
}
