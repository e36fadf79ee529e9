import Logging
import SystemPackage
import TesseraConfiguration
import TesseraDesktop
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSystem

/// The scan's first stage: lists every root and compares each directory with the index.
///
/// One query per directory; unchanged files are settled there, same-filesystem moves go to the
/// writer, new and changed files to the workers. It counts nothing itself: what it found reaches the
/// writer as one `.seen` outcome per directory, ahead of any outcome of that directory's files.
struct WalkStage {
    private let scanner: LibraryScanner
    private let run: ScanRun
    private let walker: Walker
    /// The rendition settings the configuration records, made once: a row made under others is
    /// brought up to date.
    private let settings: String
    /// What the walk saw, for the repairs and the settle stage.
    private(set) var sightings = Sightings()

    // The directory being handled.
    private var root = FilePath()
    private var directory = FilePath()
    private var existing: [NameKey: IndexedFile] = [:]
    /// Entries in the directory, for sizing its lookup table.
    private var entries = 0
    /// The directory's sidecars: which file each belongs to, and the stamp of each.
    private var sidecarOf: [NameKey: NameKey] = [:]
    private var sidecarStamps: [NameKey: SidecarStamp] = [:]

    /// Found and unchanged files not yet handed to the writer: once per directory, not once per file.
    private var found = 0
    private var unchanged = 0
    /// The count-only walk started when rendering holds this one back.
    private var counting: DedicatedThread?

    init(_ scanner: LibraryScanner, _ run: ScanRun) {
        self.scanner = scanner
        self.run = run
        let configuration = scanner.configuration
        settings = configuration.renderSettings.recorded
        walker = Walker(
            options: .init(
                exclude: configuration.exclude, followSymlinks: configuration.followSymlinks,
                skip: configuration.ownFiles))
    }

    /// Walks every root of the run.
    mutating func walk() throws(ScanError) {
        defer { counting?.join() }
        for root in run.roots.paths {
            try walk(root)
        }
    }

    private mutating func walk(_ root: FilePath) throws(ScanError) {
        self.root = root
        directory = root
        existing = [:]
        // The walk (listings and stats) runs on a thread of its own, handing over a directory's
        // events at a time, while this thread asks the index about the directory before: with a
        // second core, a rescan costs little more than the walk.
        let listed = BoundedQueue<[Walker.Event]>(capacity: 8)
        let walking = DedicatedThread.start("walk") { [walker, stop = run.stop] in
            var chunk: [Walker.Event] = []
            walker.walk(root) { event in
                if case .directory = event, !chunk.isEmpty {
                    guard listed.push(chunk) else { return false }
                    chunk = []
                }
                chunk.append(event)
                return !stop.isSet
            }
            if !chunk.isEmpty { listed.push(chunk) }
            listed.close()
        }
        defer {
            listed.close()  // stopped early: the walk's next hand-over fails and it ends
            walking.join()
        }
        defer { flush() }  // while `root` is still this one: it counts the files under it
        do throws(IndexError) {
            handing: while let chunk = listed.pop() {
                entries = chunk.count
                (sidecarOf, sidecarStamps) = DirectoryFiles.sidecars(in: chunk)
                for event in chunk {
                    guard !run.stop.isSet else { break handing }
                    try handle(event)
                }
            }
        } catch {
            throw ScanError(readingIndex: error)
        }
    }

    private mutating func handle(_ event: Walker.Event) throws(IndexError) {
        switch event {
        case .directory(let path, let bytes, let device):
            sightings.devices.insert(device)
            if sightings.mounts[device] == nil { sightings.mounts[device] = path }
            flush()
            directory = path
            existing = try scanner.index.files(
                inDirectory: bytes, settled: settings, expecting: entries,
                newDecoders: run.newDecoders, newReaders: run.newReaders)
        case .file(let file):
            // A sidecar is part of its photo, never an item of its own.
            guard !Sidecar.isSidecar(file.name) else { return }
            found += 1
            let sidecar = sidecarOf[NameKey(file.name)].flatMap { name in
                sidecarStamps[name].map { SidecarIdentity(name: name.bytes, stamp: $0) }
            }
            if let known = existing[NameKey(file.name)] {
                meet(file, known: known, sidecar: sidecar)
            } else {
                try meetUnknown(file, sidecar: sidecar)
            }
        case .vanished:
            // Deleted since its parent was listed, or gone with the root: the root decides.
            run.roots.check(root)
        case .unreadable(let path, let reason):
            scanner.logger.warning("\(path): \(reason)")
            flush()
            run.outcomes.push(.unlisted(path, reason: reason))
            // What was indexed below it cannot be seen now, so it is kept, not removed.
            var kept = try scanner.index.fileIDs(under: path)
            if let known = existing[NameKey(path.rawBytes.split(separator: UInt8(ascii: "/")).last ?? [])] {
                kept.append(known.id)
            }
            for id in kept where !sightings.ids.contains(id) && !sightings.kept.contains(id) {
                sightings.kept.insert(id)
                sightings.keptCount += 1
            }
        }
    }

