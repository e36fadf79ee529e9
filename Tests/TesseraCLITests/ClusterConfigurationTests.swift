import Foundation
import SystemPackage
import TesseraSystem
import TesseraTestSupport
import Testing

/// A configuration that names a cluster's PostgreSQL index (docs/SCALE.md), met by the default
/// build and by the daemon, which runs on one machine's index: each says what to do instead of
/// reading the configuration's `index` file as if nothing were amiss.
struct ClusterConfigurationTests {
    @Test func aClusterConfigurationIsRefusedWithWhatToDoAndAnIndexFileGivenIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 120)
        let config = directory.appending("cluster.yaml")
        try FileSystem.writeAtomically(
            Array(
                "roots: [\(photos)]\nindex_url: postgres://tessera@/photos?host=\(directory.path)\nrenditions_url: s3://renditions/library\n"
                    .utf8), to: FilePath(config))
        // This build has no cluster: the commands that would use it, those that read an index
        // too, say which build does.
        for command in [["scan"], ["status"], ["prune"], ["list"], ["album", "build", "--out", directory.path]] {
            let result = try TesseraProcess.run(command + ["--config", config])
            #expect(
                result.status == 1 && result.stderr.contains("built without the Cluster trait")
                    && result.stderr.contains("docs/SCALE.md"), "\(command): \(result.stderr)")
        }
        // The daemon runs on one machine's index, and says what a cluster's machines run.
        let serve = try TesseraProcess.run(["serve", "--config", config])
        #expect(serve.status == 1 && serve.stderr.contains("tessera worker"), "\(serve.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appending("index.sqlite")))
        // An index file given on the command line wins over the configuration's address.
        #expect(try TesseraProcess.run(["scan", photos] + ScanCommandTests.store(directory)).status == 0)
        let given = try TesseraProcess.run(
            ["list", "--config", config, "--index", directory.appending("index.sqlite"), "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(given.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(given.status == 0 && rows.count == 2, "\(given.stderr)")
    }
}
