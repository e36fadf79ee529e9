public import SystemPackage

/// A failure opening, migrating, reading or writing the index file.
public struct IndexError: Error, Sendable, CustomStringConvertible {
    public var path: FilePath
    public var message: String

    public init(path: FilePath, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