    /// A file the index has at this path: unchanged (settled here), or read again.
    private mutating func meet(_ file: Walker.File, known: IndexedFile, sidecar: SidecarIdentity?) {
        sightings.ids.insert(known.id)
        sightings.devices.insert(known.identity.device)
        let asItWas = known.identity == file.identity && known.sidecar == sidecar?.stamp
        guard asItWas && !run.full && !known.needsRetry else {
            sightings.queued.insert(known.id)
            push(job(file, asItWas ? .reread : .changed, sidecar: sidecar))
            return
        }
        if let rendering = known.rendering, rendering.settings != settings || !rendering.hasThumbhash {
            // Counted as unchanged by the writer, once its renditions are settled.
            sightings.queued.insert(known.id)
            var job = job(file, .reread, sidecar: sidecar)
            job.known = .init(id: known.id, rendering: rendering)
            push(job)
        } else {
            unchanged += 1
        }
    }

    /// A file the index does not have at this path: moved here on the same filesystem, or new.
    private mutating func meetUnknown(_ file: Walker.File, sidecar: SidecarIdentity?) throws(IndexError) {
        // A moved photo whose sidecar did not move with it unchanged is read again.
        guard let moved = try movedFile(to: file.path, identity: file.identity), moved.sidecar == sidecar?.stamp
        else {
            push(job(file, .new, sidecar: sidecar))
            return
        }
        sightings.ids.insert(moved.id)
        flush()
        run.outcomes.push(.move(FileMove(id: moved.id, path: file.path, albumPath: directory, root: root)))
        // Its desktop thumbnails follow it, their text rewritten for the new name; those that
        // were gone already are made (the move counts the photo).
        if let desktop = scanner.desktop,
            !desktop.move(from: moved.path, to: .init(path: file.path, identity: file.identity)),
            let rendering = moved.rendering
        {
            sightings.queued.insert(moved.id)
            var job = job(file, .reread, sidecar: sidecar)
            job.known = .init(id: moved.id, rendering: rendering)
            job.desktopMissing = true
            job.counted = .moved
            push(job)
        }
    }

    private func job(
        _ file: Walker.File, _ change: LibraryScanner.Job.Change, sidecar: SidecarIdentity?
    )
        -> LibraryScanner.Job
    {
        .init(
            path: file.path, albumPath: directory, root: root, identity: file.identity, change: change,
            sidecar: sidecar)
    }

    /// Hands what was found and settled so far to the writer.
    private mutating func flush() {
        guard found + unchanged > 0 else { return }
        run.outcomes.push(.seen(found: found, unchanged: unchanged))
        sightings.files[root, default: 0] += found
        (found, unchanged) = (0, 0)
    }

    /// Hands `job` on, after what was found before it.
    ///
    /// When rendering holds the walk back, the total comes from a count-only walk beside it.
    private mutating func push(_ job: LibraryScanner.Job) {
        if counting == nil && run.jobs.isFull {
            counting = DedicatedThread.start("count") {
                [walker, roots = run.roots.paths, stop = run.stop, progress = scanner.progress] in
                var count = 0
                for root in roots {
                    walker.walk(root) { event in
                        if case .file(let file) = event, !Sidecar.isSidecar(file.name) { count += 1 }
                        return !stop.isSet
                    }
                }
                if !stop.isSet { progress.update { $0.total = count } }
            }
        }
        flush()
        scanner.hand(job, run, alone: &sightings.alone)
    }

    /// The indexed file that `path` is, moved or renamed on the same filesystem: same device,
    /// inode, size and mtime, and nothing left at its old path with that inode, or only the
    /// same file through a link (a root moved away and a link to it put in its place).
    private func movedFile(to path: FilePath, identity: FileIdentity) throws(IndexError) -> IndexedFile? {
        for candidate in try scanner.index.files(device: identity.device, inode: identity.inode)
        where candidate.identity == identity && candidate.path != path {
            let now = try? FileSystem.linkStatus(of: candidate.path)
            let stillThere = now.map { $0.inode == identity.inode && $0.device == identity.device } ?? false
            // A hard link keeps both names: not a move.
            if !stillThere || (try? FileSystem.canonicalPath(candidate.path)) == path { return candidate }
        }
        return nil
    }
}
