import Foundation
import SystemPackage
import TesseraSystem

/// A private album's sealed files, `private/<id>/<name>.js` in the output: each a script that
/// hands its ciphertext to the page (`tesseraSealed(name, base64)`), as a page opened from disk
/// cannot fetch; `manifest.js` (sealed too) says which plain file each name holds.
///
/// A file whose plaintext has not changed since the last build keeps its sealed file: a page
/// by its bytes' hash, a rendition by the identity of the cache file it is a hard link of.
///
/// A media file larger than `partBytes` is sealed in parts, each its own file, so that neither
/// the build nor the page holds it whole; a video in MP4 or QuickTime whose codecs browsers
/// stream is written again as an MP4 in fragments first (`FragmentedMP4`), so that the page
/// plays it part by part as it comes, and seeks to the part that holds a time.
struct SealedFolder {
    let output: OutputFolder
    let id: String
    let key: AlbumKey
    var partBytes = Self.defaultPartBytes
    /// Files sealed at once, each on a thread: encryption, base64 and writing take a core each.
    var sealers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    /// One plain file: its sealed name (its first part's) and what its plaintext was.
    struct Entry: Codable, Equatable {
        var name: String
        var change: String
        /// The parts after the first, in order, of a file sealed in parts.
        var parts: [Part]?
        /// For a video whose parts are an MP4 in fragments (the first its header): the type
        /// the page's MediaSource takes, and its length in seconds.
        var type: String?
        var seconds: Double?

        /// The names of its sealed files.
        var names: [String] { [name] + (parts ?? []).map(\.name) }
    }

    /// A part: its sealed name, and the time of its first picture, where a seek may begin.
    struct Part: Codable, Equatable {
        var name: String
        var time: Double?
    }

    /// What the page reads first: the album's first page, and every file by its path relative
    /// to the site (`albums/…`, `media/…`).
    struct Manifest: Codable, Equatable {
        var start: String?
        var files: [String: Entry]
    }

    /// The largest page sealed: a page is sealed whole, and held whole in memory about five times
    /// over (its plaintext, padded, sealed, and as base64 twice); the browser holds it whole too.
    static let largest = 128 << 20
    /// Media larger than this are sealed in parts of about this size: a few seconds of video.
    static let defaultPartBytes = 4 << 20
    /// How long writing a video again in fragments may take (it reads the whole file once).
    static let fragmentingTime = Duration.seconds(600)
    static let manifestName = "manifest"

    private var folder: String { PrivateSite.folder + "/" + id }
    private var sealer: Sealer {
        Sealer(folder: output.path(folder), album: id, key: key, partBytes: partBytes)
    }

    /// Seals the files of `folders` and `media/` in `scratch`, writes the manifest and removes
    /// the sealed files it no longer names.
    func write(
        from scratch: FilePath, folders: [String], start: String?,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(AlbumError) -> (files: Int, sealed: Int, tooLarge: Int, seconds: Double) {
        try output.directory(folder)
        let previous = manifest()
        let old = previous?.files ?? [:]
        // (the sealed files there, listed once: no stat a file to find its sealed one in place)
        let present = Set(
            (FileSystem.entries(of: output.path(folder)) ?? []).map { String(decoding: $0, as: UTF8.self) })
        var files: [(relative: String, path: FilePath)] = []
        for top in folders + ["media"] { Self.walk(scratch.appending(top), top, into: &files) }
        // (a video being written again in fragments when a build was killed: seen by no page)
        for entry in FileSystem.entries(of: scratch) ?? [] where entry.starts(with: Sealer.fragmentedPrefix.utf8) {
            try? FileSystem.removeFile(scratch.appending(String(decoding: entry, as: UTF8.self)))
        }
        var manifest = Manifest(start: start, files: [:])
        var (jobs, tooLarge) = ([Sealer.Job](), 0)
        for (relative, path) in files {
            guard let status = try? FileSystem.status(of: path), status.type == .regular else { continue }
            let media = relative.hasPrefix("media/")
            guard media || status.size <= Self.largest else {
                tooLarge += 1
                continue
            }
            let known = old[relative].flatMap { $0.names.allSatisfy({ present.contains($0 + ".js") }) ? $0 : nil }
            // (a medium by the identity of its file; a page by its bytes' hash, read once, where it is sealed)
            let identity =
                media ? "\(status.device):\(status.inode):\(status.size):\(status.mtimeTotalNanoseconds)" : nil
            if let known, let identity, known.change == identity {
                manifest.files[relative] = known
            } else {
                jobs.append(
                    Sealer.Job(relative: relative, path: path, size: status.size, identity: identity, known: known))
            }
        }
        let clock = ContinuousClock.now
        let (entries, sealed) = try sealer.seal(jobs, scratch: scratch, threads: sealers, shouldStop: shouldStop)
        let seconds = (ContinuousClock.now - clock).seconds
        manifest.files.merge(entries) { $1 }
        // (an unchanged album writes nothing: not even its manifest again under a new nonce)
        guard manifest != previous else { return (manifest.files.count, 0, tooLarge, seconds) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: Data
        do {
            json = try encoder.encode(manifest)
        } catch {
            throw AlbumError(.output, "cannot write a private album's manifest: \(error)")
        }
        try output.write(bytes: try sealer.script(Self.manifestName, [UInt8](json)), to: folder + "/manifest.js")
        // What no page uses any more: the sealed files of replaced plaintext, of photos gone.
        let kept = Set(
            manifest.files.values.flatMap { $0.names.map { $0 + ".js" } } + [
                "manifest.js", KeyWraps.file, "index.html",
            ])
        for entry in FileSystem.entries(of: output.path(folder)) ?? [] {
            let name = String(decoding: entry, as: UTF8.self)
            if !kept.contains(name) { try output.remove(folder + "/" + name) }
        }
        return (manifest.files.count, sealed, tooLarge, seconds)
    }

    /// The manifest the last build wrote, when this key opens it.
    func manifest() -> Manifest? {
        guard let bytes = open(Self.manifestName) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: Data(bytes))
    }

    /// The plaintext of the sealed file `name`, when it is there and this key opens it.
    func open(_ name: String) -> [UInt8]? {
        let path = output.path(folder + "/" + name + ".js")
        guard let script = FileSystem.smallFileContents(path, limit: Self.largest * 2) else { return nil }
        let prefix = Array("tesseraSealed(\"\(name)\",\"".utf8), suffix = Array("\");\n".utf8)
        guard script.starts(with: prefix), script.count >= prefix.count + suffix.count,
            let sealed = Data(base64Encoded: Data(script[prefix.count..<(script.count - suffix.count)]))
        else { return nil }
        return key.open([UInt8](sealed), album: id, file: name)
    }

    /// The regular files in the folder at `path` and below it, with paths relative to the site.
    private static func walk(
        _ path: FilePath, _ relative: String, into files: inout [(relative: String, path: FilePath)]
    ) {
        guard let entries = FileSystem.entries(of: path) else { return }
        for entry in entries {
            let name = String(decoding: entry, as: UTF8.self)
            // (a build's own lists, never a page's file)
            guard !name.hasPrefix(".") else { continue }
            let child = path.appending(name)
            if (try? FileSystem.linkStatus(of: child))?.type == .directory {
                walk(child, relative + "/" + name, into: &files)
            } else {
                files.append((relative + "/" + name, child))
            }
        }
    }
}
