import Foundation
import Synchronization
import SystemPackage
import TesseraSystem
import TesseraVideo

/// Seals a private album's files into its folder (`SealedFolder`), several at once: each file
/// under a new random name, written whole before any manifest names it.
struct Sealer: Sendable {
    /// The album's folder in the output, its id and key, and the size of a media file's parts.
    let folder: FilePath
    let album: String
    let key: AlbumKey
    let partBytes: Int

    /// A plain file to seal: its path relative to the site, where it is, its size; a medium's
    /// identity (the manifest's `change` for it; a page's is its bytes' hash); and what the last
    /// build sealed of it, still there.
    struct Job: Sendable {
        var relative: String
        var path: FilePath
        var size: Int64
        var identity: String?
        var known: SealedFolder.Entry?
    }

    /// The name a video written again in fragments has while it is sealed, in the work folder.
    static let fragmentedPrefix = ".fragmented-"

    /// Seals `jobs` on `threads` threads (this one among them) and returns their entries by path,
    /// and how many were sealed (a page whose bytes are those sealed before keeps its entry).
    ///
    /// A file gone from `scratch` meanwhile has none. The first failure stops them all, as
    /// `shouldStop` does between files (what is sealed by then is named by no manifest: the next
    /// build removes it).
    func seal(
        _ jobs: [Job], scratch: FilePath, threads: Int, shouldStop: @escaping @Sendable () -> Bool
    ) throws(AlbumError) -> (entries: [String: SealedFolder.Entry], sealed: Int) {
        let next = Mutex(0)
        let results = Mutex<(entries: [String: SealedFolder.Entry], sealed: Int, failure: AlbumError?)>(([:], 0, nil))
        let work: @Sendable () -> Void = {
            while true {
                let index = next.withLock { (value: inout Int) -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < jobs.count, results.withLock({ $0.failure == nil }) else { return }
                guard !shouldStop() else {
                    results.withLock { $0.failure = $0.failure ?? AlbumError(.stopped, "stopped while sealing") }
                    return
                }
                do throws(AlbumError) {
                    guard let (entry, sealed) = try self.entry(jobs[index], scratch: scratch, shouldStop: shouldStop)
                    else { continue }
                    results.withLock {
                        $0.entries[jobs[index].relative] = entry
                        $0.sealed += sealed ? 1 : 0
                    }
                } catch {
                    results.withLock { $0.failure = $0.failure ?? error }
                }
            }
        }
        let helpers = (1..<max(1, min(threads, jobs.count))).map { DedicatedThread.start("album sealer \($0)", work) }
        work()
        for helper in helpers { helper.join() }
        let (entries, sealed, failure) = results.withLock { ($0.entries, $0.sealed, $0.failure) }
        if let failure { throw failure }
        return (entries, sealed)
    }

    /// The entry of one file, and whether it was sealed now: a medium larger than `partBytes` in
    /// parts, any other file whole; a page whose bytes hash as before keeps its entry.
    private func entry(
        _ job: Job, scratch: FilePath, shouldStop: @escaping @Sendable () -> Bool
    ) throws(AlbumError) -> (SealedFolder.Entry, sealed: Bool)? {
        if let identity = job.identity, job.size > partBytes {
            return (try sealInParts(job, identity: identity, scratch: scratch, shouldStop: shouldStop), true)
        }
        guard let plain = FileSystem.smallFileContents(job.path, limit: SealedFolder.largest) else { return nil }
        let change = job.identity ?? XXH64.hex(XXH64.hash(plain))
        if let known = job.known, known.change == change { return (known, false) }
        return (SealedFolder.Entry(name: try seal(plain), change: change), true)
    }

    /// Seals `plain` into a new file of the folder, and returns its name.
    private func seal(_ plain: [UInt8]) throws(AlbumError) -> String {
        let name = AlbumKey.randomName()
        // (a new name, which no manifest names until the file is whole: written in place, at
        // half the cost of a file renamed into place)
        let (target, script) = (folder.appending(name + ".js"), try script(name, plain))
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
        _ job: Job, identity: String, scratch: FilePath, shouldStop: @escaping @Sendable () -> Bool
    ) throws(AlbumError) -> SealedFolder.Entry {
        let (path, relative) = (job.path, job.relative)
        let fragmented = scratch.appending(Self.fragmentedPrefix + AlbumKey.randomName(8) + ".mp4")
        defer { try? FileSystem.removeFile(fragmented) }
        var (source, size, parts) = (path, job.size, [FragmentedMP4.Part]())
        var (type, seconds) = (String?.none, Double?.none)
        if Self.streams(relative),
            let made = try? FileReader.withFile(
                at: path, opening: { $0 as any Error },
                { reader throws(any Error) in
                    try FragmentedMP4.make(
                        from: reader.stream(), to: fragmented, partBytes: partBytes,
                        timeLimit: SealedFolder.fragmentingTime, shouldStop: shouldStop)
                }), made.type != nil
        {
            (source, size, parts, type, seconds) = (fragmented, made.size, made.parts, made.type, made.duration)
        } else if shouldStop() {
            // (stopped while writing it again, not a video FFmpeg cannot write: nothing sealed)
            throw AlbumError(.stopped, "stopped while sealing")
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
        let rest = zip(names.dropFirst(), parts.dropFirst()).map { SealedFolder.Part(name: $0, time: $1.time) }
        return SealedFolder.Entry(name: first, change: identity, parts: rest, type: type, seconds: seconds)
    }

    /// Whether the media file at `relative` is a video a browser may stream (MP4, QuickTime).
    private static func streams(_ relative: String) -> Bool {
        let suffix = relative.split(separator: ".").last?.lowercased() ?? ""
        return ["mp4", "m4v", "mov"].contains(suffix)
    }

    /// `plain` sealed under `name`, as the script that hands it to the page.
    func script(_ name: String, _ plain: [UInt8]) throws(AlbumError) -> [UInt8] {
        let sealed = Data(try key.seal(plain, album: album, file: name)).base64EncodedData()
        var script = Array("tesseraSealed(\"\(name)\",\"".utf8)
        script.reserveCapacity(script.count + sealed.count + 4)
        script += sealed
        script += Array("\");\n".utf8)
        return script
    }
}
