import Glibc
public import SystemPackage

/// An exclusive advisory lock (`flock`) on a file, held while this object lives.
///
/// The kernel releases the lock when the process ends, however it ends, so a
/// crashed holder never leaves a stale lock. The file also carries a line of
/// text from its holder (who it is), which anyone can read without the lock.
public final class FileLock: Sendable {
    public let path: FilePath
    private let descriptor: Int32

    /// Opens (creating when needed) the lock file at `path`; does not lock yet.
    public init(path: FilePath) throws(SystemError) {
        self.path = path
        descriptor = try Syscall.retrying("open", path: path) {
            path.withPlatformString { open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        }
    }

    deinit { close(descriptor) }

    /// Takes the lock if no one holds it; false when another process does.
    public func tryLock() throws(SystemError) -> Bool {
        do {
            _ = try Syscall.retrying("lock", path: path) { flock(descriptor, LOCK_EX | LOCK_NB) }
            return true
        } catch  where error.errno == .wouldBlock {
            return false
        }
    }

    /// Takes the lock, waiting for as long as another process holds it.
    public func lock() throws(SystemError) {
        _ = try Syscall.retrying("lock", path: path) { flock(descriptor, LOCK_EX) }
    }

    /// Replaces the holder's note in the file (call while holding the lock).
    public func writeNote(_ text: String) throws(SystemError) {
        _ = try Syscall.retrying("truncate", path: path) { ftruncate(descriptor, 0) }
        let bytes = Array(text.utf8)
        _ = try Syscall.retrying("write", path: path) {
            bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    /// The holder's note in the lock file at `path`, if any (no lock needed).
    public static func readNote(at path: FilePath) -> String? {
        guard let file = try? RegularFile(opening: path, followSymlinks: false) else { return nil }
        let size = Int(min(file.status.size, 4096))
        var bytes = [UInt8](repeating: 0, count: size)
        let count = (try? bytes.withUnsafeMutableBytes { try file.read(at: 0, into: $0) }) ?? 0
        return count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : nil
    }
}
