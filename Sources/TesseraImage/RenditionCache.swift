public import SystemPackage
public import TesseraFacts
public import TesseraSystem
public import TesseraVideo

/// The on-disk rendition cache: one directory per kind and size, files named by a stable key.
///
/// Layout: `<root>/<size>/<xx>/<key>.<ext>` for squares (the layout thumbnails always had,
/// so an index migrated from before fits keeps its files) and `<root>/fit-<size>/<xx>/<key>.<ext>`
/// for fits, `xx` being the key's first two characters: the fan-out keeps directories small
/// in libraries of millions. Every write goes to a temporary file in the target directory
/// and is then renamed over the target, so a reader sees either the old file, the new one,
/// or none: never a partial rendition, even after `kill -9`.
public struct RenditionCache: Sendable {
    public let root: FilePath

    public init(root: FilePath) {
        self.root = root
    }

    /// Where the rendition `spec` of `key` lives.
    public func path(key: String, spec: RenditionSpec, format: ImageFormat) -> FilePath {
        root.appending(Self.directoryName(spec)).appending(String(key.prefix(2))).appending(
            "\(key).\(format.fileExtension)")
    }

    /// Where the web rendition of the video whose content is `key` lives, made with `settings`:
    /// `<root>/web-<short side>/<xx>/<key>.mp4`.
    public func webVideoPath(key: String, settings: WebVideo.Settings) -> FilePath {
        webVideoFolder(settings).appending(String(key.prefix(2))).appending("\(key).mp4")
    }

    private func webVideoFolder(_ settings: WebVideo.Settings) -> FilePath {
        root.appending("web-\(settings.shortSide)")
    }

    /// Removes what web videos interrupted by a crash left (their temporary files), in the
    /// folders of `settings`: one is made at a time, by the index's one writer, so none of
    /// them is being written when that writer is about to make one.
    public func removeInterruptedWebVideos(settings: WebVideo.Settings) {
        let folder = webVideoFolder(settings)
        for fanOut in FileSystem.entries(of: folder) ?? [] {
            let directory = FilePath(rawBytes: folder.rawBytes + [UInt8(ascii: "/")] + fanOut)
            for name in FileSystem.entries(of: directory) ?? []
            where name.starts(with: Array(FileSystem.temporaryPrefix.utf8)) {
                try? FileSystem.removeFile(FilePath(rawBytes: directory.rawBytes + [UInt8(ascii: "/")] + name))
            }
        }
    }

    /// Writes a rendition atomically.
    ///
    /// - Throws: `SystemError` naming the path (a full disk says so); nothing partial is left behind.
    public func write(_ bytes: [UInt8], to path: FilePath) throws(SystemError) {
        try FileSystem.writeAtomically(bytes, to: path)
    }

    /// Whether the file at `path` exists.
    public func contains(_ path: FilePath) -> Bool {
        (try? FileSystem.status(of: path)) != nil
    }

    /// Deletes the files at `paths`; one already gone counts as deleted (see `FileSystem.removeFile`).
    ///
    /// - Returns: the paths that are gone now (the others could not be deleted: a read-only
    ///   or vanished cache).
    public func remove(_ paths: some Sequence<String>) -> [String] {
        paths.filter { (try? FileSystem.removeFile(FilePath($0))) != nil }
    }

    /// Deletes every file under the cache that `referenced` does not claim, and every
    /// temporary file an interrupted write left: what a crash between writing renditions
    /// and committing their rows leaves behind.
    ///
    /// Works one fan-out directory at a time, so memory stays small at any cache size.
    /// - Parameter referenced: which of the given paths some row still refers to; nil when
    ///   that cannot be told now (nothing is deleted then).
    /// - Returns: how many files were deleted.
    @discardableResult
    public func sweep(referenced: ([String]) -> Set<String>?) -> Int {
        var removed = 0
        for name in FileSystem.entries(of: root) ?? [] {
            let text = String(decoding: name, as: UTF8.self)
            guard Self.spec(directoryName: text) != nil || Self.isWebVideoDirectory(text) else { continue }
            let specDirectory = root.appending(text)
            for fanOut in FileSystem.entries(of: specDirectory) ?? [] {
                let directory = FilePath(rawBytes: specDirectory.rawBytes + [UInt8(ascii: "/")] + fanOut)
                var files: [String] = []
                for name in FileSystem.entries(of: directory) ?? [] {
                    let path = FilePath(rawBytes: directory.rawBytes + [UInt8(ascii: "/")] + name)
                    if name.starts(with: Array(FileSystem.temporaryPrefix.utf8)) {
                        if (try? FileSystem.removeFile(path)) != nil { removed += 1 }
                    } else {
                        files.append(path.string)
                    }
                }
                // A failed lookup deletes nothing: better a leaked file than a lost rendition.
                guard !files.isEmpty, let kept = referenced(files) else { continue }
                for file in files where !kept.contains(file) {
                    if (try? FileSystem.removeFile(FilePath(file))) != nil { removed += 1 }
                }
            }
        }
        return removed
    }

    static func directoryName(_ spec: RenditionSpec) -> String {
        switch spec.kind {
        case .square: "\(spec.size)"
        case .fit: "fit-\(spec.size)"
        }
    }

    /// Whether a cache directory holds web videos (`webVideoPath`).
    static func isWebVideoDirectory(_ name: String) -> Bool {
        name.hasPrefix("web-") && Int(name.dropFirst(4)).map { $0 > 0 } == true
    }

    /// The spec a cache directory holds; nil for anything else found there.
    static func spec(directoryName name: String) -> RenditionSpec? {
        if name.hasPrefix("fit-"), let size = Int(name.dropFirst(4)), size > 0 { return .fit(size) }
        if let size = Int(name), size > 0 { return .square(size) }
        return nil
    }
}
