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
}
