import Foundation
import Glibc
public import SystemPackage
public import TesseraMetadata

/// The on-disk thumbnail cache: one directory per size, files named by a stable key.
///
/// Layout: `<root>/<size>/<first two characters of key>/<key>.<ext>`. The
/// two-character fan-out keeps directories small in libraries of millions.
/// Every write goes to a temporary file in the target directory and is then
/// renamed over the target, so a reader sees either the old file, the new
/// one, or none: never a partial thumbnail, even after `kill -9`.
public struct ThumbnailCache: Sendable {
    public let root: FilePath
    /// Prefix of temporary files; anything named so is an interrupted write.
    public static let temporaryPrefix = ".tmp-"

    public init(root: FilePath) {
        self.root = root
    }

    /// Where the thumbnail of `key` at `size` lives.
    public func path(key: String, size: Int, format: ThumbnailOptions.Format) -> FilePath {
        let fanOut = String(key.prefix(2))
        return root.appending("\(size)").appending(fanOut).appending("\(key).\(format.fileExtension)")
    }

    /// Writes `bytes` to `path` atomically, creating missing directories.
    ///
    /// - Throws: `PhotoError.io` naming `path`; no partial file is left behind.
    public static func writeAtomically(_ bytes: [UInt8], to path: FilePath) throws(PhotoError) {
        let directory = path.removingLastComponent()
        try createDirectories(directory)
        let temporary = directory.appending(
            "\(temporaryPrefix)\(path.lastComponent?.string ?? "thumb")-\(UInt64.random(in: 0...UInt64.max))")
        do {
            let descriptor = try FileDescriptor.open(
                temporary, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            do {
                try descriptor.closeAfter {
                    _ = try descriptor.writeAll(bytes)
                }
            } catch {
                _ = temporary.withPlatformString(unlink)
                throw error
            }
            let renamed = temporary.withPlatformString { from in
                path.withPlatformString { to in rename(from, to) }
            }
            guard renamed == 0 else {
                let failure = Errno(rawValue: errno)
                _ = temporary.withPlatformString(unlink)
                throw failure
            }
        } catch {
            throw PhotoError(.io, path: path, "cannot write the thumbnail", cause: "\(error)")
        }
    }

    /// `mkdir -p`: creates `directory` and its missing parents.
    public static func createDirectories(_ directory: FilePath) throws(PhotoError) {
        var current = FilePath(root: directory.root)
        for component in directory.components {
            current.append(component)
            if current.withPlatformString({ mkdir($0, 0o755) }) != 0 && errno != EEXIST {
                throw PhotoError(.io, path: current, "cannot create the directory", cause: "\(Errno(rawValue: errno))")
            }
        }
    }

    /// Deletes every thumbnail of `keys`, at every size and format present in the cache.
    public func remove(keys: Set<String>) {
        guard !keys.isEmpty,
              let sizes = try? FileManager.default.contentsOfDirectory(atPath: root.string)
        else { return }
        for key in keys {
            for size in sizes where Int(size) != nil {
                for format in ThumbnailOptions.Format.allCases {
                    let path = root.appending(size).appending(String(key.prefix(2))).appending("\(key).\(format.fileExtension)")
                    _ = path.withPlatformString(unlink)
                }
            }
        }
    }

    /// Deletes temporary files that interrupted writes left anywhere under `root`.
    public static func removeTemporaryFiles(under root: FilePath) {
        guard let walker = FileManager.default.enumerator(atPath: root.string) else { return }
        while let relative = walker.nextObject() as? String {
            if (relative as NSString).lastPathComponent.hasPrefix(temporaryPrefix) {
                _ = root.appending(relative).withPlatformString(unlink)
            }
        }
    }
}
