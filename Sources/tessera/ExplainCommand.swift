import ArgumentParser
import TesseraCommands

/// `tessera explain`: how each fact of a photo was decided, and what lost.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: """
            Show how Tessera decided a photo's date, UTC offset, orientation, size, camera, rating and \
            rendition source, and its stack, copies and people.
            """,
        discussion: """
            For each fact: the value chosen, the tag or rule that won, and the other places that said \
            something, with what became of each. The order is documented in docs/METADATA.md. For a file \
            the index holds: its stack and copies, and of each file near it whether it is a copy and why \
            (docs/DUPLICATES.md); its faces, their people and where each name came from (docs/PEOPLE.md).
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The photo.", completion: .file())
    var file: String

    @Flag(help: "A JSON array of {fact, value, rule, candidates: [{source, value, outcome}]}.")
    var json = false

    func run() async throws {
        var request = ExplainRequest(file: CommandLinePath.path(file))
        request.json = json
        try await request.run(in: store.context)
    }
}
