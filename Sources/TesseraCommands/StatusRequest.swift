public import SystemPackage
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex

/// `tessera status`: what the running daemon is doing; without one, what the index says; with
/// an `index_url`, the cluster's files, queue and workers.
public struct StatusRequest: Sendable {
    /// The control socket (default: the configuration's).
    public var socket: FilePath?
    public var json = false

    public init() {}

    public func run(in context: CommandContext) async throws {
        let configuration = try context.store.configuration(cluster: true)
        if configuration.indexURL != nil {
            return try await ClusterDeployment.status(configuration, json: json, in: context)
        }
        var status: DaemonStatus?
        do {
            try ControlClient.send(ControlRequest(command: .status), to: socket ?? configuration.controlSocket) {
                status = $0.status ?? status
            }
        } catch {
            // No daemon is an answer, not a failure: a library scanned with `tessera scan` has none.
            guard error.code == .noDaemon else { throw error }
            let index = try PhotoIndex(path: configuration.index, readOnly: true)
            let status: IndexStatus = try IndexStatus(index: index, daemon: error.description)
            if json { return try context.json(status) }
            return context.say(status.text())
        }
        guard let status else { throw CommandFailure("the daemon sent no status") }
        if json { return try context.json(status) }
        context.say(status.text)
    }
}
