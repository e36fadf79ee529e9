import Glibc
import SystemPackage

/// The one place Tessera calls the C library for file and process work: retries on
/// EINTR, and an injectable fault for what a test cannot make a real system do.
enum Syscall {
    /// Runs `call` until it does not fail with EINTR; returns its result, or throws its errno.
    static func retrying<Result: BinaryInteger>(
        _ operation: String, path: FilePath? = nil, _ call: () -> Result
    ) throws(SystemError) -> Result {
        if let fault = Fault.injected(for: operation) { throw SystemError(operation, path: path, fault) }
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = Errno(rawValue: Glibc.errno)
            if code != .interrupted { throw SystemError(operation, path: path, code) }
        }
    }
}

/// Faults injected through `TESSERA_FAULT=operation:errno[,…]`, e.g. `write-file:ENOSPC`.
///
/// Read once per process. The real system cannot be made to fill a disk or fail a rename on
/// demand in a test; this stands in for exactly that, and for nothing else.
enum Fault {
    private static let table: [String: Errno] = {
        guard let text = getenv("TESSERA_FAULT").map({ String(cString: $0) }), !text.isEmpty else { return [:] }
        let names: [String: Errno] = ["ENOSPC": .noSpace, "EIO": .ioError, "EACCES": .permissionDenied, "EDQUOT": .diskQuotaExceeded]
        var table: [String: Errno] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: ":")
            if parts.count == 2, let code = names[String(parts[1])] { table[String(parts[0])] = code }
        }
        return table
    }()

    static func injected(for operation: String) -> Errno? {
        table.isEmpty ? nil : table[operation]
    }
}
