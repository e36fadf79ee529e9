import Synchronization
import SystemPackage
import TesseraIndex
import TesseraSystem

/// Which files were being read when a scan died, so that no file can kill every scan.
///
/// Beside the index, `<index>.reading` holds one slot per render worker: a worker writes the
/// file it is about to read into its slot and clears the slot when done. A scan that ends any
/// way but a crash leaves every slot clear. After a crash (a trap in a parser, the OOM killer,
/// SIGKILL) the next scan finds the files that were in hand:
/// - read among others, each is only a *suspect* (another worker's file may have been the one):
///   it is read again alone, after the others;
/// - read alone, it is the *culprit*: it is recorded as failed, with that reason, and skipped
///   until it changes (or `scan --full`).
///
/// Suspects and culprits stay in slots of their own after the worker slots until they are
/// settled, so a scan that dies before settling them leaves them for the next. Only the
/// index's writer (the holder of its lock) uses the journal.
final class ReadJournal: Sendable {
    /// A file read when a scan died, and how.
    struct Entry: Sendable {
        var path: FilePath
        var root: FilePath
        var identity: FileIdentity
        var sidecar: SidecarIdentity?
        /// Read alone: it is the culprit.
        var alone: Bool
        /// The slot it is kept in until it is settled.
        var slot: Int
    }

    /// A slot: a state byte (0 clear, 1 read among others, 2 read alone), then the file.
    static let slotSize = 8192
    /// The most slots read back: workers, the solo slot, and what earlier crashes left.
    static let maxSlots = 1024
    private static let clear: [UInt8] = [0]

    private let file: SlotFile
    /// The solo read's slot: after the workers'.
    let soloSlot: Int
    /// Unsettled entries from earlier crashes, by path.
    private let pending: Mutex<[FilePath: Entry]>

    /// Opens the journal of `index` and takes over what a crashed scan left in it.
    init(index: FilePath, workers: Int) throws(SystemError) {
        file = try SlotFile(path: FilePath(index.string + ".reading"), slotSize: Self.slotSize)
        soloSlot = workers
        var found: [FilePath: Entry] = [:]
        for (number, bytes) in try file.slots(limit: Self.maxSlots).enumerated() {
            guard let entry = Self.decode(bytes, slot: number) else { continue }
            // Read alone outranks read among others.
            if found[entry.path]?.alone != true { found[entry.path] = entry }
        }
        // Every slot clear: the last scan ended well, and nothing need be written.
        guard !found.isEmpty else {
            pending = Mutex([:])
            return
        }
        // Laid out anew: the worker and solo slots clear, each entry in a slot of its own after them.
        try file.clear()
        var kept: [FilePath: Entry] = [:]
        for (number, var entry) in found.values.sorted(by: { $0.path.string < $1.path.string }).enumerated() {
            entry.slot = workers + 1 + number
            guard let bytes = Self.encode(entry) else { continue }  // it was decoded from a slot: it fits one
            try file.write(bytes, slot: entry.slot)
            kept[entry.path] = entry
        }
        pending = Mutex(kept)
    }

    /// What a crashed scan left about the file `job` reads, if its identity is still the same.
    func entry(for job: LibraryScanner.Job) -> Entry? {
        pending.withLock { $0[job.path] }.flatMap { $0.identity == job.identity ? $0 : nil }
    }

    /// Whether any crash left files to settle.
    var isEmpty: Bool { pending.withLock { $0.isEmpty } }

    /// Records that `job`'s file is being read in `slot`, alone or among others.
    func begin(_ job: LibraryScanner.Job, slot: Int, alone: Bool) throws(SystemError) {
        let entry = Entry(
            path: job.path, root: job.root, identity: job.identity, sidecar: job.sidecar, alone: alone, slot: slot)
        guard let bytes = Self.encode(entry) else { return }  // a path too long for a slot goes unrecorded
        try file.write(bytes, slot: slot)
    }

    /// Records that the read in `slot` is over.
    func end(slot: Int) throws(SystemError) {
        try file.write(Self.clear, slot: slot)
    }

    /// Forgets everything crashes left: a scan that completed met each such file (and read or
    /// recorded it) or found it changed or gone.
    func settleAll() throws(SystemError) {
        let slots = pending.withLock { pending in
            defer { pending.removeAll() }
            return pending.values.map(\.slot)
        }
        for slot in slots { try file.write(Self.clear, slot: slot) }
    }

    /// Forgets what a crash left about `path`: it has been read or recorded now.
    func settle(_ path: FilePath) throws(SystemError) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: path) }) else { return }
        try file.write(Self.clear, slot: entry.slot)
    }

    // Layout after the state byte and three reserved: device, inode, size, mtime (8 bytes each,
    // little-endian); a sidecar flag, its size and mtime; the lengths of the root, the path and
    // the sidecar's name (2 bytes each); then the path (the root its first bytes) and the name.
    private static let fixed = 4 + 32 + 17 + 6

    static func encode(_ entry: Entry) -> [UInt8]? {
        let path = entry.path.rawBytes, name = entry.sidecar?.name ?? []
        let rootLength = entry.root.rawBytes.count
        guard fixed + path.count + name.count <= slotSize, rootLength <= path.count else { return nil }
        var bytes: [UInt8] = [entry.alone ? 2 : 1, 0, 0, 0]
        func append(_ value: UInt64, _ width: Int) {
            for shift in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
        }
        append(entry.identity.device, 8)
        append(entry.identity.inode, 8)
        append(UInt64(bitPattern: entry.identity.size), 8)
        append(UInt64(bitPattern: entry.identity.mtimeNanoseconds), 8)
        bytes.append(entry.sidecar == nil ? 0 : 1)
        append(UInt64(bitPattern: entry.sidecar?.stamp.size ?? 0), 8)
        append(UInt64(bitPattern: entry.sidecar?.stamp.mtimeNanoseconds ?? 0), 8)
        append(UInt64(rootLength), 2)
        append(UInt64(path.count), 2)
        append(UInt64(name.count), 2)
        return bytes + path + name
    }

    /// The entry in a slot's bytes; nil for a clear slot or bytes that are not one (a torn write).
    static func decode(_ bytes: [UInt8], slot: Int) -> Entry? {
        guard bytes.count >= fixed, bytes[0] == 1 || bytes[0] == 2 else { return nil }
        func value(_ at: Int, _ width: Int) -> UInt64 {
            (0..<width).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        let rootLength = Int(value(53, 2)), pathLength = Int(value(55, 2)), nameLength = Int(value(57, 2))
        guard rootLength <= pathLength, pathLength > 0, fixed + pathLength + nameLength <= bytes.count else {
            return nil
        }
        let path = Array(bytes[fixed..<(fixed + pathLength)])
        let identity = FileIdentity(
            device: value(4, 8), inode: value(12, 8), size: Int64(bitPattern: value(20, 8)),
            mtimeNanoseconds: Int64(bitPattern: value(28, 8)))
        let sidecar =
            bytes[36] == 1
            ? SidecarIdentity(
                name: Array(bytes[(fixed + pathLength)..<(fixed + pathLength + nameLength)]),
                stamp: SidecarStamp(
                    size: Int64(bitPattern: value(37, 8)), mtimeNanoseconds: Int64(bitPattern: value(45, 8))))
            : nil
        return Entry(
            path: FilePath(rawBytes: path), root: FilePath(rawBytes: Array(path[..<rootLength])), identity: identity,
            sidecar: sidecar, alone: bytes[0] == 2, slot: slot)
    }
}
