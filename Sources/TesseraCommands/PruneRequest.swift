import TesseraConfiguration
import TesseraIndex
import TesseraScan
import TesseraSystem

/// `tessera prune`: remove from the index what scans only hid, after saying what; with an
/// `index_url`, the cluster's rows missing too long and the objects no row names.
public struct PruneRequest: Sendable {
    /// Remove them; without it, only say what would go.
    public var remove = false
    /// With index_url: hours an object no row names is kept (workers store renditions before
    /// recording them).
    public var graceHours = 24

    public init() {}

    public func run(in context: CommandContext) async throws {
        let configuration = try context.store.configuration(cluster: true)
        if configuration.indexURL != nil {
            guard graceHours >= 0 else { throw CommandFailure("--grace-hours cannot be negative", status: 2) }
            return try await ClusterDeployment.prune(
                configuration, remove: remove, graceHours: graceHours, in: context)
        }
        let index = try PhotoIndex(path: configuration.index, readOnly: false)
        let pruner = Pruner(configuration: configuration, index: index)
        let plan: Pruner.Plan = try pruner.plan()
        if plan.isEmpty { return context.say("Nothing to prune: no file is missing.") }
        guard remove else { return context.say("\(plan.text); to remove them: \(context.hint(["prune", "--yes"]))") }
        let removed = try pruner.prune()
        context.say("Removed \(Wording.count(removed, "file")) and their thumbnails from the index.")
    }
}
