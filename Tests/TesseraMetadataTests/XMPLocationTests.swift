import Foundation
import SystemPackage
import TesseraFacts
import TesseraSamples
import TesseraTestSupport
import Testing

@testable import TesseraMetadata

/// Where a photo says it was (docs/PLACES.md, docs/METADATA.md): a position from EXIF or XMP
/// (a sidecar's first), and the location words of XMP and IPTC; a coordinate that is not one
/// gives a warning and no position.
struct XMPLocationTests {
    private static let iptc =
        #"xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" "#
        + #"xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/""#

    @Test(arguments: [
        ("48,51.3N", 48.855), ("48,51,18N", 48.855), ("48,51,18S", -48.855), ("-9.1393", -9.1393),
        ("38.7223N", 38.7223), (" 12,30.0n ", 12.5),
    ])
    func anXMPCoordinateIsRead(text: String, value: Double) throws {
        let read = try #require(GPSCoordinate.xmp(text, positive: "N", negative: "S", limit: 90))
        #expect(abs(read - value) < 1e-9)
    }

    /// Out of range, not a number, minutes of 60 or more, a letter of the other axis or none.
    @Test(arguments: ["95,0N", "nan", "NaN,0N", "inf", "48,61.0N", "48,10E", "48,10X", "", ",", "1,2,3,4N", "-48,10S"])
    func anXMPCoordinateThatIsNotOneIsRefused(text: String) {
        #expect(GPSCoordinate.xmp(text, positive: "N", negative: "S", limit: 90) == nil)
    }

    @Test func anEXIFCoordinateWithALyingLetterOrOutOfRangeIsRefused() {
        let read = { (degrees: Double, reference: String?) in
            GPSCoordinate.exif(
                degrees: degrees, minutes: 30, seconds: 0, reference: reference, positive: "N", negative: "S",
                limit: 90)
        }
        #expect(read(48, "S") == -48.5 && read(48, "N") == 48.5 && read(48, nil) == 48.5)
        #expect(read(48, "E") == nil && read(48, "W") == nil && read(48, "?") == nil)
        #expect(read(90, "N") == nil && read(.nan, "N") == nil && read(.infinity, "N") == nil)
    }

    /// A sidecar's position (a geotagger's) wins over the file's EXIF; a packet's coordinate that
    /// is not one warns and gives none, and EXIF's stands.
    @Test func aSidecarsPositionWinsAndABadOneWarns() throws {
        let berlin = GPSPosition(latitude: 52.52, longitude: 13.405)
        var exif = ExifBuilder()
        exif.gps = berlin
        let photo = try XMPTests.jpeg(exif: exif, app1: [])
        let lisbon = Sidecar(
            name: "photo.xmp",
            packet: XMPTests.packet("", attributes: #"exif:GPSLatitude="38,43.338N" exif:GPSLongitude="9,8.358W""#))
        let read = try XMPTests.read(photo, sidecar: lisbon)
        let position = try #require(read.facts.gps)
        #expect(abs(position.latitude - 38.7223) < 1e-4 && abs(position.longitude + 9.1393) < 1e-4)

        let bad = Sidecar(
            name: "photo.xmp",
            packet: XMPTests.packet("", attributes: #"exif:GPSLatitude="38,43.338E" exif:GPSLongitude="9,8.358W""#))
        let kept = try XMPTests.read(photo, sidecar: bad)
        #expect(kept.facts.gps.map { abs($0.latitude - berlin.latitude) < 1e-4 } == true)
        #expect(kept.warnings.contains { $0.contains("sidecar") && $0.contains("no position") }, "\(kept.warnings)")

        let half = Sidecar(name: "photo.xmp", packet: XMPTests.packet("", attributes: #"exif:GPSLatitude="38,43N""#))
        #expect(try XMPTests.read(photo, sidecar: half).warnings.contains { $0.contains("without the other") })
    }

    /// photoshop:City/State/Country and Iptc4xmpCore; without them, the first LocationShown.
    @Test func locationWordsAreRead() throws {
        let legacy = XMPTests.packet(
            "",
            attributes: #"photoshop:City="Sintra" photoshop:Country="Portugal" Iptc4xmpCore:CountryCode="PT" "#
                + #"Iptc4xmpCore:Location="Pena Palace" "# + Self.iptc)
        let words = try XMPTests.read(XMPTests.jpeg(app1: [XMPTests.xmpPrefix + legacy])).facts.location
        #expect(
            words == LocationWords(city: "Sintra", country: "Portugal", countryCode: "PT", sublocation: "Pena Palace"))

        let shown = XMPTests.packet(
            """
            <Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource">
            <Iptc4xmpExt:City>Porto</Iptc4xmpExt:City><Iptc4xmpExt:ProvinceState>Porto</Iptc4xmpExt:ProvinceState>
            <Iptc4xmpExt:CountryName>Portugal</Iptc4xmpExt:CountryName></rdf:li>
            <rdf:li rdf:parseType="Resource"><Iptc4xmpExt:City>Braga</Iptc4xmpExt:City></rdf:li></rdf:Bag>
            </Iptc4xmpExt:LocationShown>
            """, attributes: Self.iptc)
        let sidecar = Sidecar(name: "photo.xmp", packet: shown)
        let read = try XMPTests.read(XMPTests.jpeg(app1: [XMPTests.xmpPrefix + legacy]), sidecar: sidecar)
        // (the sidecar's words, whole: none of the file's mixed in)
        #expect(read.facts.location == LocationWords(city: "Porto", region: "Porto", country: "Portugal"))
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func theCorpusLocationsAgreeWithExiftool() throws {
        let digikam = try MetadataReader.read(
            at: FilePath(Corpus.path("media/xmp/embedded/digikam.jpg")), context: XMPTests.utc)
        #expect(
            digikam.facts.location
                == LocationWords(
                    city: "Shimizu", region: "Chiba Ken", country: "Japan", countryCode: "JPN", sublocation: "Kamichō"))
        let position = try #require(digikam.facts.gps)
        #expect(abs(position.latitude - 35.9524003) < 1e-6 && abs(position.longitude - 139.86335456) < 1e-6)

        // A position only XMP has, in the file and in its sidecar: exiftool 50.0895874833, 14.3974095167.
        let photo = FilePath(Corpus.path("media/xmp/sidecar/20240128_185808.JPG"))
        var sidecars = SidecarFinder()
        let sidecar = try #require(sidecars.sidecar(of: photo).flatMap(Sidecar.read(at:)))
        let own = try MetadataReader.read(at: photo, context: DateContext(timeZone: .gmt, explaining: true))
        #expect(own.explanations.first { $0.fact == "position" }?.rule == "XMP exif:GPSLatitude/GPSLongitude")
        let read = try MetadataReader.read(
            at: photo, sidecar: sidecar, context: DateContext(timeZone: .gmt, explaining: true))
        let tagged = try #require(read.facts.gps)
        #expect(abs(tagged.latitude - 50.0895874833) < 1e-8 && abs(tagged.longitude - 14.3974095167) < 1e-8)
        let explained = try #require(read.explanations.first { $0.fact == "position" })
        #expect(explained.rule == "XMP exif:GPSLatitude/GPSLongitude (sidecar)")
    }
}
