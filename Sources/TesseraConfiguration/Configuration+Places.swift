import Foundation
import SystemPackage
import TesseraFacts
import Yams

extension Configuration {
    /// The settings given as lists of mappings: place corrections, private zones and albums.
    mutating func applyLists(_ key: Key, _ value: Node, _ reader: KeyReader) throws(ConfigurationError) {
        let name = key.rawValue
        if key == .placeCorrections {
            placeCorrections = try reader.list(value, name).map { (item) throws(ConfigurationError) in
                try reader.placeCorrection(item, name)
            }
        } else if key == .privateAlbums {
            privateAlbums = try reader.list(value, name).map { (item) throws(ConfigurationError) in
                try reader.privateAlbum(item, name)
            }
        } else {
            privateZones = try reader.list(value, name).map { (item) throws(ConfigurationError) in
                try reader.privateZone(item, name)
            }
        }
    }
}

extension KeyReader {
    /// The keys of one `place_corrections` item.
    private enum CorrectionKey: String, CaseIterable {
        case folder, photo, city, region, country, countryCode = "country_code", location, latitude, longitude
    }

    /// The keys of one `private_albums` item.
    private enum PrivateAlbumKey: String, CaseIterable {
        case folder, passphraseFile = "passphrase_file"
    }

    /// The keys of one `private_zones` item.
    private enum ZoneKey: String, CaseIterable {
        case latitude, longitude, radiusKilometres = "radius_km"
    }

    /// One correction: `folder` or `photo` (relative to a root), and words (`city`, `region`,
    /// `country`, `country_code`, `location`) or a position (`latitude` and `longitude`).
    func placeCorrection(_ node: Node, _ key: String) throws(ConfigurationError) -> PlaceCorrection {
        var fields: [CorrectionKey: (String, Node)] = [:]
        for (name, value, item) in try items(node, key, CorrectionKey.self) {
            fields[name] = (try string(value, item), value)
        }
        let scope: PlaceCorrection.Scope
        switch (fields[.folder], fields[.photo]) {
        case (let folder?, nil): scope = .folder(Self.relative(folder.0))
        case (nil, let photo?): scope = .photo(Self.relative(photo.0))
        default:
            throw ConfigurationError(
                file: file, key: key, "each item needs `folder` or `photo` (one of them)", at: node.position)
        }
        let words = LocationWords(
            city: fields[.city]?.0, region: fields[.region]?.0, country: fields[.country]?.0,
            countryCode: fields[.countryCode]?.0.uppercased(), sublocation: fields[.location]?.0
        ).nonEmpty
        var position: GPSPosition?
        switch (fields[.latitude], fields[.longitude]) {
        case (nil, nil): break
        case (let latitude?, let longitude?):
            position = GPSPosition(
                latitude: try degrees(latitude.1, "\(key).latitude", limit: 90),
                longitude: try degrees(longitude.1, "\(key).longitude", limit: 180))
        default:
            throw ConfigurationError(file: file, key: key, "needs both `latitude` and `longitude`", at: node.position)
        }
        guard words != nil || position != nil else {
            throw ConfigurationError(
                file: file, key: key, "each item needs a place: city, region, country, or latitude and longitude",
                at: node.position)
        }
        return PlaceCorrection(scope: scope, words: words, position: position)
    }

    /// One zone: `latitude`, `longitude` and `radius_km`.
    func privateZone(_ node: Node, _ key: String) throws(ConfigurationError) -> PrivateZone {
        var values: [ZoneKey: Double] = [:]
        for (name, value, item) in try items(node, key, ZoneKey.self) {
            values[name] =
                switch name {
                case .latitude: try degrees(value, item, limit: 90)
                case .longitude: try degrees(value, item, limit: 180)
                case .radiusKilometres: try number(value, item, 0...1_000)
                }
        }
        guard let latitude = values[.latitude], let longitude = values[.longitude],
            let radius = values[.radiusKilometres]
        else {
            throw ConfigurationError(
                file: file, key: key, "each item needs latitude, longitude and radius_km", at: node.position)
        }
        return PrivateZone(latitude: latitude, longitude: longitude, radiusKilometres: radius)
    }

    /// One private album: `folder` (relative to a root; not the whole root) and `passphrase_file`
    /// (a path, or a list of paths: each passphrase opens it).
    func privateAlbum(_ node: Node, _ key: String) throws(ConfigurationError) -> PrivateAlbum {
        var (folder, files): (String?, [FilePath]) = (nil, [])
        for (name, value, item) in try items(node, key, PrivateAlbumKey.self) {
            switch name {
            case .folder:
                folder = Self.relative(try string(value, item))
                guard folder?.isEmpty == false else {
                    throw ConfigurationError(
                        file: file, key: item, "must name a folder inside a root", at: value.position)
                }
            case .passphraseFile:
                if case .sequence = value {
                    files = try list(value, item).map { (path) throws(ConfigurationError) in try self.path(path, item) }
                } else {
                    files = [try path(value, item)]
                }
            }
        }
        guard let folder, !files.isEmpty else {
            throw ConfigurationError(
                file: file, key: key, "each item needs `folder` and `passphrase_file`", at: node.position)
        }
        return PrivateAlbum(folder: folder, passphraseFiles: files)
    }

    /// The keys and values of a mapping item of the list `key`, each key one of `Keys`.
    private func items<Keys: CaseIterable & RawRepresentable<String> & Hashable>(
        _ node: Node, _ key: String, _ keys: Keys.Type
    ) throws(ConfigurationError) -> [(Keys, Node, String)] {
        guard case .mapping(let mapping) = node else { throw fail(key, "a list of mappings", node) }
        var found: [(Keys, Node, String)] = []
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? "\(keyNode)"
            guard let item = Keys(rawValue: name) else {
                throw ConfigurationError(
                    file: file, key: "\(key).\(name)",
                    "unknown key" + Configuration.suggestion(for: name, among: Keys.allCases.map(\.rawValue)),
                    at: keyNode.position)
            }
            found.append((item, value, "\(key).\(name)"))
        }
        return found
    }

    private func number(_ node: Node, _ key: String, _ range: ClosedRange<Double>) throws(ConfigurationError) -> Double
    {
        guard case .scalar = node, let value = node.float, value.isFinite else { throw fail(key, "a number", node) }
        guard range.contains(value) else {
            throw ConfigurationError(
                file: file, key: key, "must be between \(range.lowerBound) and \(range.upperBound)", at: node.position)
        }
        return value
    }

    private func degrees(_ node: Node, _ key: String, limit: Double) throws(ConfigurationError) -> Double {
        try number(node, key, -limit...limit)
    }

    /// A folder or photo as albums name it: without leading or trailing slashes.
    private static func relative(_ text: String) -> String {
        text.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }
}
