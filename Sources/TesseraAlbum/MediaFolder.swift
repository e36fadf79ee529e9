import SystemPackage
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// The files an album folder carries so that it works wherever it is copied or served:
/// renditions under `media/` (hard-linked from the cache, copied when the cache is on another
/// file system or when asked), and originals under `originals/` as the options say.
///
/// Every page refers to them by paths relative to the output folder.
final class MediaFolder {
    let output: OutputFolder
    let copyRenditions: Bool
    let originals: AlbumOriginals
    private(set) var linked = 0
    private(set) var copied = 0
    /// Shared with the build's other writer.
    let shared: PlacedFiles
    /// Paths are strings here: a `FilePath` operation per file costs more than the link it makes.
    private let outputText: String
    /// Files placed for the page being written (nil: missing), so each is placed once however
    /// often the page and its photos' entries name it; forgotten at the next page (pages show
    /// each photo once, so memory follows a page, not a collection).
    private var renditions: [String: String?] = [:]
    private var placedOriginals: [Int64: String?] = [:]
    private var placedVideos: [Int64: String?] = [:]
    /// While an album is written: the files its pages refer to, each rendition with the cache
    /// file it came from ("" for the others).
    private var recording: [String: String]?

    /// Starts a collection: files are placed again as its pages ask for them, and, when
    /// `recording` (an album), noted for `finishRecording`.
    func start(recording: Bool) {
        startPage()
        self.recording = recording ? [:] : nil
    }

    /// Starts a page of the collection.
    func startPage() {
        renditions = [:]
        placedOriginals = [:]
        placedVideos = [:]
    }

    /// The files referred to since `start(recording: true)`, by path relative to the output, with the
    /// cache file of each rendition.
    func finishRecording() -> [String: String] {
        defer { recording = nil }
        return recording ?? [:]
    }

    /// Files asked for that could not be placed, each time one is asked for: a page that lacks
    /// one is written again by the next build.
    private(set) var misses = 0

    private func note(_ relative: String?, cache: String = "") {
        guard let relative else {
            misses += 1
            return
        }
        if recording != nil { recording?[relative] = cache }
    }

    /// Where the bytes of something to play are: a whole file (a video, a Live Photo's video),
    /// or a range of one (the MP4 inside a motion photo).
    enum VideoSource {
        case file([UInt8], id: Int64)
        case range([UInt8], id: Int64, offset: Int64, length: Int64)
    }

