import Foundation
import TesseraConfiguration
import TesseraReport
import TesseraSystem

/// What every command runs with: the index it is pointed at, where it writes, and how it was
/// started (for the commands it suggests next).
///
/// The executable makes one from its arguments and the terminal; a test makes one that
/// captures what a command writes (`capturing`), and calls the command in its own process.
public struct CommandContext: Sendable {
    public var store: StoreSelection
    public var output: CommandOutput
    /// The program as it was started (`argv[0]`): `CommandHint` names it in what to type next.
    public var program: String
    /// The environment the configuration is found and read in.
    public var environment: [String: String]

    public init(
        store: StoreSelection, output: CommandOutput = .standard, program: String = "tessera",
        environment: [String: String]? = nil
    ) {
        self.store = store
        self.output = output
        self.program = program
        self.environment = environment ?? ProcessInfo.processInfo.environment
    }

    /// A command line to type next: this program, `words`, and the store options this run was given.
    public func hint(_ words: [String]) -> String {
        CommandHint.line(words, store: store, program: program)
    }

    /// Writes one line for the user (standard output).
    func say(_ line: String) { output.out(line + "\n") }

    /// Writes one line about the run itself (standard error), control characters escaped.
    func note(_ line: String) { output.err(TerminalText.escaped(line) + "\n") }

    /// Writes `value` as JSON, the one way every `--json` of the command line writes it (`JSONText`).
    func json(_ value: some Encodable) throws {
        output.out(String(decoding: try JSONText.encode(value), as: UTF8.self) + "\n")
    }
}

/// Where a command writes: what a person or a program reads (standard output) and what it says of
/// its run (standard error), as text written exactly as given (lines end in their newline).
public struct CommandOutput: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's standard output and error, each text written at once (no buffer to flush
    /// when the process exits).
    public static let standard = CommandOutput(
        out: { FileHandle.standardOutput.write(Data($0.utf8)) }, err: { FileHandle.standardError.write(Data($0.utf8)) })
}

/// A command that could not do what it was asked: one line for the user (nil: the status says
/// it all, as an interrupted scan's 130), and the exit status.
public struct CommandFailure: Error, CustomStringConvertible {
    public let message: String?
    /// 1 when something could not be done; 2 when the input given was wrong; others as the
    /// command documents (75: the index is busy; 130: interrupted).
    public let status: Int32

    public init(_ message: String?, status: Int32 = 1) {
        self.message = message
        self.status = status
    }

    /// An exit status with nothing to say.
    public static func status(_ status: Int32) -> CommandFailure { CommandFailure(nil, status: status) }

    public var description: String { message ?? "exit status \(status)" }
}
