/// Why a scan could not run at all (single files failing never stop a scan).
public struct ScanError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
