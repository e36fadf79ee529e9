import Foundation
import Logging
import SystemPackage
import TesseraConfiguration
import TesseraIndex
import TesseraScan
import TesseraSystem
import TesseraTestSupport
import Testing

/// People from a scan (docs/PEOPLE.md): the faces of real photos of five people found after
/// their renditions and grouped, each person's faces together and two people apart.
struct PeopleScanTests {
    static let johns = Corpus.root.deletingLastPathComponent().appendingPathComponent("faces/johns")
    static let available = FileManager.default.fileExists(atPath: johns.path)

    /// Eleven aligned face photos of each of five people, read in place: at least 80 % of the
    /// pairs of one person's photos in one person, at least 95 % of the pairs of two people's
    /// apart; purity and completeness printed.
    @Test(.enabled(if: available, "needs ../shared/faces beside the project; not found"))
    func fivePeopleAreGroupedApart() throws {
        let fixture = try ScanFixture()
        var configuration = fixture.configuration
        configuration.roots = [FilePath(Self.johns.path)]
        let index = try PhotoIndex(path: configuration.index)
        _ = try LibraryScanner(configuration: configuration, index: index, logger: Logger(label: "test")).scan(
            full: false, stop: StopFlag())
        let faces = try index.faces()
        try #require(faces.count >= 50, "\(faces.count) faces found in 55 photos")
        // Each photo's person, and the person its folder says.
        let identity = { (face: FaceSummary) in FilePath(face.path).removingLastComponent().lastComponent?.string ?? ""
        }
        var together = (same: 0, all: 0), apart = (same: 0, all: 0)
        for (i, a) in faces.enumerated() {
            for b in faces[(i + 1)...] {
                let grouped = a.personID != nil && a.personID == b.personID
                if identity(a) == identity(b) {
                    together = (together.same + (grouped ? 1 : 0), together.all + 1)
                } else {
                    apart = (apart.same + (grouped ? 0 : 1), apart.all + 1)
                }
            }
        }
        let people = try index.people()
        print(
            """
            people: \(people.count) from \(faces.count) faces of 5 people; \(together.same) of \(together.all) pairs \
            of one person together, \(apart.same) of \(apart.all) of two apart
            """)
        #expect(Double(together.same) >= 0.8 * Double(together.all))
        #expect(Double(apart.same) >= 0.95 * Double(apart.all))
        // Every face has a person; none has a person twice in one photo; every person lists
        // each of its photos once.
        #expect(faces.allSatisfy { $0.personID != nil && $0.assignedBy == "auto" })
        #expect(people.allSatisfy { Set($0.photos).count == $0.photos.count })
        #expect(people.map(\.faces).reduce(0, +) == faces.count)
    }

    /// A user's decisions are facts: a name, a merge, a face moved out and a face hidden survive a
    /// full rescan (every face found again), a file moved and the grouping of new faces.
    @Test(.enabled(if: available, "needs ../shared/faces beside the project; not found"))
    func decisionsSurviveRescansMovesAndNewFaces() throws {
        let fixture = try ScanFixture()
        var configuration = fixture.configuration
        // Two people's photos, copied: one is moved later.
        let names = ["John_Salley", "John_Savage"]
        for name in names {
            let folder = Self.johns.appendingPathComponent(name)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().prefix(6) {
                try FileManager.default.createDirectory(
                    atPath: fixture.root.appending(name).string, withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    atPath: folder.appendingPathComponent(file).path,
                    toPath: fixture.root.appending(name).appending(file).string)
            }
        }
        configuration.roots = [fixture.root]
        let index = try PhotoIndex(path: configuration.index)
        let scan = { (full: Bool) in
            _ = try LibraryScanner(configuration: configuration, index: index, logger: Logger(label: "test")).scan(
                full: full, stop: StopFlag())
        }
        try scan(false)
        let person = { (name: String) throws -> Int64 in
            let faces = try index.faces().filter { $0.path.contains("/\(name)/") }
            let people = Set(faces.compactMap(\.personID))
            try #require(people.count == 1, "\(name): \(people.count) people")
            return try #require(people.first)
        }
        let salley = try person("John_Salley"), savage = try person("John_Savage")
        #expect(salley != savage)
        _ = try index.apply(.name(person: salley, name: "John Salley"))
        let savageFaces = try index.faces(photo: nil, person: savage)
        let outcast = try #require(savageFaces.first)
        _ = try index.apply(.split(person: savage, faces: [outcast.id]))
        let hidden = try #require(savageFaces.last)
        _ = try index.apply(.hide(person: nil, face: hidden.id, hidden: true))
        #expect(throws: IndexError.self) { try index.apply(.name(person: 999_999, name: "Nobody")) }

        // Every file read again, and one moved to another folder.
        try FileManager.default.createDirectory(
            atPath: fixture.root.appending("moved").string, withIntermediateDirectories: true)
        let movedFrom = try #require(try index.faces(photo: nil, person: salley).first).path
        let movedName = try #require(FilePath(movedFrom).lastComponent)
        try FileManager.default.moveItem(
            atPath: movedFrom, toPath: fixture.root.appending("moved").appending(movedName).string)
        try scan(true)
        let named = try #require(try index.people().first { $0.name == "John Salley" })
        #expect(named.id == salley && named.photos.count == 6, "\(named)")
        #expect(named.photos.contains { $0.contains("/moved/") })
        let faces = try index.faces()
        let outcastNow = try #require(faces.first { $0.path == outcast.path })
        #expect(outcastNow.personID != savage && outcastNow.assignedBy == "user")
        #expect(faces.first { $0.path == hidden.path }?.hidden == true)
        // Found by name in any case, and by number.
        var query = PhotoQuery()
        query.person = "john SALLEY"
        #expect(try index.photos(query).count == 6)
        query.person = String(savage)
        #expect(try index.photos(query).count == 4, "six, one moved out, one hidden")

        // Merged by the user: one person, whose faces the grouping never takes elsewhere.
        _ = try index.apply(.merge(into: salley, people: [savage]))
        #expect(try index.people().first { $0.id == salley }?.photos.count == 10, "six and four")
        _ = try index.apply(.forgetAll)
        #expect(try index.faces().isEmpty && index.people().isEmpty)
        try scan(false)
        #expect(try index.faces().count == 12, "forgotten faces are found again by the next scan")
    }
}
