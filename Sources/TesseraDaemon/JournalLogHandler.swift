public import Foundation
public import Logging
import TesseraSystem

/// Log lines on stderr: `<N>message` with the syslog priority under systemd (journald reads
/// the prefix), a timestamped line with the level on a terminal or elsewhere.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let journal: Bool

    /// Under systemd when `$JOURNAL_STREAM` is set (it is for a service's stderr).
    public init(label: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        journal = environment["JOURNAL_STREAM"] != nil
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let line: String
        if journal {
            let priority =
                switch event.level {
                case .trace, .debug: 7
                case .info: 6
                case .notice: 5
                case .warning: 4
                case .error: 3
                case .critical: 2
                }
            line = "<\(priority)>\(TerminalText.escaped(event.message.description))\n"
        } else {
            line = "\(Date().formatted(.iso8601)) \(event.level): \(TerminalText.escaped(event.message.description))\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }
}
