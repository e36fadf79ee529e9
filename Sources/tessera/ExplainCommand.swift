import ArgumentParser
import SystemPackage
import TesseraMetadata
import TesseraReport

/// `tessera explain`: how each fact of a photo was decided, and what lost.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract:
            "Show how Tessera decided a photo's date, UTC offset, orientation, size, camera, rating and rendition source.",
        discussion: """
            For each fact: the value chosen, the tag or rule that won, and the other places that said \
            something, with what became of each. The order is documented in docs/METADATA.md.
            """)

    @Argument(help: "The photo.", completion: .file())
    var file: String

    @Flag(help: "A JSON array of {fact, value, rule, candidates: [{source, value, outcome}]}.")
    var json = false

    func run() throws {
        let path = CommandLinePath.path(file)
        var sidecars = SidecarFinder()
        let sidecarPath = sidecars.sidecar(of: path)
        let sidecar = sidecarPath.flatMap(Sidecar.read(at:))
        let metadata: PhotoMetadata = try MetadataReader.read(
            at: path, sidecar: sidecar, context: DateContext(explaining: true))
        let facts = metadata.explanations(
            sidecar: sidecar?.name, unread: sidecar == nil ? sidecarPath?.lastComponent?.string : nil)
        if json { return try printJSON(facts) }
        print(FactExplanation.text(facts))
    }
}
