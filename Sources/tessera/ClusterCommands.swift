import ArgumentParser
import SystemPackage
import TesseraCluster
import TesseraCommands

/// `tessera worker`: reads the files the scans queue, on any machine that sees the photos
/// at the same paths.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Read and render the files a cluster's scans queue (index_url; docs/SCALE.md).",
        discussion: """
            Claims a few files at a time from the PostgreSQL queue, renders them as `tessera scan` does, \
            stores their renditions in the object store (renditions_url) and records them, fenced by its \
            lease: a worker whose lease ran out records nothing. Any number run, on any hosts. SIGTERM or \
            Ctrl-C finishes the file in hand and gives the rest back. Exits 0 when stopped or, with \
            --until-idle, when nothing is pending or leased; 1 when the database or the store stayed away \
            past their patience.
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Exit once no job is pending or leased.")
    var untilIdle = false

    @Option(help: "The worker's name in the queue and in status (default: HOST-PID).")
    var name: String?

    @Option(help: "Jobs claimed at a time.")
    var batch = 4

    @Option(help: "Seconds a claim holds without a heartbeat (renewed every third of it).")
    var lease = 60

    @Option(help: "Claims of one file before it is recorded as failed.")
    var maxAttempts = 3

    @Option(help: "Seconds an idle worker waits before looking for work again, if no scan's notice wakes it first.")
    var poll = 2

    @Flag(help: .hidden)  // bench/cluster.py: the queue alone, each file recorded unread
    var noRender = false

    func run() async throws {
        let onEventLoops = ClusterIndex.runTasksOnEventLoops()
        var request = WorkerRequest()
        (request.untilIdle, request.name, request.batch, request.lease) = (untilIdle, name, batch, lease)
        (request.maxAttempts, request.poll, request.render) = (maxAttempts, poll, !noRender)
        try await request.run(in: store.context, onEventLoops: onEventLoops)
    }
}

/// `tessera export-index`: the cluster's index as the documented SQLite file.
struct ExportIndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-index",
        abstract: "Write a cluster's PostgreSQL index as an SQLite index file (docs/SCALE.md).",
        discussion: """
            The file is the one `tessera scan` writes (docs/INDEX.md), made by the same code from what the \
            workers recorded, with every rendition fetched from the object store into the renditions folder \
            its rows name. A file this wrote before is brought up to date by what changed since. Files not \
            read yet are left out and counted. Exits 0 when written, 1 when not.
            """)

    @OptionGroup var store: StoreOptions

    @Option(
        help: "The SQLite file to write (made whole, then replaced at once; one written before, brought up to date).",
        completion: .file(extensions: ["sqlite"]))
    var out: String

    @Option(help: "Where the renditions go (default: the configuration's 'cache').", completion: .directory)
    var renditions: String?

    func run() async throws {
        var request = ExportIndexRequest(output: FilePath(out))
        request.renditions = renditions.map { FilePath($0) }
        try await request.run(in: store.context)
    }
}