    /// Places what `source` holds under `media/video/` (a video hard-linked like a rendition; a
    /// motion photo's MP4 written out of its photo) and returns its path relative to the output;
    /// nil when it cannot be placed.
    ///
    /// Pages play it whether or not originals are included.
    func video(_ source: VideoSource) -> String? {
        let id: Int64
        switch source {
        case .file(_, let fileID), .range(_, let fileID, _, _): id = fileID
        }
        if let known = placedVideos[id] {
            note(known)
            return known
        }
        var placed: String?
        switch source {
        case .file(let bytes, _):
            let name = String(decoding: bytes, as: UTF8.self)
            let suffix =
                name.split(separator: ".").last.map { $0.lowercased() }.flatMap { $0.count <= 4 ? "." + $0 : nil } ?? ""
            let plain = suffix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }
            let relative = "media/video/\(id)\(plain ? suffix : "")"
            placed = place(FilePath(rawBytes: bytes), relative: relative, copy: copyRenditions) ? relative : nil
        case .range(let bytes, _, let offset, let length):
            placed = extract(
                FilePath(rawBytes: bytes), offset: offset, length: length, relative: "media/video/\(id)-motion.mp4")
        }
        placedVideos[id] = .some(placed)
        note(placed)
        return placed
    }

    /// Places what the page plays of `motion`: the original when browsers play it, else its
    /// web rendition (hard-linked like a rendition), else the original to download; and
    /// whether what was placed plays.
    func video(_ motion: Motion) -> (path: String, plays: Bool)? {
        if !motion.originalPlays, let web = motion.web, let placed = rendition(web) { return (placed, true) }
        return video(motion.source).map { ($0, motion.originalPlays) }
    }

    /// The largest motion-photo video written out (phones write a few megabytes).
    static let maxExtracted: Int64 = 256 << 20

    /// Writes `length` bytes of `source` from `offset` to `relative`, unless a file of that size is there.
    private func extract(_ source: FilePath, offset: Int64, length: Int64, relative: String) -> String? {
        let target = FilePath(outputText + "/" + relative)
        guard length > 0, length <= Self.maxExtracted else {
            miss(relative)
            return nil
        }
        do throws(any Error) {
            try output.parent(of: relative)
            if let existing = try? FileSystem.linkStatus(of: target) {
                if existing.type == .regular && existing.size == length {
                    shared.refer(relative)
                    return relative
                }
                try output.remove(relative)
            }
            let bytes = try FileReader.withFile(at: source, opening: { $0 }) { reader throws(FileReadError) in
                try reader.readExactly(at: offset, count: Int(length), what: "its video")
            }
            let writer = try FileWriter(target)
            try writer.append(bytes)
            // (false: written meanwhile by the build's other writer, which counts it)
            if try writer.finish(replacing: false) { copied += 1 }
            shared.refer(relative)
            return relative
        } catch {
            miss(relative)
            return nil
        }
    }

    /// - Parameter placed: what the build's writers share of the files they place.
    init(output: OutputFolder, copyRenditions: Bool, originals: AlbumOriginals, placed: PlacedFiles) {
        self.shared = placed
        self.output = output
        self.copyRenditions = copyRenditions
        self.originals = originals
        outputText = output.root.string
    }

    /// Places the rendition at `cachePath` in the output (`media/<spec>/<fan-out>/<key>.<ext>`,
    /// the cache's own layout, so no directory grows past the cache's) and returns its path
    /// relative to the output; nil when the cache file is gone.
    func rendition(_ cachePath: String) -> String? {
        if let known = renditions[cachePath] {
            note(known, cache: cachePath)
            return known
        }
        let relative = Self.relative(cachePath: cachePath)
        let placed = place(FilePath(cachePath), relative: relative, copy: copyRenditions) ? relative : nil
        renditions[cachePath] = .some(placed)
        note(placed, cache: cachePath)
        return placed
    }

    /// Where a rendition's cache file is placed in the output, relative to it.
    static func relative(cachePath: String) -> String {
        "media/" + cachePath.split(separator: "/").suffix(3).joined(separator: "/")
    }

    /// Places the original of `photo` under `originals/<album folder>/` and returns its path
    /// relative to the output; nil when originals are left out or the file cannot be placed.
    func original(_ photo: PhotoRecord, albumFolder: String) -> String? {
        guard originals != .none else { return nil }
        if let known = placedOriginals[photo.id] {
            note(known)
            return known
        }
        let relative = "originals/\(albumFolder)/\(photo.id)-\(Self.safeName(photo))"
        let placed = placeOriginal(photo, relative: relative)
        placedOriginals[photo.id] = .some(placed)
        note(placed)
        return placed
    }

    private func placeOriginal(_ photo: PhotoRecord, relative: String) -> String? {
        let target = FilePath(outputText + "/" + relative)
        // Checked first, so nothing below is read or removed through a link in place of a folder.
        guard (try? output.parent(of: relative)) != nil else {
            miss(relative)
            return nil
        }
        if originals == .symlink {
            shared.refer(relative)
            if FileSystem.linkTarget(of: target)?.rawBytes == photo.pathBytes { return relative }
            do {
                try output.remove(relative)
                try FileSystem.symbolicLink(to: photo.path, at: target)
                return relative
            } catch {
                // Made meanwhile by the build's other writer (the months beside the albums).
                if FileSystem.linkTarget(of: target)?.rawBytes == photo.pathBytes { return relative }
                miss(relative)
                return nil
            }
        }
        // A copy follows the original when it changes: same size and mtime or copied again.
        if let placed = try? FileSystem.linkStatus(of: target), let source = try? FileSystem.status(of: photo.path),
            placed.size != source.size || placed.mtimeTotalNanoseconds < source.mtimeTotalNanoseconds
        {
            try? FileSystem.removeFile(target)
        }
        return place(photo.path, relative: relative, copy: false) ? relative : nil
    }

    /// A hard link when allowed and possible, else a copy; an existing file is kept (rendition
    /// names carry their content key, so a file of that name is already right), anything else
    /// there (a link, a folder) replaced.
    ///
    /// A source gone from the disk places nothing.
    private func place(_ source: FilePath, relative: String, copy: Bool) -> Bool {
        let target = FilePath(outputText + "/" + relative)
        do {
            // Checked first, so a link in place of a folder is never gone through.
            try output.parent(of: relative)
            switch (try? FileSystem.linkStatus(of: target))?.type {
            case .regular?:
                shared.refer(relative)
                return true
            case nil: break
            case _?: try output.remove(relative)
            }
            // A file there now was placed meanwhile by the build's other writer (the months
            // beside the albums): the one that placed it counts it.
            if !copy, (try? FileSystem.hardLink(source, at: target)) != nil {
                linked += 1
            } else if (try? FileSystem.linkStatus(of: target))?.type != .regular,
                try FileSystem.copyFile(source, to: target, replacing: false)
            {
                copied += 1
            }
            shared.refer(relative)
            return true
        } catch {
            miss(relative)
            return false
        }
    }

    private func miss(_ relative: String) {
        shared.miss(relative)
    }

    /// Notes files pages refer to that this build did not place (those of albums it left as
    /// they were), so that `sweep` keeps them.
    func keep(_ relatives: some Sequence<String>) {
        for relative in relatives { shared.refer(relative) }
    }

    /// Takes in the counts of the build's other writer (the months, written beside the albums).
    func absorb(linked: Int, copied: Int) {
        self.linked += linked
        self.copied += copied
    }

    /// Removes the files of `relatives` (under `media/` and `originals/`) that no page of this
    /// build referred to; returns how many went.
    func remove(_ relatives: some Sequence<String>) -> Int {
        var removed = 0
        for relative in relatives
        where !shared.mayBeReferred(relative) && (relative.hasPrefix("media/") || relative.hasPrefix("originals/")) {
            guard (try? FileSystem.linkStatus(of: output.path(relative))) != nil else { continue }
            // Checked by `remove`: nothing outside the output is reached through a link.
            if (try? output.remove(relative)) != nil { removed += 1 }
        }
        return removed
    }

    /// Removes files under `media/` and `originals/` that no page refers to any more.
    func sweep() -> Int {
        var removed = 0
        func walk(_ directory: FilePath, _ relative: String) {
            for name in FileSystem.entries(of: directory) ?? [] {
                // Every name placed here is ASCII; anything else is not ours and goes too.
                let text = String(decoding: name, as: UTF8.self)
                let path = directory.appending(text)
                let child = relative + "/" + text
                if (try? FileSystem.linkStatus(of: path))?.type == .directory {
                    walk(path, child)
                } else if !shared.mayBeReferred(child) {
                    if (try? FileSystem.removeFile(path)) != nil { removed += 1 }
                }
            }
        }
        for folder in ["media", "originals"]
        where (try? FileSystem.linkStatus(of: output.path(folder)))?.type == .directory {
            walk(output.path(folder), folder)
        }
        return removed
    }

    /// The file name, with anything a URL or a file system elsewhere might trip on replaced.
    static func safeName(_ photo: PhotoRecord) -> String {
        let name = AlbumBuilder.name(photo)
        let safe = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        return String(safe.prefix(120))
    }
}
