public import SystemPackage

/// Why a file could not be read: the path, and what went wrong.
public struct FileReadError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The path names something else: a FIFO, a device, a directory, a link not followed.
        case notRegularFile(FileType)
        /// A system call failed.
        case system(SystemError)
        /// The file ends before the bytes asked for; `what` names them for the user.
        case truncated(what: String)
    }

    public let path: FilePath
    public let kind: Kind

    public init(path: FilePath, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .notRegularFile(let type): "\(path): not a regular file (\(type))"
        case .system(let error): error.description
        case .truncated(let what): "\(path): file ends inside \(what)"
        }
    }
}

/// Positional, read-only access to a file's bytes, reading only what is asked for.
///
/// Header parsers read a few hundred bytes to a few hundred kilobytes from a
/// multi-megabyte photo. The first 64 KiB are read once on open, since nearly
/// every header fits in them; anything beyond is a `pread` at an absolute
/// offset. Nothing ever holds a whole file in memory: decoders pull bytes
/// through a `ByteStream`, and the content hash streams. The file is opened
/// without blocking and must be a regular file (see `RegularFile`).
public struct FileReader: ~Copyable {
    static let prefixLength = 64 * 1024

    /// The open file, or nil when the reader serves bytes already in memory (all in `prefix`).
    private let file: RegularFile?
    public let path: FilePath
    /// The file's size when it was opened.
    public let size: Int64
    /// The file's modification time when it was opened.
    public let mtime: FileTime
    /// What `fstat` said of the open file; nil for bytes in memory.
    public let status: FileStatus?
    /// The file's first bytes (all of it when shorter than `prefixLength`).
    public private(set) var prefix: [UInt8] = []

    /// Opens `path`, runs `body` with a reader, and closes the file on every path.
    ///
    /// - Parameters:
    ///   - followSymlinks: false refuses a symbolic link at `path` (the scanner has already
    ///     decided about links; a user naming a file on the command line has not).
    public static func withFile<Result, Failure: Error>(
        at path: FilePath, followSymlinks: Bool = true, opening failure: (FileReadError) -> Failure,
        _ body: (borrowing FileReader) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let file: RegularFile
        do {
            file = try RegularFile(opening: path, followSymlinks: followSymlinks)
        } catch {
            throw failure(error)
        }
        let status = file.status
        var reader = FileReader(
            file: file, path: path, size: status.size,
            mtime: FileTime(seconds: status.mtimeSeconds, nanoseconds: status.mtimeNanoseconds), status: status)
        do {
            reader.prefix = try reader.read(at: 0, count: Int(min(status.size, Int64(prefixLength))))
        } catch {
            throw failure(error)
        }
        return try body(reader)
    }

    /// Runs `body` with a reader over `contents`, a whole file already in memory.
    public static func withBytes<Result, Failure: Error>(
        _ contents: [UInt8], path: FilePath, mtime: FileTime,
        _ body: (borrowing FileReader) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var reader = FileReader(file: nil, path: path, size: Int64(contents.count), mtime: mtime, status: nil)
        reader.prefix = contents
        return try body(reader)
    }

    private init(file: RegularFile?, path: FilePath, size: Int64, mtime: FileTime, status: FileStatus?) {
        self.file = file
        self.path = path
        self.size = size
        self.mtime = mtime
        self.status = status
    }

    /// The path that reopens exactly this file through its descriptor, for libraries that open
    /// files themselves; nil for a reader over bytes in memory (whose `prefix` is all of them).
    public var descriptorPath: FilePath? { file?.descriptorPath }

