import Foundation

/// Prints a JSON array one element at a time, as `JSONText.encode` writes the whole array, so
/// that a command given a million files neither holds all their reports nor waits to print the
/// first.
///
/// Nothing else may write where it does until `finish()`.
public struct JSONArrayPrinter {
    private var count = 0
    private var pending: [UInt8] = []
    /// Writes a part of the array's text: whole elements.
    private let write: (String) -> Void

    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    public mutating func print(_ element: some Encodable) throws {
        pending.append(contentsOf: (count == 0 ? "[\n  " : ",\n  ").utf8)
        pending.append(contentsOf: try JSONText.encode(element, depth: 1))
        count += 1
        if pending.count >= 1 << 16 { flush() }
    }

    /// Closes the array (`[]` when nothing was printed).
    public mutating func finish() {
        pending.append(contentsOf: (count == 0 ? "[]\n" : "\n]\n").utf8)
        flush()
    }

    private mutating func flush() {
        write(String(decoding: pending, as: UTF8.self))
        pending.removeAll(keepingCapacity: true)
    }
}
