import Foundation
import Glibc
import SystemPackage
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// `tessera explain` as a user runs it: each fact, the rule that won and what lost.
struct ExplainCommandTests {
    /// EXIF dates the photo; its sidecar's XMP date, on the same wall clock, gives the offset
    /// and the rating; the mtime is never a candidate that could win.
    @Test func theDateTheOffsetAndTheRatingSayWhereTheyCameFrom() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: "2013:09:23 10:00:00")
        let photo = FilePath(directory.appending("photo.jpg"))
        try FileSystem.writeAtomically(
            SampleImage.jpeg(SampleImage.pixels(width: 40, height: 30), exif: exif), to: photo)
        try FileSystem.writeAtomically(
            Array(
                """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                 xmp:CreateDate="2013-09-23T10:00:00+02:00" xmp:Rating="5"/></rdf:RDF></x:xmpmeta>
                """.utf8), to: FilePath(directory.appending("photo.jpg.xmp")))

        let result = try TesseraProcess.run(["explain", "--json", photo.string])
        #expect(result.status == 0)
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        func fact(_ name: String) -> [String: Any]? { facts.first { $0["fact"] as? String == name } }
        #expect(fact("date")?["value"] as? String == "2013-09-23T10:00:00")
        #expect(fact("date")?["rule"] as? String == "EXIF DateTimeOriginal")
        let candidates = (fact("date")?["candidates"] as? [[String: String]]) ?? []
        #expect(
            candidates.first { $0["source"] == "XMP xmp:CreateDate" }?["outcome"]
                == "lower precedence; gave the UTC offset")
        #expect(candidates.first { $0["source"] == "file mtime" }?["outcome"] == "never a capture date")
        #expect(fact("utc offset")?["value"] as? String == "+02:00")
        #expect(
            fact("rating")?["value"] as? String == "5"
                && fact("rating")?["rule"] as? String == "XMP xmp:Rating (sidecar)")
        #expect(fact("sidecar")?["value"] as? String == "photo.jpg.xmp")

        let text = try TesseraProcess.run(["explain", photo.string])
        #expect(text.stdout.contains("✓ EXIF DateTimeOriginal 2013:09:23 10:00:00"))
    }

    /// A FIFO with the sidecar's name is not read (nor waited on), and explain does not claim
    /// it was (before, it named it as the sidecar found).
    @Test func aSidecarThatCannotBeReadIsNamedAsNotUsed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photo = FilePath(directory.appending("photo.jpg"))
        try FileSystem.writeAtomically(SampleImage.jpeg(SampleImage.pixels(width: 40, height: 30)), to: photo)
        #expect(mkfifo(directory.appending("photo.jpg.xmp"), 0o644) == 0)
        let result = try TesseraProcess.run(["explain", "--json", photo.string])
        #expect(result.status == 0)
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let sidecar = try #require(facts.first { $0["fact"] as? String == "sidecar" })
        #expect(sidecar["value"] as? String == nil)
        #expect((sidecar["rule"] as? String)?.hasPrefix("sidecar photo.jpg.xmp could not be read") == true)
        // inspect says so too, as a scan does.
        let inspect = try TesseraProcess.run(["inspect", "--json", photo.string])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect(report["sidecar"] is NSNull)
        #expect(
            (report["warnings"] as? [String])?.contains { $0.hasPrefix("sidecar photo.jpg.xmp could not be read") }
                == true)
    }

    @Test func aFileThatIsNotAPhotoIsAnErrorNamingWhy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("notes.txt")
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: file))
        let result = try TesseraProcess.run(["explain", file])
        #expect(result.status != 0 && result.stderr.contains("not a photo format"))
    }
}