    /// Reads into `buffer` from `offset`: the bytes read, fewer only at the end of the file.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(FileReadError) -> Int {
        try Self.read(file: file, prefix: prefix, path: path, at: offset, into: buffer)
    }

    /// Reads from the prefix when it holds the range (or when there is no file), else from the file.
    fileprivate static func read(
        file: RegularFile?, prefix: [UInt8], path: FilePath, at offset: Int64,
        into buffer: UnsafeMutableRawBufferPointer
    ) throws(FileReadError) -> Int {
        guard offset >= 0, !buffer.isEmpty else { return 0 }
        if offset < Int64(prefix.count) && (file == nil || offset + Int64(buffer.count) <= Int64(prefix.count)) {
            let start = Int(offset)
            let count = min(buffer.count, prefix.count - start)
            prefix.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + count]))
            }
            return count
        }
        guard let file else { return 0 }
        do {
            return try file.read(at: offset, into: buffer)
        } catch {
            throw FileReadError(path: path, .system(error))
        }
    }

    /// Up to `count` bytes starting at `offset`; fewer only at the end of the file.
    public func read(at offset: Int64, count: Int) throws(FileReadError) -> [UInt8] {
        guard count > 0, offset >= 0, offset < size else { return [] }
        let wanted = Int(min(Int64(count), size - offset))
        var filled = 0
        let bytes = try [UInt8](unsafeUninitializedCapacity: wanted) { (buffer, initialized) throws(FileReadError) in
            filled = try read(at: offset, into: UnsafeMutableRawBufferPointer(buffer))
            initialized = filled
        }
        return bytes
    }

    /// Exactly `count` bytes at `offset`, or a `truncated` error naming `what`.
    public func readExactly(at offset: Int64, count: Int, what: String) throws(FileReadError) -> [UInt8] {
        let bytes = try read(at: offset, count: count)
        guard bytes.count == count else {
            throw FileReadError(path: path, .truncated(what: what))
        }
        return bytes
    }

    /// Exactly `count` bytes at `offset`, from the prefix when it holds them, or `truncated` naming `what`.
    public func bytes(at offset: Int64, count: Int, what: String) throws(FileReadError) -> ArraySlice<UInt8> {
        if offset >= 0, offset + Int64(count) <= Int64(prefix.count) {
            let start = Int(offset)
            return prefix[start..<start + count]
        }
        return try readExactly(at: offset, count: count, what: what)[...]
    }

    /// XXH64 of the whole file, read in 1 MiB steps: memory stays the same for any file size.
    public func contentHash() throws(FileReadError) -> UInt64 {
        var hasher = XXH64.Hasher()
        let step = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: step, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while offset < size {
            let count = try read(at: offset, into: buffer)
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            offset += Int64(count)
        }
        return hasher.finalize()
    }

    /// A stream of the file's bytes from the start, for a decoder that pulls them in order.
    public func stream() -> ByteStream {
        ByteStream(file: file, prefix: prefix, path: path, base: 0, size: size)
    }

    /// A stream of `count` bytes from `offset`, as if they were a file: a video inside a photo.
    public func stream(from offset: Int64, count: Int64) -> ByteStream {
        let start = min(max(offset, 0), size)
        return ByteStream(file: file, prefix: prefix, path: path, base: start, size: min(max(count, 0), size - start))
    }
}

/// The bytes of one file in order, for C decoders' read callbacks.
///
/// It keeps the open file alive while it exists. A read error ends the stream early;
/// the decoder then reports a truncated file.
public final class ByteStream {
    private let file: RegularFile?
    private let prefix: [UInt8]
    public let path: FilePath
    /// Where in the file the stream's first byte is.
    private let base: Int64
    /// Where the next read starts.
    public private(set) var offset: Int64 = 0
    /// Bytes the stream delivers in all.
    public let size: Int64

    fileprivate init(file: RegularFile?, prefix: [UInt8], path: FilePath, base: Int64, size: Int64) {
        self.file = file
        self.prefix = prefix
        self.path = path
        self.base = base
        self.size = size
    }

    /// Moves where the next read starts (clamped to the file), for decoders that jump, as a
    /// video demuxer does between its index and its frames.
    public func seek(to position: Int64) {
        offset = min(max(position, 0), size)
    }

    /// Fills `buffer` with the next bytes: how many, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard offset < size else { return 0 }
        let count = Int(min(Int64(buffer.count), size - offset))
        let got =
            (try? FileReader.read(
                file: file, prefix: prefix, path: path, at: base + offset,
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))) ?? 0
        offset += Int64(got)
        return got
    }
}
