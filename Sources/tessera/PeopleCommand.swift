import ArgumentParser
import TesseraCommands

/// `tessera people`: the people found, and the user's decisions about them.
struct PeopleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people", abstract: "List the people found in the photos, and name, merge, split or hide them.",
        discussion: PeopleRequest.discussion)
    @Argument(help: "list, show, name, merge, split, hide, unhide or forget.") var action: PeopleRequest.Action
    @Argument(help: "The person's number, then a name, other people or faces.") var values: [String] = []
    @Option(help: "hide or unhide this face rather than a person.") var face: Int64?
    @Flag(help: "forget: every face and person.") var all = false
    @Flag(help: "list: hidden people too.") var hidden = false
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await PeopleRequest(action, values, face: face, all: all, hidden: hidden, json: json).run(in: store.context)
    }
}
