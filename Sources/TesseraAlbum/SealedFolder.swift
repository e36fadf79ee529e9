import Foundation
import SystemPackage
import TesseraSystem
import TesseraVideo

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

    /// Seals the files of `folders` and `media/` in `scratch`, writes the manifest and removes
    /// the sealed files it no longer names.
    func write(
        from scratch: FilePath, folders: [String], start: String?
    ) throws(AlbumError) -> (files: Int, sealed: Int, tooLarge: Int, seconds: Double) {
        try output.directory(folder)
        let previous = manifest()
        let old = previous?.files ?? [:]
        // (the sealed files there, listed once: no stat a file to find its sealed one in place)
        let present = Set(
            (FileSystem.entries(of: output.path(folder)) ?? []).map { String(decoding: $0, as: UTF8.self) })
        var files: [(relative: String, path: FilePath)] = []
        for top in folders + ["media"] { Self.walk(scratch.appending(top), top, into: &files) }
        var manifest = Manifest(start: start, files: [:])
        var (sealed, tooLarge, seconds) = (0, 0, 0.0)
        for (relative, path) in files {
            guard let status = try? FileSystem.status(of: path), status.type == .regular else { continue }
            let media = relative.hasPrefix("media/")
            guard media || status.size <= Self.largest else {
                tooLarge += 1
                continue
            }
            var bytes: [UInt8]?
            let change: String
            if media {
                change = "\(status.device):\(status.inode):\(status.size):\(status.mtimeTotalNanoseconds)"
            } else {
                bytes = FileSystem.smallFileContents(path, limit: Self.largest)
                change = XXH64.hex(XXH64.hash(bytes ?? []))
            }
            if let known = old[relative], known.change == change,
                known.names.allSatisfy({ present.contains($0 + ".js") })
            {
                manifest.files[relative] = known
                continue
            }
            let clock = ContinuousClock.now
            let entry: Entry
            if media, status.size > partBytes {
                entry = try sealInParts(path, relative: relative, size: status.size, change: change, scratch: scratch)
            } else {
                guard let plain = bytes ?? FileSystem.smallFileContents(path, limit: Self.largest) else { continue }
                entry = Entry(name: try seal(plain), change: change)
            }
            seconds += (ContinuousClock.now - clock).seconds
            manifest.files[relative] = entry
            sealed += 1
        }
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
        try output.write(bytes: try script(Self.manifestName, [UInt8](json)), to: folder + "/manifest.js")
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

    /// Seals `plain` into a new file of the folder, and returns its name.
    private func seal(_ plain: [UInt8]) throws(AlbumError) -> String {
        let name = AlbumKey.randomName()
        // (a new name, which no manifest names until the file is whole: written in place, at
        // half the cost of a file renamed into place)
        let (target, script) = (output.path(folder + "/" + name + ".js"), try script(name, plain))
        do throws(SystemError) {
            try FileSystem.append(script, to: target)
        } catch {
            throw AlbumError(.output, "\(target): cannot write: \(error)")
        }
        return name
    }

    /// Seals the media file at `path` in parts, one at a time: a video browsers stream, as an
    /// MP4 in fragments cut at its keyframes (written again in `scratch` first); anything else
    /// (or a video FFmpeg cannot write again as it is), its bytes in parts of `partBytes`.
    private func sealInParts(
        _ path: FilePath, relative: String, size: Int64, change: String, scratch: FilePath
    ) throws(AlbumError) -> Entry {
        let fragmented = scratch.appending(".fragmented-" + AlbumKey.randomName(8) + ".mp4")
        defer { try? FileSystem.removeFile(fragmented) }
        var (source, size, parts) = (path, size, [FragmentedMP4.Part]())
        var (type, seconds) = (String?.none, Double?.none)
        if Self.streams(relative),
            let made = try? FileReader.withFile(
                at: path, opening: { $0 as any Error },
                { reader throws(any Error) in
                    try FragmentedMP4.make(
                        from: reader.stream(), to: fragmented, partBytes: partBytes, timeLimit: Self.fragmentingTime)
                }), made.type != nil
        {
            (source, size, parts, type, seconds) = (fragmented, made.size, made.parts, made.type, made.duration)
        } else {
            parts = stride(from: 0, to: size, by: partBytes).map { FragmentedMP4.Part(offset: $0, time: nil) }
        }
        let ends = parts.dropFirst().map(\.offset) + [size]
        let unreadable = { (error: FileReadError) in AlbumError(.output, "\(relative): cannot seal it: \(error)") }
        let names = try FileReader.withFile(at: source, opening: unreadable) { reader throws(AlbumError) in
            var names: [String] = []
            for (part, end) in zip(parts, ends) {
                let plain: [UInt8]
                do throws(FileReadError) {
                    plain = try reader.readExactly(at: part.offset, count: Int(end - part.offset), what: "a part")
                } catch {
                    throw unreadable(error)
                }
                names.append(try seal(plain))
            }
            return names
        }
        guard let first = names.first else { throw AlbumError(.output, "\(relative): nothing to seal") }
        let rest = zip(names.dropFirst(), parts.dropFirst()).map { Part(name: $0, time: $1.time) }
        return Entry(name: first, change: change, parts: rest, type: type, seconds: seconds)
    }

    /// Whether the media file at `relative` is a video a browser may stream (MP4, QuickTime).
    private static func streams(_ relative: String) -> Bool {
        let suffix = relative.split(separator: ".").last?.lowercased() ?? ""
        return ["mp4", "m4v", "mov"].contains(suffix)
    }

    /// `plain` sealed under `name`, as the script that hands it to the page.
    private func script(_ name: String, _ plain: [UInt8]) throws(AlbumError) -> [UInt8] {
        let sealed = Data(try key.seal(plain, album: id, file: name)).base64EncodedData()
        var script = Array("tesseraSealed(\"\(name)\",\"".utf8)
        script.reserveCapacity(script.count + sealed.count + 4)
        script += sealed
        script += Array("\");\n".utf8)
        return script
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
