public import SystemPackage
import TesseraMetadata
public import TesseraSystem

/// The on-disk thumbnail cache: one directory per size, files named by a stable key.
///
/// Layout: `<root>/<size>/<first two characters of key>/<key>.<ext>`. The
/// two-character fan-out keeps directories small in libraries of millions.
/// Every write goes to a temporary file in the target directory and is then
/// renamed over the target, so a reader sees either the old file, the new
/// one, or none: never a partial thumbnail, even after `kill -9`.
public struct ThumbnailCache: Sendable {
    public let root: FilePath

    public init(root: FilePath) {
        self.root = root
    }

    /// Where the thumbnail of `key` at `size` lives.
    public func path(key: String, size: Int, format: ThumbnailOptions.Format) -> FilePath {
        let fanOut = String(key.prefix(2))
        return root.appending("\(size)").appending(fanOut).appending("\(key).\(format.fileExtension)")
    }

    /// Writes a thumbnail atomically.
    ///
    /// - Throws: `SystemError` naming the path (a full disk says so); nothing partial is left behind.
    public func write(_ bytes: [UInt8], to path: FilePath) throws(SystemError) {
        try FileSystem.writeAtomically(bytes, to: path)
    }

    /// Whether every one of `paths` exists.
    public func contains(_ paths: [FilePath]) -> Bool {
        paths.allSatisfy { (try? FileSystem.status(of: $0)) != nil }
    }

    /// Deletes every thumbnail of `keys`, at every size and format present in the cache.
    public func remove(keys: some Sequence<String>) {
        let sizes = (FileSystem.entries(of: root) ?? []).map { String(decoding: $0, as: UTF8.self) }.filter { Int($0) != nil }
        for key in keys {
            for size in sizes {
                for format in ThumbnailOptions.Format.allCases {
                    try? FileSystem.removeFile(
                        root.appending(size).appending(String(key.prefix(2))).appending("\(key).\(format.fileExtension)"))
                }
            }
        }
    }

    /// Deletes every file under the cache that `referenced` does not claim, and every
    /// temporary file an interrupted write left: what a crash between writing thumbnails
    /// and committing their rows leaves behind.
    ///
    /// Works one fan-out directory at a time, so memory stays small at any cache size.
    /// - Parameter referenced: which of the given keys some row still refers to.
    /// - Returns: how many files were deleted.
    @discardableResult
    public func sweep(referenced: ([String]) -> Set<String>?) -> Int {
        var removed = 0
        for size in FileSystem.entries(of: root) ?? [] where Int(String(decoding: size, as: UTF8.self)) != nil {
            let sizeDirectory = root.appending(FilePath.Component(String(decoding: size, as: UTF8.self)) ?? "0")
            for fanOut in FileSystem.entries(of: sizeDirectory) ?? [] {
                let directory = FilePath(rawBytes: sizeDirectory.rawBytes + [UInt8(ascii: "/")] + fanOut)
                var files: [(name: [UInt8], key: String)] = []
                for name in FileSystem.entries(of: directory) ?? [] {
                    if name.starts(with: Array(FileSystem.temporaryPrefix.utf8)) {
                        try? FileSystem.removeFile(FilePath(rawBytes: directory.rawBytes + [UInt8(ascii: "/")] + name))
                        removed += 1
                        continue
                    }
                    let key = name.split(separator: UInt8(ascii: "."), maxSplits: 1).first.map { String(decoding: $0, as: UTF8.self) }
                    if let key { files.append((name, key)) }
                }
                // A failed lookup deletes nothing: better a leaked file than a lost thumbnail.
                guard !files.isEmpty, let kept = referenced(Array(Set(files.map(\.key)))) else { continue }
                for file in files where !kept.contains(file.key) {
                    try? FileSystem.removeFile(FilePath(rawBytes: directory.rawBytes + [UInt8(ascii: "/")] + file.name))
                    removed += 1
                }
            }
        }
        return removed
    }
}
