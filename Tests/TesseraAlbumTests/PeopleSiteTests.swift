import Foundation
import SystemPackage
import TesseraAlbum
import TesseraConfiguration
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

/// People in the site (docs/PEOPLE.md): the People pages with a face on each card, the names in
/// the viewer and Find, and no one the options or the user keep out.
struct PeopleSiteTests {
    static let johns = Corpus.root.deletingLastPathComponent().appendingPathComponent("faces/johns")
    static let available = FileManager.default.fileExists(atPath: johns.path)

    @Test(.enabled(if: available, "needs ../shared/faces beside the project; not found"))
    func namedPeopleHaveTheirPagesAndTheRestStayOut() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = AlbumBuilderTests.gardens(in: directory)
        configuration.roots = [FilePath(directory.appending("photos"))]
        configuration.renditions = [.square(64), .fit(256)]
        // Four photos of each of two people.
        for name in ["John_Salley", "John_Savage"] {
            let folder = Self.johns.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                atPath: directory.appending("photos/\(name)"), withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().prefix(4) {
                try FileManager.default.copyItem(
                    atPath: folder.appendingPathComponent(file).path,
                    toPath: directory.appending("photos/\(name)/\(file)"))
            }
        }
        let index = try PhotoIndex(path: configuration.index)
        try AlbumBuilderTests.scan(configuration, index)
        let faces = try index.faces()
        let salley = try #require(Set(faces.filter { $0.path.contains("Salley") }.compactMap(\.personID)).first)
        let hiddenFace = try #require(faces.first { $0.personID == salley })
        _ = try index.apply(.name(person: salley, name: "Zoë <Salley>"))
        _ = try index.apply(.hide(person: nil, face: hiddenFace.id, hidden: true))

        // Named: one card, with a face cut from a preview; their page has their shown photos.
        let site = directory.appending("site")
        var options = AlbumBuilder.Options(output: FilePath(site))
        let summary = try AlbumBuilder(index: index, options: options).build()
        #expect(summary.peopleShown == 3)
        let list = try String(contentsOfFile: site + "/people.html", encoding: .utf8)
        let names = list.matches(of: /class="name">([^<]*)</).map { String($0.output.1) }
        #expect(names == ["Zoë &lt;Salley&gt;"], "\(names)")
        let folder = "people/zoe-salley-\(salley)"
        let face = try Renderer(options: RenderOptions()).render(
            file: FilePath(site + "/" + folder + "/face.jpg"), specs: [], placeholder: false)
        #expect(face.metadata.width == 400 && face.metadata.height == 400)
        let page = try String(contentsOfFile: site + "/" + folder + "/index.html", encoding: .utf8)
        #expect(page.matches(of: /#photo-\d+"><img/).count == 3 && page.contains("3 photos"))
        #expect(!page.contains("#photo-\(hiddenFace.photoID)\""))
        // The viewer and Find know the name; the unnamed person is nowhere.
        let data = try AlbumBuilderTests.siteText(site)
        #expect(data.contains("\"People\"") && data.contains("\"Zoë <Salley>\"") && data.contains("\"people\":["))
        #expect(data.contains("name=\"person\"") && data.firstMatch(of: /Person \d/) == nil)
        // Unchanged, the People pages are left as they were; a new name writes them again.
        #expect(try AlbumBuilder(index: index, options: options).build().peopleShown == nil)
        _ = try index.apply(.name(person: salley, name: "Salley"))
        #expect(try AlbumBuilder(index: index, options: options).build().peopleShown == 3)
        #expect(!FileManager.default.fileExists(atPath: site + "/" + folder))

        // Everyone: the unnamed group too, after the named.
        options.people = .all
        #expect(try AlbumBuilder(index: index, options: options).build().peopleShown == 7)
        let everyone = try String(contentsOfFile: site + "/people.html", encoding: .utf8)
        let shown = everyone.matches(of: /class="name">([^<]*)</).map { String($0.output.1) }
        #expect(shown.count == 2 && shown.first == "Salley" && shown.last?.hasPrefix("Person ") == true, "\(shown)")

        // No one: no card, no name in the viewer or Find.
        options.people = .none
        _ = try AlbumBuilder(index: index, options: options).build()
        let none = try AlbumBuilderTests.siteText(site)
        #expect(
            !none.contains("\"Salley\"") && !none.contains("\"people\":[") && none.firstMatch(of: /Person \d/) == nil)
        #expect(none.contains("This site shows no people."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/people") == ["key.txt"])
    }
}
