import ArgumentParser
import SystemPackage
import TesseraConfiguration
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraReport

/// `tessera explain`: how each fact of a photo was decided, and what lost.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract:
            "Show how Tessera decided a photo's date, UTC offset, orientation, size, camera, rating and rendition source, and its stack and copies.",
        discussion: """
            For each fact: the value chosen, the tag or rule that won, and the other places that said \
            something, with what became of each. The order is documented in docs/METADATA.md. For a file \
            the index holds: the stack and the group of copies it is in, and of each file near it whether \
            it is a copy and why (docs/DUPLICATES.md).
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The photo.", completion: .file())
    var file: String

    @Flag(help: "A JSON array of {fact, value, rule, candidates: [{source, value, outcome}]}.")
    var json = false

    func run() async throws {
        let path = CommandLinePath.path(file)
        var sidecars = SidecarFinder()
        let sidecarPath = sidecars.sidecar(of: path)
        let sidecar = sidecarPath.flatMap(Sidecar.read(at:))
        let metadata: PhotoMetadata = try MetadataReader.read(
            at: path, sidecar: sidecar, context: DateContext(explaining: true))
        var facts = metadata.explanations(
            sidecar: sidecar?.name, unread: sidecar == nil ? sidecarPath?.lastComponent?.string : nil)
        // The index, when it holds the file: one named by --index must open, the configuration's
        // may be missing.
        let configuration = try await store.consultingConfiguration()
        let index =
            store.index != nil
            ? try PhotoIndex(path: configuration.index, readOnly: true)
            : try? PhotoIndex(path: configuration.index, readOnly: true)
        var indexed = index.map(IndexedFiles.init)
        if let index, let record = indexed?.record(of: path) {
            let groups = try index.groups(of: record.id)
            let near = try index.comparisons(
                of: record.id, colourLimit: PerceptualHash.colourLimit, colours: PerceptualHash.colours(placeholder:))
            facts += GroupExplanation.facts(stack: groups.stack, copies: groups.copies, near: near)
        }
        if json { return try printJSON(facts) }
        print(FactExplanation.text(facts))
    }
}
