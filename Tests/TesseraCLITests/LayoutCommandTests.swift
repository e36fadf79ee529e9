import Foundation
import TesseraTestSupport
import Testing

/// `tessera layout` on input from outside: wrong values are errors that name the field and
/// the range, on standard error, never a crash.
struct LayoutCommandTests {
    @Test func outOfRangeOptionsAndRecordsAreErrorsNotCrashes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = directory.appending("photos.json")
        try Data(#"[{"id": "a", "width": 3000, "height": 2000, "orientation": 1e300}]"#.utf8).write(
            to: URL(fileURLWithPath: photos))
        let good = directory.appending("good.json")
        try Data(#"[{"id": "a", "width": 3000, "height": 2000, "orientation": 6}]"#.utf8).write(
            to: URL(fileURLWithPath: good))
        let cases: [([String], String)] = [
            (
                ["--photos", good, "--option", "justified.targetRowHeight=1e-300"],
                "justified.targetRowHeight must be a number from 1 to 1000000, not 1e-300"
            ),
            (["--photos", photos], "photo 0: orientation must be a whole number from 1 to 8"),
            (
                ["--photos", good, "--style", "fancy"],
                #"--style must be one of tiles, masonry, grid, strip, justified, not "fancy""#
            ),
            (
                ["--photos", good, "--option", "grid.itemWidth=1e-300", "--style", "grid"],
                "grid.itemWidth must be a number from 1 to 1000000"
            ),
        ]
        for (arguments, message) in cases {
            let result = try TesseraProcess.run(["layout"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // With --json the error is also JSON, on standard output.
        let json = try TesseraProcess.run(["layout", "--photos", good, "--style", "fancy", "--json"])
        #expect(json.status == 2 && json.stdout.contains(#""field":"style""#), "\(json.stdout)")
    }

    @Test func rowsOptimalWithoutATargetHeightIsAnError() throws {
        let input = Data(#"{"photos": [{"width": 3, "height": 2}], "params": {"containerWidth": 800}}"#.utf8)
        let result = try TesseraProcess.run(["layout", "reference", "rows-optimal"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("targetRowHeight must be"), "\(result.stdout)")
    }
}
