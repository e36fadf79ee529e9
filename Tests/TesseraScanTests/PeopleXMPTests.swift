import Foundation
import Logging
import SystemPackage
import TesseraConfiguration
import TesseraIndex
import TesseraScan
import TesseraSystem
import TesseraTestSupport
import Testing

/// Names already in the photos (docs/PEOPLE.md): XMP face regions, as digiKam and Lightroom
/// (MWG) and Windows (Microsoft's) write them, name the faces found there, and the faces of the
/// same people elsewhere join them.
struct PeopleXMPTests {
    static let people = Corpus.root.deletingLastPathComponent().appendingPathComponent("faces/people")
    static let available = FileManager.default.fileExists(atPath: people.path)

    /// An XMP sidecar with MWG regions (each a centre and a size), as digiKam writes it.
    static func mwg(_ regions: [(name: String, x: Double, y: Double, w: Double, h: Double)]) -> String {
        let items = regions.map { region in
            """
            <rdf:li rdf:parseType="Resource"><mwg-rs:Name>\(region.name)</mwg-rs:Name><mwg-rs:Type>Face</mwg-rs:Type>\
            <mwg-rs:Area stArea:x="\(region.x)" stArea:y="\(region.y)" stArea:w="\(region.w)" stArea:h="\(region.h)" \
            stArea:unit="normalized"/></rdf:li>
            """
        }
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" \
            xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"><mwg-rs:Regions rdf:parseType="Resource">\
            <mwg-rs:RegionList><rdf:Bag>\(items.joined())</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
    }

    /// Microsoft's regions: a name and "x, y, w, h" from the top left.
    static func microsoft(name: String, rectangle: String) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description rdf:about="" xmlns:MP="http://ns.microsoft.com/photo/1.2/" \
        xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#" \
        xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#"><MP:RegionInfo rdf:parseType="Resource">\
        <MPRI:Regions><rdf:Bag><rdf:li rdf:parseType="Resource"><MPReg:PersonDisplayName>\(name)\
        </MPReg:PersonDisplayName><MPReg:Rectangle>\(rectangle)</MPReg:Rectangle></rdf:li></rdf:Bag>\
        </MPRI:Regions></MP:RegionInfo></rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }

    @Test(.enabled(if: available, "needs ../shared/faces beside the project; not found"))
    func namesInThePhotosNameTheirFacesAndTheirOtherPhotos() throws {
        let fixture = try ScanFixture()
        var configuration = fixture.configuration
        for file in ["test/kit_with_rose.jpg", "obama/obama.jpg", "obama/obama2.jpg", "rose_leslie/img1.jpg"] {
            try FileManager.default.copyItem(
                atPath: Self.people.appendingPathComponent(file).path,
                toPath: fixture.root.appending(FilePath(file).lastComponent?.string ?? file).string)
        }
        // digiKam's regions on the couple (Rose on the left, Kit on the right), a few pixels off
        // the detector's boxes; Windows' on one photo of Obama; a region past the photo and one
        // that is not a number, ignored.
        let couple = Self.mwg([
            ("Rose Leslie", 0.24, 0.24, 0.16, 0.11), ("Kit Harington", 0.60, 0.21, 0.22, 0.16),
            ("Nobody", 3, 3, 0.1, 0.1), ("Nothing", .nan, 0.5, 0.1, 0.1),
        ])
        try FileSystem.writeAtomically(Array(couple.utf8), to: fixture.root.appending("kit_with_rose.jpg.xmp"))
        let obama = Self.microsoft(name: "Barack Obama", rectangle: "0.26, 0.25, 0.5, 0.26")
        try FileSystem.writeAtomically(Array(obama.utf8), to: fixture.root.appending("obama2.jpg.xmp"))
        configuration.roots = [fixture.root]
        let index = try PhotoIndex(path: configuration.index)
        _ = try LibraryScanner(configuration: configuration, index: index, logger: Logger(label: "test")).scan(
            full: false, stop: StopFlag())
        let faces = try index.faces()
        let named = { (file: String) in faces.filter { $0.path.hasSuffix("/" + file) }.map { $0.personName ?? "-" } }
        #expect(Set(named("kit_with_rose.jpg")) == ["Rose Leslie", "Kit Harington"], "\(named("kit_with_rose.jpg"))")
        #expect(named("obama2.jpg") == ["Barack Obama"])
        #expect(faces.filter { $0.path.hasSuffix("/kit_with_rose.jpg") }.allSatisfy { $0.assignedBy == "xmp" })
        // The photos no region names: their faces join the named people.
        #expect(named("obama.jpg") == ["Barack Obama"], "\(faces.map { ($0.path, $0.personName) })")
        let people = try index.people()
        #expect(!people.contains { $0.name == "Nobody" || $0.name == "Nothing" })
        #expect(people.first { $0.name == "Barack Obama" }?.photos.count == 2)
    }

    /// A region list of 100,000 entries: the first 256 are read, the scan goes on.
    @Test func aHundredThousandRegionsAreCut() throws {
        let fixture = try ScanFixture()
        try fixture.jpeg("many.jpg", date: "2024:01:01 10:00:00")
        let regions = (0..<100_000).map { (name: "P\($0)", x: 0.5, y: 0.5, w: 0.1, h: 0.1) }
        try FileSystem.writeAtomically(Array(Self.mwg(regions).utf8), to: fixture.root.appending("many.jpg.xmp"))
        let index = try PhotoIndex(path: fixture.configuration.index)
        _ = try LibraryScanner(configuration: fixture.configuration, index: index, logger: Logger(label: "test"))
            .scan(full: false, stop: StopFlag())
        let record = try #require(try index.photos(PhotoQuery()).first)
        #expect(record.status == .ok || record.status == .warning)
    }
}
