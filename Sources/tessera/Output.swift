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

/// Prints a JSON array one element at a time, as `printJSON` prints the whole array, so that a
/// command given a million files neither holds all their reports nor waits to print the first.
///
/// It writes standard output itself: nothing else may print until `finish()`.
struct JSONArrayPrinter {
    private var count = 0
    private var pending: [UInt8] = []

    mutating func print(_ element: some Encodable) throws {
        pending.append(contentsOf: (count == 0 ? "[\n  " : ",\n  ").utf8)
        pending.append(contentsOf: try JSONText.encode(element, depth: 1))
        count += 1
        if pending.count >= 1 << 16 { flush() }
    }

    /// Closes the array (`[]` when nothing was printed).
    mutating func finish() {
        pending.append(contentsOf: (count == 0 ? "[]\n" : "\n]\n").utf8)
        flush()
    }

    private mutating func flush() {
        FileHandle.standardOutput.write(Data(pending))
        pending.removeAll(keepingCapacity: true)
    }
}
