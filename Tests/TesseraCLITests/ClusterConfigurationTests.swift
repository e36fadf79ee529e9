import Foundation
import Glibc
import SystemPackage
import TesseraSystem
import TesseraTestSupport
import Testing

/// A configuration that names a cluster's PostgreSQL index (docs/SCALE.md), met by the commands
/// and by the daemon, which runs on one machine's index: the commands go to the database it
/// names, never to its `index` file; the daemon says what a cluster's machines run instead.
struct ClusterConfigurationTests {
    @Test func aClusterConfigurationGoesToItsDatabaseAndAnIndexFileGivenIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 2, width: 120)
        let config = directory.appending("cluster.yaml")
        try FileSystem.writeAtomically(
            Array(
                "roots: [\(photos)]\nindex_url: postgres://tessera@/photos?host=\(directory.path)\nrenditions_url: s3://renditions/library\n"
                    .utf8), to: FilePath(config))
        // No server answers at that socket: each command says so and keeps trying (a server that
        // restarts is met the same way), until stopped.
        let commands = [["scan"], ["status"], ["prune"], ["list"], ["album", "build", "--out", directory.path]]
        let running = try commands.map { try TesseraProcess.start($0 + ["--config", config]) }
        for (command, process) in zip(commands, running) {
            let waiting = Deadline.wait(seconds: 60) { process.stderrSoFar.contains("trying again") }
            kill(process.pid, SIGTERM)
            let result = process.wait(seconds: 30)
            #expect(
                waiting && result.stderr.contains("database:") && result.stdout.isEmpty,
                "\(command): \(result.stderr)")
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
