import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraPlaces
import TesseraSystem

/// What names places: the lookup file the scan maps, and the location words and positions of XMP.
extension FuzzTarget {
    static let placeTargets: [FuzzTarget] = [
        FuzzTarget(
            name: "place-table", summary: "the place lookup file (places.bin), mapped, and lookups in it",
            dictionary: ["TSPLACE1", "\u{D0}\u{02}\0\0", "\u{68}\u{01}\0\0", "\u{FF}\u{FF}\u{FF}\u{FF}"],
            seedExtensions: ["bin"], run: placeTable),
        FuzzTarget(
            name: "xmp-location", summary: "an XMP packet's position and location words, and the place they name",
            dictionary: [
                "exif:GPSLatitude", "exif:GPSLongitude", "exif:GPSAltitudeRef", "photoshop:City", "photoshop:State",
                "photoshop:Country", "Iptc4xmpCore:CountryCode", "Iptc4xmpCore:Location", "Iptc4xmpExt:LocationShown",
                "Iptc4xmpExt:City", "rdf:parseType=\"Resource\"", ",51.3N", ",0.5W", "nan", "1e308",
            ],
            seedExtensions: ["xmp"], run: xmpLocation),
        FuzzTarget(
            name: "xmp-faces", summary: "an XMP packet's face regions (MWG's and Microsoft's): names and boxes",
            dictionary: [
                "mwg-rs:Regions", "mwg-rs:RegionList", "mwg-rs:Name", "mwg-rs:Type", "mwg-rs:Area", "stArea:x",
                "stArea:w", "MP:RegionInfo", "MPRI:Regions", "MPReg:PersonDisplayName", "MPReg:Rectangle",
                "rdf:parseType=\"Resource\"", "0.5, 0.5, 0.1, 0.1", "nan", "1e308", "-0",
            ],
            seedExtensions: ["xmp"], run: xmpFaces),
    ]

    /// A file of these bytes, mapped as the scan maps the installed one; what it names is in range.
    private static func placeTable(_ bytes: [UInt8], _ check: Check) {
        let path = FilePath(NSTemporaryDirectory()).appending("tessera-fuzz-places-\(getpid()).bin")
        defer { _ = unlink(path.string) }
        guard (try? FileSystem.writeAtomically(bytes, to: path)) != nil,
            let table = try? PlaceTable(path: path)
        else { return }
        let finder = PlaceFinder(table: table)
        for latitude in stride(from: -90.0, through: 90.0, by: 22.5) {
            for longitude in stride(from: -180.0, through: 180.0, by: 45.0) {
                guard let place = finder.name(GPSPosition(latitude: latitude, longitude: longitude)) else { continue }
                check(place.distance.map { $0.isFinite && $0 >= 0 } ?? true, "a distance of \(place.distance ?? 0)")
            }
        }
        let namer = PlaceNamer(data: .success(finder), corrections: [], roots: [])
        _ = namer.place(
            PlaceEvidence(
                position: GPSPosition(latitude: 0.25, longitude: 0.25),
                words: LocationWords(city: "x", country: "X"), path: "/x"))
    }

    /// Every face region read is a name and a box in or near the photo, at most 256 of them.
    private static func xmpFaces(_ bytes: [UInt8], _ check: Check) {
        guard let fields = XMPReader.read(packet: bytes).fields else { return }
        check(fields.faceRegions.count <= 256, "\(fields.faceRegions.count) regions")
        for region in fields.faceRegions {
            check(region.checked == region, "the region \(region)")
        }
    }

    /// XMP's position is a position or none, and the place its words name says what they say.
    private static func xmpLocation(_ bytes: [UInt8], _ check: Check) {
        guard let fields = XMPReader.read(packet: bytes).fields else { return }
        if let gps = fields.gps {
            check(
                gps.latitude.isFinite && gps.longitude.isFinite && abs(gps.latitude) <= 90
                    && abs(gps.longitude) <= 180, "the position \(gps)")
        }
        guard let words = fields.location else { return }
        let namer = PlaceNamer(
            data: .failure(PlaceTableError(path: "places.bin", "not installed")), corrections: [], roots: [])
        let place = namer.place(PlaceEvidence(position: fields.gps, words: words, path: "/x"))
        check(place?.locality == words.city, "the words' town \(words.city ?? "-") named \(place?.locality ?? "-")")
    }
}
