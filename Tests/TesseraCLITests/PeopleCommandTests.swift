import Foundation
import TesseraTestSupport
import Testing

/// People as a user meets them on the command line (docs/PEOPLE.md): `people list --json` in the
/// documented shape, a name given and found by `list --person`, `explain` saying where a name
/// came from, and `people forget --all`.
struct PeopleCommandTests {
    static let faces = Corpus.root.deletingLastPathComponent().appendingPathComponent("faces")
    static let available = FileManager.default.fileExists(atPath: faces.path)

    private func json(_ arguments: [String]) throws -> Any {
        let run = try TesseraProcess.run(arguments)
        #expect(run.status == 0, Comment(rawValue: run.stderr))
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    @Test(.enabled(if: available, "needs ../shared/faces beside the project; not found"))
    func peopleAreListedNamedExplainedAndForgotten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = URL(fileURLWithPath: directory.appending("library"))
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let salley = Self.faces.appendingPathComponent("johns/John_Salley")
        for file in try FileManager.default.contentsOfDirectory(atPath: salley.path).sorted().prefix(3) {
            try FileManager.default.copyItem(
                at: salley.appendingPathComponent(file), to: library.appendingPathComponent(file))
        }
        let couple = library.appendingPathComponent("kit_with_rose.jpg")
        try FileManager.default.copyItem(
            at: Self.faces.appendingPathComponent("people/test/kit_with_rose.jpg"), to: couple)
        // digiKam's name for Rose (on the left), and one for a box where no face is.
        let regions = [("Rose Leslie", 0.24, 0.24, 0.16, 0.11), ("Ghost", 0.9, 0.9, 0.05, 0.05)].map {
            """
            <rdf:li rdf:parseType="Resource"><mwg-rs:Name>\($0.0)</mwg-rs:Name><mwg-rs:Type>Face</mwg-rs:Type>\
            <mwg-rs:Area stArea:x="\($0.1)" stArea:y="\($0.2)" stArea:w="\($0.3)" stArea:h="\($0.4)" \
            stArea:unit="normalized"/></rdf:li>
            """
        }
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" \
            xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"><mwg-rs:Regions rdf:parseType="Resource">\
            <mwg-rs:RegionList><rdf:Bag>\(regions.joined())</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        try Data(xmp.utf8).write(to: library.appendingPathComponent("kit_with_rose.jpg.xmp"))
        let store = ScanCommandTests.store(directory)
        let scan = try TesseraProcess.run(["scan", library.path] + store)
        #expect(scan.status == 0, Comment(rawValue: scan.stderr))

        // Every person, one object each: id, name (null until named), their photos each once.
        let people = try #require(try json(["people", "list", "--json"] + store) as? [[String: Any]])
        #expect(people.count == 3, "\(people)")  // Salley, Rose, Kit
        for person in people {
            let photos = person["photos"] as? [String] ?? []
            #expect(person["id"] is Int && person.keys.contains("name") && !photos.isEmpty, "\(person)")
            #expect(Set(photos).count == photos.count)
        }
        #expect(people.contains { $0["name"] as? String == "Rose Leslie" && ($0["photos"] as? [String])?.count == 1 })
        let unnamed = try #require(people.first { ($0["photos"] as? [String])?.count == 3 })
        #expect(unnamed["name"] is NSNull)

        // A name given, and the photos found by it in any case.
        let id = try #require(unnamed["id"] as? Int)
        let named = try TesseraProcess.run(["people", "name", String(id), "John Salley"] + store)
        #expect(named.status == 0, Comment(rawValue: named.stderr))
        let listed = try #require(try json(["list", "--json", "--person", "john salley"] + store) as? [[String: Any]])
        #expect(listed.count == 3)
        // `status` says how many are named, of how many, from how many faces.
        let status = try TesseraProcess.run(["status"] + store)
        #expect(status.stdout.contains("people       2 named of 3 people, from 5 faces"), "\(status.stdout)")

        // Where each name came from.
        let facts = try #require(try json(["explain", "--json", couple.path] + store) as? [[String: Any]])
        let fact = try #require(facts.first { $0["fact"] as? String == "people" })
        let candidates = fact["candidates"] as? [[String: Any]] ?? []
        let rose = try #require(candidates.first { $0["value"] as? String == "Rose Leslie" }, "\(fact)")
        #expect(
            (rose["outcome"] as? String)?.contains("placed by this photo's XMP face region; the name from an XMP")
                == true,
            "\(rose)")
        #expect(
            candidates.contains {
                $0["value"] as? String == "Ghost" && ($0["outcome"] as? String)?.hasPrefix("no face") == true
            })
        #expect((fact["value"] as? String)?.contains("Rose Leslie") == true)
        let explained = try TesseraProcess.run(
            ["explain", library.appendingPathComponent("kit_with_rose.jpg").path] + store)
        #expect(explained.stdout.contains("people: Rose Leslie"), "\(explained.stdout)")

        // Forgotten: no face, no person.
        let forget = try TesseraProcess.run(["people", "forget", "--all"] + store)
        #expect(forget.status == 0, Comment(rawValue: forget.stderr))
        #expect((try json(["people", "list", "--json"] + store) as? [[String: Any]])?.isEmpty == true)
    }
}
