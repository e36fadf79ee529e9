public import SystemPackage
public import TesseraFacts
public import TesseraSystem

extension FileReader {
    /// No photo Tessera reads is this large; bigger files are refused before any decoding.
    ///
    /// Videos have no such limit: FFmpeg reads them through their index, never whole.
    public static let maximumPhotoSize: Int64 = 2 << 30

    /// Opens the photo at `path` and runs `body` with a reader; the file is closed on every path.
    ///
    /// - Throws: `PhotoError` with `.notAFile` for FIFOs, devices and the like, `.vanished`,
    ///   `.permission` or `.io` when the file cannot be opened, `.tooLarge` for a file past
    ///   `maximumPhotoSize` that is not a video (known by its first bytes), and whatever
    ///   `body` throws.
    public static func withPhoto<Result>(
        at path: FilePath, followSymlinks: Bool = true, _ body: (borrowing FileReader) throws(PhotoError) -> Result
    ) throws(PhotoError) -> Result {
        try withFile(at: path, followSymlinks: followSymlinks, opening: { PhotoError($0) }) {
            (reader) throws(PhotoError) -> Result in
            if reader.size > maximumPhotoSize && !ImageFormat.identify(reader.prefix).isVideo {
                throw PhotoError(
                    .tooLarge, path: path,
                    "file of \(ByteCount(reader.size)) is larger than any photo Tessera reads "
                        + "(\(ByteCount(maximumPhotoSize)))")
            }
            return try body(reader)
        }
    }

    /// `read(at:count:)`, failing as the photo's error.
    public func photoBytes(at offset: Int64, count: Int) throws(PhotoError) -> [UInt8] {
        do { return try read(at: offset, count: count) } catch { throw PhotoError(error) }
    }

    /// `bytes(at:count:what:)`, failing as the photo's error (`truncated` names `what`).
    func photoBytes(at offset: Int64, count: Int, what: String) throws(PhotoError) -> ArraySlice<UInt8> {
        do { return try bytes(at: offset, count: count, what: what) } catch { throw PhotoError(error) }
    }

    /// `boxes(from:to:accept:)`, failing as the photo's error.
    func photoBoxes(
        from start: Int64 = 0, to limit: Int64? = nil, accept: (ISOBox) -> Bool = { _ in true }
    ) throws(PhotoError) -> ISOBox.List {
        do { return try boxes(from: start, to: limit, accept: accept) } catch { throw PhotoError(error) }
    }

    /// `contentHash()`, failing as the photo's error.
    public func photoContentHash() throws(PhotoError) -> UInt64 {
        do { return try contentHash() } catch { throw PhotoError(error) }
    }
}

extension PhotoError {
    /// The error for a file that could not be read.
    public init(_ error: FileReadError) {
        switch error.kind {
        case .notRegularFile(let type): self.init(.notAFile, path: error.path, "not a regular file (\(type))")
        case .system(let failure): self.init(failure, path: error.path)
        case .truncated(let what): self.init(.truncated, path: error.path, "file ends inside \(what)")
        }
    }

    /// The error for a failed system call: vanished, permission or I/O.
    init(_ failure: SystemError, path: FilePath) {
        let code: Code = failure.isVanished ? .vanished : failure.isPermission ? .permission : .io
        self.init(code, path: path, failure.reason)
    }
}

/// A byte count for people: "272 KiB", "6.0 GiB".
struct ByteCount: CustomStringConvertible {
    let bytes: Int64
    init(_ bytes: Int64) { self.bytes = bytes }

    var description: String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) bytes" }
        return value >= 10 ? "\(Int(value.rounded())) \(units[unit])" : "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
