public import SystemPackage
public import TesseraSystem

/// Walks photo roots depth first with one `fstatat` per entry, never opening files.
///
/// Names are bytes: a name that is not valid UTF-8 is walked like any other.
/// Hidden entries (a leading dot) and entries matching an exclude glob are
/// skipped. Symbolic links are skipped unless followed; when followed, every
/// directory is entered once per (device, inode), which ends link loops. A folder holding
/// `FileSystem.ownOutputMarker` (an album site Tessera built) is never entered.
public struct Walker: Sendable {
    public struct Options: Sendable {
        public var exclude: [String]
        public var followSymlinks: Bool
        /// Directories never entered (the index's and the cache's, when inside a root).
        public var skip: Set<FilePath>

        public init(exclude: [String], followSymlinks: Bool, skip: Set<FilePath>) {
            self.exclude = exclude
            self.followSymlinks = followSymlinks
            self.skip = skip
        }
    }

    /// What the walk reports, in order: each directory before its files.
    public enum Event: Sendable {
        /// A directory about to be listed, with its path's exact bytes and the device it is on.
        case directory(FilePath, bytes: [UInt8], device: UInt64)
        /// A regular file in the last directory reported, by name; `File.path` builds its path.
        case file(File)
        /// A directory that could not be listed; what was indexed below it must be kept.
        case unreadable(FilePath, reason: String)
        /// A directory that was gone when the walk came to it (deleted, or its root unmounted).
        case vanished(FilePath)
    }

    /// A regular file: its directory and name as bytes, and its identity from `fstatat`.
    public struct File: Sendable {
        public let directory: [UInt8]
        public let name: [UInt8]
        public let identity: FileIdentity

        public var path: FilePath { FilePath(rawBytes: directory + [UInt8(ascii: "/")] + name) }
    }

    let options: Options
    /// The skipped paths by their directory's bytes, so each directory is looked up once.
    private let skipByDirectory: [NameKey: Set<NameKey>]

    public init(options: Options) {
        self.options = options
        var skip: [NameKey: Set<NameKey>] = [:]
        for path in options.skip {
            let bytes = path.rawBytes
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { continue }
            skip[NameKey(bytes[..<slash]), default: []].insert(NameKey(bytes[(slash + 1)...]))
        }
        skipByDirectory = skip
    }

    /// Walks `root`, calling `visit` for every event; `visit` returns false to stop the walk.
    public func walk(_ root: FilePath, _ visit: (Event) -> Bool) {
        var pending = [root]
        var visited: Set<[UInt64]> = []
        let globs = options.exclude.map(Glob.init)
        while let directory = pending.popLast() {
            let listing: DirectoryListing
            do {
                listing = try DirectoryListing(opening: directory)
            } catch  where error.isVanished {
                guard visit(.vanished(directory)) else { return }
                continue
            } catch {
                guard visit(.unreadable(directory, reason: "cannot list: \(error.errno)")) else { return }
                continue
            }
            guard let identity = listing.identity else {
                guard visit(.vanished(directory)) else { return }
                continue
            }
            guard visited.insert([identity.device, identity.inode]).inserted,
                !listing.holds(FileSystem.ownOutputMarker)
            else { continue }
            let directoryBytes = directory.rawBytes
            let skipHere = skipByDirectory[NameKey(directoryBytes)]
            guard visit(.directory(directory, bytes: directoryBytes, device: identity.device)) else { return }
            var subdirectories: [FilePath] = []
            var stopped = false
            listing.forEach { entry in
                guard entry.name.first != UInt8(ascii: ".") else { return true }  // hidden
                let name = Array(entry.name)
                guard skipHere?.contains(NameKey(name)) != true,
                    !isExcluded(name: name, directory: directoryBytes, root: root, globs: globs)
                else { return true }
                let status: FileStatus
                switch entry.status(followSymlinks: options.followSymlinks) {
                case .success(let found): status = found
                case .failure(let error):
                    if !error.isVanished {  // deleted since it was listed: nothing to report
                        let path = FilePath(rawBytes: directoryBytes + [UInt8(ascii: "/")] + name)
                        stopped = !visit(.unreadable(path, reason: "cannot stat: \(error.errno)"))
                    }
                    return !stopped
                }
                switch status.type {
                case .directory:
                    subdirectories.append(FilePath(rawBytes: directoryBytes + [UInt8(ascii: "/")] + name))
                case .regular:
                    stopped = !visit(.file(File(directory: directoryBytes, name: name, identity: FileIdentity(status))))
                default:
                    break  // symlinks not followed, devices, FIFOs, sockets
                }
                return !stopped
            }
            if stopped { return }
            // Sorted and reversed so the stack pops them in name order.
            pending += subdirectories.sorted { $0.rawBytes.lexicographicallyPrecedes($1.rawBytes) }.reversed()
        }
    }

    private func isExcluded(name: [UInt8], directory: [UInt8], root: FilePath, globs: [Glob]) -> Bool {
        guard !globs.isEmpty else { return false }
        var relative = FilePath(rawBytes: directory + [UInt8(ascii: "/")] + name)
        _ = relative.removePrefix(root)
        let relativeBytes = relative.rawBytes
        return globs.contains { $0.matches(name) || $0.matches(relativeBytes) }
    }
}
