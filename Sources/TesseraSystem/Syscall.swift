import Glibc
import SystemPackage

/// The one place Tessera calls the C library for file and process work: retries on
/// EINTR, and an injectable fault for what a test cannot make a real system do.
enum Syscall {
    /// Runs `call` until it does not fail with EINTR; returns its result, or throws its errno.
    static func retrying<Result: BinaryInteger>(
        _ operation: String, path: FilePath? = nil, _ call: () -> Result
    ) throws(SystemError) -> Result {
        switch Fault.injected(for: operation) {
        case .error(let code): throw SystemError(operation, path: path, code)
        case .stall: Fault.hang()
        case .slow: usleep(Fault.slowness)
        case nil: break
        }
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = Errno(rawValue: Glibc.errno)
            if code != .interrupted { throw SystemError(operation, path: path, code) }
        }
    }
}

/// Faults injected through `TESSERA_FAULT=operation:kind[,…]`, such as `read:EIO`, `read:STALL`
/// or `read:SLOW`.
///
/// Read once per process. The real system cannot be made to fail a read with EIO, to hang in one
/// as on a dead NFS server, or to answer each slowly as a busy network disk does, on demand in a
/// test; this stands in for exactly that, and for nothing else. (A slow disk keeps a scan at work
/// long enough for a test to act meanwhile, whatever the machine's speed, with a few small files.)
enum Fault {
    enum Kind {
        case error(Errno)
        /// The call never returns.
        case stall
        /// The call waits `slowness` first.
        case slow
    }

    /// How long a `slow` call waits, in microseconds.
    static let slowness: UInt32 = 20_000

    private static let table: [String: Kind] = {
        guard let text = getenv("TESSERA_FAULT").map({ String(cString: $0) }), !text.isEmpty else { return [:] }
        let kinds: [String: Kind] = [
            "ENOSPC": .error(.noSpace), "EIO": .error(.ioError), "EACCES": .error(.permissionDenied),
            "EDQUOT": .error(.diskQuotaExceeded), "STALL": .stall, "SLOW": .slow,
        ]
        var table: [String: Kind] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: ":")
            if parts.count == 2, let kind = kinds[String(parts[1])] { table[String(parts[0])] = kind }
        }
        return table
    }()

    static func injected(for operation: String) -> Kind? {
        table.isEmpty ? nil : table[operation]
    }

    /// Blocks the calling thread for good, as a read from a dead network mount does.
    static func hang() -> Never {
        while true { sleep(3600) }
    }
}

/// A point in a protocol where a test must stop a process (`TESSERA_FAULT=NAME:STALL`): a cluster
/// worker between storing a file's renditions and recording them, where a real crash can land
/// but no test could time one.
public enum FaultPoint {
    /// Whether `TESSERA_FAULT` stalls `name`.
    public static func stalls(_ name: String) -> Bool {
        if case .stall = Fault.injected(for: name) { return true }
        return false
    }

    /// Blocks the calling thread for good when `TESSERA_FAULT` stalls `name`.
    public static func stallIfInjected(_ name: String) {
        if stalls(name) { Fault.hang() }
    }
}
