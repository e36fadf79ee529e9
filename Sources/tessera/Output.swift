import Foundation
import TesseraReport
import TesseraSystem

/// Writes one line to standard error, with control characters escaped.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
}

/// Prints `value` as JSON, the one way every `--json` of the command line writes it (`JSONText`).
func printJSON(_ value: some Encodable) throws {
    print(String(decoding: try JSONText.encode(value), as: UTF8.self))
}
