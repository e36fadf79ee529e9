import Foundation
import Logging
import Synchronization
import SystemPackage
import TesseraConfiguration
import TesseraDesktop
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraSystem

extension LibraryScanner {
    /// Walks every root, settling unchanged files and same-filesystem moves here and
    /// queueing new and changed files for the workers.
    func walk(_ run: ScanRun, sightings: inout Sightings) throws(ScanError) {
        let (rootSet, full, stop, jobs, tally, scanID) = (run.roots, run.full, run.stop, run.jobs, run.tally, run.id)
        let outcomes = run.outcomes
        let (newDecoders, newReaders) = (run.newDecoders, run.newReaders)
        let roots = rootSet.paths
        let walker = Walker(
            options: .init(
                exclude: configuration.exclude, followSymlinks: configuration.followSymlinks,
                skip: configuration.ownFiles))
        var counting: DedicatedThread?
        defer { counting?.join() }
        // Found and unchanged files are counted here and added to the shared counters once
        // per directory, not once per file, and before any file goes to a worker or the writer,
        // so that the files done never outnumber the files found.
        var found = 0, unchanged = 0
        let settings = configuration.renderSettings.recorded
        func flush() {
            guard found + unchanged > 0 else { return }
            let (newlyFound, newlyUnchanged) = (found, unchanged)
            tally.counts.withLock { counts in
                counts.found += newlyFound
                counts.unchanged += newlyUnchanged
            }
            progress.update { snapshot in
                snapshot.found += newlyFound
                snapshot.done += newlyUnchanged
            }
            (found, unchanged) = (0, 0)
        }
        defer { flush() }
        /// When rendering holds the walk back, the total comes from a count-only walk beside it.
        func push(_ job: Job) {
            if counting == nil && jobs.isFull {
                counting = DedicatedThread.start("count") { [progress] in
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
            hand(job, run, alone: &sightings.alone)
        }
        for root in roots {
            var existing: [NameKey: IndexedFile] = [:]
            var directory = root
            var failure: IndexError?
            // The walk (listings and stats) runs on a thread of its own, handing over a
            // directory's events at a time, while this thread asks the index about the
            // directory before: with a second core, a rescan costs little more than the walk.
            let listed = BoundedQueue<[Walker.Event]>(capacity: 8)
            let walking = DedicatedThread.start("walk") { [stop] in
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
            var entries = 0  // in the directory being handled, for sizing its lookup table
            // The directory's sidecars: which file each belongs to, and the stamp of each.
            var sidecarOf: [NameKey: NameKey] = [:]
            var sidecarStamps: [NameKey: SidecarStamp] = [:]
            var filesHere = 0  // under this root
            defer { sightings.files[root] = filesHere }
            func handle(_ event: Walker.Event) -> Bool {
                guard !stop.isSet else { return false }
                do throws(IndexError) {
                    switch event {
                    case .directory(let path, let bytes, let device):
                        sightings.devices.insert(device)
                        if sightings.mounts[device] == nil { sightings.mounts[device] = path }
                        flush()
                        directory = path
                        existing = try index.files(
                            inDirectory: bytes, settled: settings, expecting: entries, newDecoders: newDecoders,
                            newReaders: newReaders)
                    case .file(let file):
                        // A sidecar is part of its photo, never an item of its own.
                        guard !Sidecar.isSidecar(file.name) else { return true }
                        let identity = file.identity
                        let sidecar = sidecarOf[NameKey(file.name)].flatMap { name in
                            sidecarStamps[name].map { SidecarIdentity(name: name.bytes, stamp: $0) }
                        }
                        found += 1
                        filesHere += 1
                        if let known = existing[NameKey(file.name)] {
                            sightings.ids.insert(known.id)
                            sightings.devices.insert(known.identity.device)
                            if !full && known.identity == identity && known.sidecar == sidecar?.stamp
                                && !known.needsRetry
                            {
                                if let rendering = known.rendering,
                                    rendering.settings != settings || !rendering.hasThumbhash
                                {
                                    sightings.queued.insert(known.id)
                                    // Counted as unchanged by the writer, once its renditions are settled.
                                    push(
                                        Job(
                                            path: file.path, albumPath: directory, root: root, identity: identity,
                                            change: .reread,
                                            sidecar: sidecar, known: .init(id: known.id, rendering: rendering)))
                                } else {
                                    unchanged += 1
                                }
                            } else {
                                sightings.queued.insert(known.id)
                                let asItWas = known.identity == identity && known.sidecar == sidecar?.stamp
                                push(
                                    Job(
                                        path: file.path, albumPath: directory, root: root, identity: identity,
                                        change: asItWas ? .reread : .changed, sidecar: sidecar))
                            }
                            return true
                        }
                        let path = file.path
                        // A moved photo whose sidecar did not move with it unchanged is read again.
                        if let moved = try movedFile(to: path, identity: identity), moved.sidecar == sidecar?.stamp {
                            sightings.ids.insert(moved.id)
                            flush()
                            outcomes.push(.move(FileMove(id: moved.id, path: path, albumPath: directory, root: root)))
                            // Its desktop thumbnails follow it, their text rewritten for the new name;
                            // those that were gone already are made (the move counts the photo).
                            if let desktop, !desktop.move(from: moved.path, to: .init(path: path, identity: identity)),
                                let rendering = moved.rendering
                            {
                                sightings.queued.insert(moved.id)
                                push(
                                    Job(
                                        path: path, albumPath: directory, root: root, identity: identity,
                                        change: .reread,
                                        sidecar: sidecar, known: .init(id: moved.id, rendering: rendering),
                                        desktopMissing: true,
                                        counted: true))
                            }
                        } else {
                            push(
                                Job(
                                    path: path, albumPath: directory, root: root, identity: identity, change: .new,
                                    sidecar: sidecar))
                        }
                    case .vanished:
                        // Deleted since its parent was listed, or gone with the root: the root decides.
                        rootSet.check(root)
                    case .unreadable(let path, let reason):
                        logger.warning("\(path): \(reason)")
                        tally.counts.withLock { $0.unlisted += 1 }
                        progress.update { $0.errors += 1 }
                        try index.recordWalkError(scanID: scanID, path: path, reason: reason)
                        // What was indexed below it cannot be seen now, so it is kept, not removed.
                        var kept = try index.fileIDs(under: path)
                        if let known = existing[NameKey(path.rawBytes.split(separator: UInt8(ascii: "/")).last ?? [])] {
                            kept.append(known.id)
                        }
                        for id in kept where !sightings.ids.contains(id) && !sightings.kept.contains(id) {
                            sightings.kept.insert(id)
                            tally.kept.withLock { $0 += 1 }
                        }
                    }
                } catch {
                    failure = error
                    return false
                }
                return true
            }
            handing: while let chunk = listed.pop() {
                entries = chunk.count
                (sidecarOf, sidecarStamps) = Self.sidecars(in: chunk)
                for event in chunk where !handle(event) { break handing }
            }
            if let failure {
                throw ScanError(readingIndex: failure)
            }
        }
    }

    /// Which file each sidecar among a directory's files belongs to, and each sidecar's stamp.
    static func sidecars(in events: [Walker.Event]) -> ([NameKey: NameKey], [NameKey: SidecarStamp]) {
        var names: [[UInt8]] = []
        var stamps: [NameKey: SidecarStamp] = [:]
        for case .file(let file) in events {
            names.append(file.name)
            if Sidecar.isSidecar(file.name) {
                stamps[NameKey(file.name)] = SidecarStamp(
                    size: file.identity.size, mtimeNanoseconds: file.identity.mtimeNanoseconds)
            }
        }
        guard !stamps.isEmpty else { return ([:], [:]) }
        return (Sidecar.pairs(in: names), stamps)
    }

    /// The indexed file that `path` is, moved or renamed on the same filesystem: same device,
    /// inode, size and mtime, and nothing left at its old path with that inode, or only the
    /// same file through a link (a root moved away and a link to it put in its place).
    func movedFile(to path: FilePath, identity: FileIdentity) throws(IndexError) -> IndexedFile? {
        for candidate in try index.files(device: identity.device, inode: identity.inode)
        where candidate.identity == identity && candidate.path != path {
            let now = try? FileSystem.linkStatus(of: candidate.path)
            let stillThere = now.map { $0.inode == identity.inode && $0.device == identity.device } ?? false
            // A hard link keeps both names: not a move.
            if !stillThere || (try? FileSystem.canonicalPath(candidate.path)) == path { return candidate }
        }
        return nil
    }

    /// Sends unchanged photos whose rendition files the cache check found gone to the workers,
    /// which render what each lacks; photos already on their way there, or not seen, are left.
    func queueRepairs(_ paths: [String], _ run: ScanRun, sightings: inout Sightings) throws(IndexError) {
        let (roots, tally) = (run.roots, run.tally)
        guard !paths.isEmpty else { return }
        var queued = 0
        for file in try index.filesRendered(at: paths)
        where sightings.ids.contains(file.id) && !sightings.queued.contains(file.id) {
            let path = file.path
            guard let rendering = file.rendering,
                let root = roots.paths.first(where: { path.starts(with: $0) && path != $0 })
            else { continue }
            let job = Job(
                path: path, albumPath: path.removingLastComponent(), root: root, identity: file.identity,
                change: .reread,
                known: .init(id: file.id, rendering: rendering))
            hand(job, run, alone: &sightings.alone)
            sightings.queued.insert(file.id)
            queued += 1
        }
        // Photos queued already (by the desktop repair) make their missing renditions anyway.
        guard queued > 0 else { return }
        // The walk counted them unchanged; the writer counts them again once their renditions are made.
        tally.counts.withLock { $0.unchanged -= queued }
        progress.update { $0.done -= queued }
        logger.notice(
            "\(Wording.count(paths.count, "rendition file")) gone from the cache; rendering them again (\(Wording.count(queued, "photo")))"
        )
    }
}
