import Foundation
import TesseraSystem

/// Writes one line to standard error, with control characters escaped.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
}

/// Prints `value` as JSON, the one way every `--json` of the command line writes it: indented,
/// keys sorted, slashes as they are, dates in ISO 8601.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
