import ArgumentParser
import TesseraCommands

/// `tessera prune`: remove from the index what scans only hid, after saying what.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove missing files, and files of folders no longer configured, from the index.",
        discussion: """
            A scan never deletes what it does not see: a file gone from a folder that is there is \
            missing (hidden, its thumbnails kept) for 'keep_missing_days', and a folder that is offline \
            (an unmounted disk) is kept whole. Without --yes, prune lists what it would remove; with \
            --yes it removes those rows and their thumbnails. Files under folders taken out of the \
            configuration file's 'roots' are removed too. With index_url (docs/SCALE.md), it removes the \
            rows of files missing for 'keep_missing_days' and the objects in the store that no row names \
            and that are older than --grace-hours.
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Remove them; without it, only list what would go.")
    var yes = false

    @Option(
        help: "With index_url: hours an object no row names is kept (workers store renditions before recording them).")
    var graceHours = 24

    func run() async throws {
        var request = PruneRequest()
        (request.remove, request.graceHours) = (yes, graceHours)
        try await request.run(in: store.context)
    }
}
