import Foundation
import SystemPackage
import TesseraFacts
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraMetadata

/// XMP embedded and in sidecars, read through Exempi, and the precedence between them and EXIF.
struct XMPTests {
    static let utc = DateContext(timeZone: TimeZone(identifier: "UTC") ?? .current)
    static let image = SampleImage.pixels(width: 16, height: 12)

    /// An XMP packet with `body` (RDF properties) inside one rdf:Description.
    static func packet(_ body: String, attributes: String = "") -> [UInt8] {
        Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
             xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
             xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:digiKam="http://www.digikam.org/ns/1.0/"
             xmlns:lr="http://ns.adobe.com/lightroom/1.0/" \(attributes)>\(body)</rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    /// A JPEG with `segments` (APP1 payloads) right after its SOI.
    static func jpeg(exif: ExifBuilder? = nil, app1: [[UInt8]]) throws -> [UInt8] {
        let plain = try SampleImage.jpeg(image, exif: exif)
        var segments: [UInt8] = []
        for payload in app1 {
            let length = payload.count + 2
            segments += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return Array(plain.prefix(2)) + segments + Array(plain.dropFirst(2))
    }

    static let xmpPrefix = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    static func read(_ bytes: [UInt8], name: String = "photo.jpg", sidecar: Sidecar? = nil) throws -> PhotoMetadata {
        try FileReader.withBytes(bytes, path: FilePath(name), mtime: .init(seconds: 1_600_000_000, nanoseconds: 0)) {
            (reader) throws(PhotoError) -> PhotoMetadata in
            try MetadataReader.read(reader, sidecar: sidecar, context: utc)
        }
    }

    @Test func aPacketRewrittenInPlaceShorterIsReadUpToItsOwnEnd() throws {
        // A packet whose trailer is followed by the tails of the longer packet a tool wrote over,
        // as exiftool reads it: embedded, and in a sidecar.
        let begin = Array(#"<?xpacket begin="\#u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>"#.utf8)
        let end = Array(#"<?xpacket end="r"?>"#.utf8)
        let tail = Array("ns.adobe.com/exif/1.0/\">old</rdf:Description></rdf:RDF></x:xmpmeta>\n".utf8) + end
        let packet =
            begin + Self.packet("<exif:DateTimeOriginal>1988-12-01T18:53:44</exif:DateTimeOriginal>") + end
            + tail + tail + Array(repeating: UInt8(ascii: " "), count: 40) + tail
        let embedded = try Self.read(Self.jpeg(app1: [Self.xmpPrefix + packet]))
        #expect(embedded.captureDate?.source == .xmp, "\(embedded.warnings)")
        #expect(embedded.captureDate?.wallClock.iso8601 == "1988-12-01T18:53:44")
        #expect(!embedded.warnings.contains { $0.contains("XMP") })
        let sidecar = try Self.read(Self.jpeg(app1: []), sidecar: Sidecar(name: "photo.xmp", packet: packet))
        #expect(sidecar.captureDate?.wallClock.iso8601 == "1988-12-01T18:53:44", "\(sidecar.warnings)")
        // Without a trailer, a packet ends at the x:xmpmeta that closes it.
        let bare = Self.packet("<xmp:Rating>4</xmp:Rating>") + Array("</rdf:Description></rdf:RDF></x:xmpmeta>".utf8)
        #expect(try Self.read(Self.jpeg(app1: [Self.xmpPrefix + bare])).xmp?.rating == 4)
    }

    @Test func aJPEGDatedOnlyByXMPIsDatedByItWithItsOffsetNotByItsEditDate() throws {
        var exif = ExifBuilder()
        exif.dateTime = .init(dateTime: "2014:09:22 08:00:00")  // the editor's save
        let xmp = Self.packet("<xmp:CreateDate>2013-09-23T10:00:00+02:00</xmp:CreateDate>")
        let metadata = try Self.read(Self.jpeg(exif: exif, app1: [Self.xmpPrefix + xmp]))
        #expect(metadata.captureDate?.source == .xmp)
        #expect(metadata.captureDate?.wallClock.iso8601 == "2013-09-23T10:00:00")
        #expect(metadata.captureDate?.utcOffset?.description == "+02:00")
    }

    @Test func ratingTitleDescriptionLabelAndKeywordsOfEveryVocabulary() throws {
        let xmp = Self.packet(
            """
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dusk</rdf:li></rdf:Alt></dc:title>
            <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Boats</rdf:li></rdf:Alt></dc:description>
            <dc:subject><rdf:Bag><rdf:li>sea</rdf:li><rdf:li>Výlet</rdf:li></rdf:Bag></dc:subject>
            <digiKam:TagsList><rdf:Seq><rdf:li>Places/Norway/Bergen</rdf:li></rdf:Seq></digiKam:TagsList>
            <lr:hierarchicalSubject><rdf:Bag><rdf:li>People|Anna</rdf:li><rdf:li>sea</rdf:li></rdf:Bag></lr:hierarchicalSubject>
            """, attributes: #"xmp:Rating="4" xmp:Label="Red""#)
        let metadata = try Self.read(Self.jpeg(app1: [Self.xmpPrefix + xmp]))
        #expect(metadata.xmp?.rating == 4)
        #expect(metadata.xmp?.label == "Red")
        #expect(metadata.xmp?.title == "Harbour at dusk")
        #expect(metadata.xmp?.description == "Boats")
        #expect(metadata.xmp?.keywords == ["sea", "Výlet", "Places/Norway/Bergen", "People/Anna"])
    }

    @Test func extendedXMPChunksAreJoinedAndRead() throws {
        let main = Self.packet("", attributes: #"xmp:Rating="2""#)
        let extended = Self.packet("<dc:subject><rdf:Bag><rdf:li>far</rdf:li></rdf:Bag></dc:subject>")
        let guid = Array("0123456789ABCDEF0123456789ABCDEF".utf8)
        let prefix = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0] + guid
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
        let half = extended.count / 2
        // The chunks may come in any order.
        let chunks = [
            prefix + be32(extended.count) + be32(half) + Array(extended[half...]),
            prefix + be32(extended.count) + be32(0) + Array(extended[..<half]),
        ]
        let metadata = try Self.read(Self.jpeg(app1: [Self.xmpPrefix + main] + chunks))
        #expect(metadata.xmp?.rating == 2)
        #expect(metadata.xmp?.keywords == ["far"])
    }

    @Test func aSidecarWinsForWhatPeopleEditAndEXIFForWhatTheCameraMeasured() throws {
        var exif = ExifBuilder()
        exif.orientation = 1
        exif.dateTimeOriginal = .init(dateTime: "2020:01:01 12:00:00")
        exif.make = "Camera Maker"
        let embedded = Self.packet(
            "<dc:subject><rdf:Bag><rdf:li>old</rdf:li></rdf:Bag></dc:subject>",
            attributes: #"xmp:Rating="1" dc:format="image/jpeg""#)
        let sidecar = Sidecar(
            name: "photo.xmp",
            packet: Self.packet(
                "<dc:subject><rdf:Bag><rdf:li>new</rdf:li></rdf:Bag></dc:subject>",
                attributes:
                    #"xmp:Rating="5" tiff:Orientation="6" tiff:Make="Other" exif:DateTimeOriginal="1999-01-01T00:00:00""#
            ))
        let metadata = try Self.read(Self.jpeg(exif: exif, app1: [Self.xmpPrefix + embedded]), sidecar: sidecar)
        #expect(metadata.xmp?.rating == 5)
        #expect(metadata.xmp?.keywords == ["new"])
        #expect(metadata.orientation == 6)  // a rotation made in the sidecar's tool
        #expect(metadata.exif?.make == "Camera Maker")
        #expect(metadata.captureDate?.wallClock.iso8601 == "2020-01-01T12:00:00")
    }

    @Test func damagedOrHostileXMPIsAWarningAndTheRestIsRead() throws {
        let bomb = Array(
            """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><x>&d;</x>
            """.utf8)
        for packet in [Array("<x:xmpmeta><rdf:RDF>".utf8), bomb, [UInt8](repeating: 0, count: 10)] {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = .init(dateTime: "2021:02:03 04:05:06")
            let metadata = try Self.read(Self.jpeg(exif: exif, app1: [Self.xmpPrefix + packet]))
            #expect(metadata.captureDate?.wallClock.iso8601 == "2021-02-03T04:05:06")
            #expect(metadata.xmp?.rating == nil)
        }
    }

    @Test func sidecarNamingBothConventionsAnyCaseFullNameFirst() {
        func names(_ list: [String]) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: Sidecar.pairs(in: list.map { Array($0.utf8) }).map {
                    (String(decoding: $0.key.bytes, as: UTF8.self), String(decoding: $0.value.bytes, as: UTF8.self))
                })
        }
        #expect(
            names(["IMG_1.CR2", "IMG_1.JPG", "IMG_1.xmp"]) == ["IMG_1.CR2": "IMG_1.xmp", "IMG_1.JPG": "IMG_1.xmp"])
        #expect(
            names(["IMG_1.CR2", "IMG_1.JPG", "IMG_1.xmp", "img_1.cr2.XMP"])
                == ["IMG_1.CR2": "img_1.cr2.XMP", "IMG_1.JPG": "IMG_1.xmp"])
        #expect(names(["a.jpg", "b.xmp", "c.XMP"]).isEmpty)
        #expect(Sidecar.isSidecar(Array("x.XmP".utf8)) && !Sidecar.isSidecar(Array(".xmp".utf8)))
    }

    @Test func aGPSTimeStampGivesTheOffsetAndSaysSo() {
        let clock = WallClock(year: 2022, month: 6, day: 1, hour: 14, minute: 3, second: 0)
        // The fix was taken at 11:58:20 UTC, 2 h 4 min 40 s before the camera's clock: UTC+02:00.
        let instant = WallClock(year: 2022, month: 6, day: 1, hour: 11, minute: 58, second: 20).secondsAsUTC
        #expect(CaptureDate.gpsOffset(clock: clock, gpsInstant: instant)?.description == "+02:00")
        #expect(CaptureDate.gpsOffset(clock: clock, gpsInstant: clock.secondsAsUTC + 20 * 3600) == nil)
    }

    @Test func xmpDatesInEveryFormTheStandardAllows() {
        #expect(DateText.xmp("2013-09-23T10:00:00+02:00")?.1?.description == "+02:00")
        #expect(DateText.xmp("2013-09-23T10:00Z")?.0.iso8601 == "2013-09-23T10:00:00")
        #expect(DateText.xmp("2013-09-23")?.0.iso8601 == "2013-09-23T00:00:00")
        #expect(DateText.xmp("2013")?.0.iso8601 == "2013-01-01T00:00:00")
        #expect(DateText.xmp("2018:11:17 20:27:31+01:00")?.1?.description == "+01:00")
        #expect(DateText.xmp("yesterday") == nil && DateText.xmp("2013-13-01") == nil)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func corpusXMPAgreesWithExiftool() throws {
        let digikam = try MetadataReader.read(
            at: FilePath(Corpus.path("media/xmp/embedded/digikam.jpg")), context: Self.utc)
        #expect(digikam.xmp?.rating == 4)
        #expect(digikam.xmp?.title == "Digikam Title field")
        // exiftool: ScaleFactor35efl 4.52286668283262 × 9.4 mm.
        #expect(abs((digikam.focalLength35mm ?? 0) - 42.5149468186266) < 0.001)
        let png = try MetadataReader.read(
            at: FilePath(Corpus.path("media/xmp/embedded/png_with_faces_and_dates.png")), context: Self.utc)
        #expect(png.xmp?.keywords == ["leaf", "raspberry"])
        let photo = FilePath(Corpus.path("media/xmp/sidecar/20240128_185808.JPG"))
        var sidecars = SidecarFinder()
        let sidecar = try #require(sidecars.sidecar(of: photo).flatMap(Sidecar.read(at:)))
        #expect(sidecar.name == "20240128_185808.JPG.xmp")
        let withSidecar = try MetadataReader.read(at: photo, sidecar: sidecar, context: Self.utc)
        #expect(withSidecar.xmp?.rating == 3 && withSidecar.xmp?.keywords == ["Travel"])
        let bare = FilePath(Corpus.path("media/xmp/sidecar/no_metadata.jpg"))
        let dated = try MetadataReader.read(
            at: bare, sidecar: sidecars.sidecar(of: bare).flatMap(Sidecar.read(at:)), context: Self.utc)
        #expect(dated.captureDate?.source == .xmp && dated.captureDate?.utcOffset?.description == "+01:00")
    }
}

extension XMPTests {
    /// A chunk sent twice does not stand in for the one that never came: the packet is
    /// incomplete, and no half-packet of zeros is handed to the toolkit.
    @Test func aRepeatedExtendedXMPChunkDoesNotCompleteThePacket() throws {
        let main = Self.packet("", attributes: #"xmp:Rating="2""#)
        let extended = Self.packet("<dc:subject><rdf:Bag><rdf:li>far</rdf:li></rdf:Bag></dc:subject>")
        let prefix =
            Array("http://ns.adobe.com/xmp/extension/".utf8) + [0] + Array("0123456789ABCDEF0123456789ABCDEF".utf8)
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
        let half = extended.count / 2
        let first = prefix + be32(half * 2) + be32(0) + Array(extended[..<half])
        let metadata = try Self.read(Self.jpeg(app1: [Self.xmpPrefix + main, first, first]))
        #expect(metadata.xmp?.rating == 2 && metadata.xmp?.keywords == [])
        #expect(!metadata.warnings.contains { $0.contains("Extended") })
    }
}
