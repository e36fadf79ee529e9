public import SystemPackage
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex
import TesseraScan

/// `tessera rescan`: ask the running daemon to scan; with `wait`, show its progress until it ends.
public struct RescanRequest: Sendable {
    /// The control socket (default: the configuration's).
    public var socket: FilePath?
    public var wait = false
    public var full = false
    public var json = false

    public init() {}

    public func run(in context: CommandContext) throws {
        let path = try socket ?? context.store.configuration().controlSocket
        let request = ControlRequest(command: .rescan, full: full, wait: wait)
        if !wait {
            let ticket = try ControlClient.request(request, to: path, showingProgress: false).accepted
            return context.say(json ? #"{"accepted":\#(ticket ?? 0)}"# : "Rescan requested (scan \(ticket ?? 0)).")
        }
        let outcome = try ControlClient.request(request, to: path, showingProgress: !json)
        guard let summary = outcome.finished, outcome.error == nil else {
            throw CommandFailure("the scan failed: \(outcome.error ?? "no outcome")")
        }
        if json { try context.json(summary) } else { context.say("Scan \(summary)") }
        if summary.state != .finished { throw CommandFailure.status(1) }
    }
}
