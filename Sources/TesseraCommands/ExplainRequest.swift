public import SystemPackage
import TesseraAnalysis
import TesseraConfiguration
import TesseraFacts
import TesseraIndex
import TesseraMetadata
import TesseraPlaces
import TesseraReport

/// `tessera explain`: how each fact of a photo was decided, and what lost; for a file the index
/// holds, its stack, its copies and why.
public struct ExplainRequest: Sendable {
    public var file: FilePath
    public var json = false

    public init(file: FilePath) {
        self.file = file
    }

    public func run(in context: CommandContext) async throws {
        var sidecars = SidecarFinder()
        let sidecarPath = sidecars.sidecar(of: file)
        let sidecar = sidecarPath.flatMap(Sidecar.read(at:))
        let metadata: PhotoMetadata = try MetadataReader.read(
            at: file, sidecar: sidecar, context: DateContext(explaining: true))
        var facts = metadata.explanations(
            sidecar: sidecar?.name, unread: sidecar == nil ? sidecarPath?.lastComponent?.string : nil)
        // The index, when it holds the file: one named by --index must open, the configuration's
        // may be missing.
        let configuration = try await context.store.consultingConfiguration(context)
        let index =
            context.store.index != nil
            ? try PhotoIndex(path: configuration.index, readOnly: true)
            : try? PhotoIndex(path: configuration.index, readOnly: true)
        facts.append(
            PlaceNamer.installed(configuration).explanation(
                of: file, position: metadata.facts.gps, words: metadata.facts.location))
        var indexed = index.map(IndexedFiles.init)
        if let index, let record = indexed?.record(of: file) {
            let groups = try index.groups(of: record.id)
            let near = try index.comparisons(
                of: record.id, colourLimit: PerceptualHash.colourLimit, colours: PerceptualHash.colours(placeholder:))
            facts += GroupExplanation.facts(stack: groups.stack, copies: groups.copies, near: near)
            facts.append(
                PeopleExplanation.fact(
                    faces: try index.faces(photo: record.id), regions: metadata.facts.faceRegions ?? []))
        }
        if json { return try context.json(facts) }
        context.say(FactExplanation.text(facts))
    }
}
