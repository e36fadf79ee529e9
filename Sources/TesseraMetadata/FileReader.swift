import Glibc
public import SystemPackage

/// Positional, read-only access to a file's bytes, reading only what is asked for.
///
/// Header parsers read a few hundred bytes to a few hundred kilobytes from a
/// multi-megabyte photo. The first 64 KiB are read once on open, since nearly
/// every JPEG and PNG header fits in them; anything beyond is a `pread` at an
/// absolute offset, and nothing else of the file is touched.
public struct FileReader: ~Copyable {
    static let prefixLength = 64 * 1024

    /// The open file, or nil when the reader serves bytes already in memory (all in `prefix`).
    private let descriptor: FileDescriptor?
    public let path: FilePath
    /// The file's size when it was opened.
    public let size: Int64
    /// The file's modification time when it was opened.
    public let mtime: FileTime
    /// The file's first bytes (all of it when shorter than `prefixLength`).
    public private(set) var prefix: [UInt8] = []

    /// Opens `path`, runs `body` with a reader, and closes the file on every path.
    ///
    /// - Throws: `PhotoError.io` when the file cannot be opened or stat'ed,
    ///   and whatever `body` throws.
    public static func withFile<Result>(
        at path: FilePath, _ body: (borrowing FileReader) throws(PhotoError) -> Result
    ) throws(PhotoError) -> Result {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        } catch {
            throw PhotoError(.io, path: path, "cannot open: \(error)")
        }
        defer { try? descriptor.close() }
        let stat: Stat
        do {
            stat = try descriptor.stat()
        } catch {
            throw PhotoError(.io, path: path, "cannot stat: \(error)")
        }
        let mtime = FileTime(seconds: Int64(stat.st_mtim.tv_sec), nanoseconds: Int(stat.st_mtim.tv_nsec))
        var reader = FileReader(descriptor: descriptor, path: path, size: stat.size, mtime: mtime)
        reader.prefix = try reader.read(at: 0, count: Int(min(stat.size, Int64(prefixLength))))
        return try body(reader)
    }

    /// Runs `body` with a reader over `contents`, a whole file already in memory.
    public static func withBytes<Result>(
        _ contents: [UInt8], path: FilePath, mtime: FileTime,
        _ body: (borrowing FileReader) throws(PhotoError) -> Result
    ) throws(PhotoError) -> Result {
        var reader = FileReader(descriptor: nil, path: path, size: Int64(contents.count), mtime: mtime)
        reader.prefix = contents
        return try body(reader)
    }

    /// The whole file: the prefix already read plus everything after it.
    public func contents() throws(PhotoError) -> [UInt8] {
        guard size > Int64(prefix.count) else { return prefix }
        return prefix + (try read(at: Int64(prefix.count), count: Int(size) - prefix.count))
    }

    private init(descriptor: FileDescriptor?, path: FilePath, size: Int64, mtime: FileTime) {
        self.descriptor = descriptor
        self.path = path
        self.size = size
        self.mtime = mtime
    }

    /// Up to `count` bytes starting at `offset`; fewer only at the end of the file.
    public func read(at offset: Int64, count: Int) throws(PhotoError) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        guard let descriptor else {
            guard offset < Int64(prefix.count) else { return [] }
            let start = Int(offset)
            return Array(prefix[start..<min(prefix.count, start + count)])
        }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got: Int
            do {
                got = try buffer.withUnsafeMutableBytes { raw in
                    try descriptor.read(
                        fromAbsoluteOffset: offset + Int64(filled),
                        into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                }
            } catch {
                throw PhotoError(.io, path: path, "read failed: \(error)")
            }
            if got == 0 { break }
            filled += got
        }
        buffer.removeLast(count - filled)
        return buffer
    }

    /// Exactly `count` bytes at `offset`, or a `truncated` error naming `what`.
    public func readExactly(at offset: Int64, count: Int, what: String) throws(PhotoError) -> [UInt8] {
        let bytes = try read(at: offset, count: count)
        guard bytes.count == count else {
            throw PhotoError(.truncated, path: path, "file ends inside \(what)")
        }
        return bytes
    }

    /// Exactly `count` bytes at `offset`, from the prefix when it holds them, or `truncated` naming `what`.
    func bytes(at offset: Int64, count: Int, what: String) throws(PhotoError) -> ArraySlice<UInt8> {
        if offset >= 0, offset + Int64(count) <= Int64(prefix.count) {
            let start = Int(offset)
            return prefix[start..<start + count]
        }
        return try readExactly(at: offset, count: count, what: what)[...]
    }
}

extension Collection<UInt8> {
    /// The big-endian unsigned integer in `width` bytes starting `offset` bytes in.
    func bigEndian(_ width: Int, at offset: Int = 0) -> UInt32 {
        var value: UInt32 = 0
        var index = self.index(startIndex, offsetBy: offset)
        for _ in 0..<width {
            value = value << 8 | UInt32(self[index])
            index = self.index(after: index)
        }
        return value
    }
}
