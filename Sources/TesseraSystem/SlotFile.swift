import Glibc
public import SystemPackage

/// A small file of fixed-size slots, each overwritten in place by one writer.
///
/// Made for a journal that must outlive a crash of this process: a `pwrite` is in the kernel's
/// page cache once it returns, so what a process wrote is there for the next one however the
/// process ends (a trap, SIGKILL, the OOM killer); only a power cut can lose it, and no fsync is
/// paid per write. Each slot has one writer at a time, so writers need no lock.
public final class SlotFile: Sendable {
    public let path: FilePath
    public let slotSize: Int
    private let descriptor: Int32

    /// Opens (creating when needed) the file at `path`; a link there is refused.
    public init(path: FilePath, slotSize: Int) throws(SystemError) {
        self.path = path
        self.slotSize = slotSize
        descriptor = try Syscall.retrying("open", path: path) {
            path.withPlatformString { open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        }
    }

    deinit { close(descriptor) }

    /// Writes `bytes` (at most `slotSize`) at the start of slot `slot`.
    public func write(_ bytes: [UInt8], slot: Int) throws(SystemError) {
        precondition(bytes.count <= slotSize, "a slot's bytes outgrow the slot")
        let offset = off_t(slot) * off_t(slotSize)
        let written = try Syscall.retrying("journal-write", path: path) {
            bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset) }
        }
        guard written == bytes.count else { throw SystemError("journal-write", path: path, .noSpace) }
    }

    /// Every slot's bytes (the last one as long as the file holds), at most `limit` slots.
    public func slots(limit: Int) throws(SystemError) -> [[UInt8]] {
        var slots: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: slotSize)
        for slot in 0..<limit {
            let offset = off_t(slot) * off_t(slotSize)
            let got = try Syscall.retrying("journal-read", path: path) {
                buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            }
            if got == 0 { break }
            slots.append(Array(buffer[..<got]))
        }
        return slots
    }

    /// Empties the file: every slot reads as absent.
    public func clear() throws(SystemError) {
        _ = try Syscall.retrying("journal-write", path: path) { ftruncate(descriptor, 0) }
    }
}
