#if Cluster
import Foundation
public import Logging
import NIOCore
import PostgresNIO
public import SystemPackage
public import TesseraConfiguration
import TesseraImage
import TesseraIndex
public import TesseraObjectStore
import TesseraScan
import TesseraSystem

/// `tessera export-index`: the cluster's index as the documented SQLite file, written by the
/// same code a scan writes one with, so every program that reads an index reads it.
public struct ClusterExport: Sendable {
    /// What the export wrote.
    public struct Summary: Sendable, Equatable {
        public var files = 0
        /// Files found but not read yet (queued): left out.
        public var unread = 0
        /// Rendition objects fetched into the cache.
        public var fetched = 0
    }

    let index: ClusterIndex
    let store: ObjectStore
    let configuration: Configuration
    let logger: Logger

    public init(index: ClusterIndex, store: ObjectStore, configuration: Configuration, logger: Logger) {
        self.index = index
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    /// Writes the index to `out` (replacing it whole at the end), with every rendition it names
    /// fetched into the cache folder `renditions`, where its rows say they are.
    public func run(to out: FilePath, renditions: FilePath) async throws(ClusterError) -> Summary {
        let out = FileSystem.absolute(out)
        let renditions = FileSystem.absolute(renditions)
        let partial = FilePath(out.string + ".partial")
        for suffix in ["", "-wal", "-shm"] { try? FileSystem.removeFile(FilePath(partial.string + suffix)) }
        var summary = Summary()
        let cache = RenditionCache(root: renditions)
        do {
            // The index is closed at the end of this block, its file whole.
            let photoIndex: PhotoIndex
            do throws(IndexError) {
                photoIndex = try PhotoIndex(path: partial)
            } catch {
                throw ClusterError(.local, "cannot write \(partial): \(error)")
            }
            var local = configuration
            local.index = partial
            local.cache = renditions
            let scanner = LibraryScanner(configuration: local, index: photoIndex, logger: logger)
            let roots = try await self.roots()
            var recording: LibraryScanner.Import
            do throws(ScanError) {
                recording = try scanner.importing(roots: roots)
            } catch {
                throw ClusterError(.local, "\(error)")
            }
            var after: Int64 = 0
            while true {
                let (rows, unread, last) = try await page(after: after)
                summary.unread += unread
                guard let last else { break }
                after = last
                var updates: [FileUpdate] = []
                for (path, album, root, sidecar, record) in rows {
                    for object in Set(record.renditions?.entries.map(\.object) ?? []) {
                        let file = FilePath(renditions.string + "/" + object)
                        guard !cache.contains(file) else { continue }
                        let bytes: [UInt8]?
                        do throws(ObjectStoreError) {
                            bytes = try await store.get(object)
                        } catch {
                            throw ClusterError(.local, "cannot fetch \(object): \(error)")
                        }
                        guard let bytes else {
                            throw ClusterError(
                                .local, "\(path): its rendition \(object) is not in \(store.location.description)")
                        }
                        do throws(SystemError) {
                            try cache.write(bytes, to: file)
                        } catch {
                            throw ClusterError(.local, "cannot write \(file): \(error)")
                        }
                        summary.fetched += 1
                    }
                    updates.append(
                        FileUpdate(
                            path: path, albumPath: album, root: root, identity: record.identity, sidecar: sidecar,
                            content: record.content(cacheRoot: renditions)))
                }
                do throws(ScanError) {
                    try recording.add(updates)
                } catch {
                    throw ClusterError(.local, "\(error)")
                }
                summary.files += updates.count
            }
            do throws(ScanError) {
                _ = try recording.finish()
            } catch {
                throw ClusterError(.local, "\(error)")
            }
            photoIndex.checkpoint()
        }
        for suffix in ["-wal", "-shm"] { try? FileSystem.removeFile(FilePath(out.string + suffix)) }
        do throws(SystemError) {
            try FileSystem.replace(out, with: partial)
        } catch {
            throw ClusterError(.local, "cannot put the index at \(out): \(error)")
        }
        return summary
    }

    /// The roots files were found under.
    private func roots() async throws(ClusterError) -> [FilePath] {
        try await index.perform("list the roots") { [logger] client in
            var roots: [FilePath] = []
            for try await root in try await client.query(
                "SELECT DISTINCT root FROM files WHERE missing_since IS NULL ORDER BY root", logger: logger
            ).decode(ByteBuffer.self) {
                roots.append(ClusterIndex.path(root))
            }
            return roots
        }
    }

    private typealias Row = (FilePath, FilePath, FilePath, SidecarIdentity?, FileRecord)

    /// The next 1,000 present files after id `after` that were read, how many of them were
    /// not, and the last id seen (nil: none left).
    private func page(after: Int64) async throws(ClusterError) -> ([Row], Int, Int64?) {
        try await index.perform("read files") { [logger] client in
            var rows: [Row] = []
            var unread = 0
            var last: Int64?
            for try await row in try await client.query(
                """
                SELECT id, path, album, root, sidecar_name, sidecar_size, sidecar_mtime_ns, record::text
                FROM files WHERE id > \(after) AND missing_since IS NULL ORDER BY id LIMIT 1000
                """, logger: logger)
            {
                let (id, path, album, root, sidecarName, sidecarSize, sidecarTime, json) = try row.decode(
                    (Int64, ByteBuffer, ByteBuffer, ByteBuffer, ByteBuffer?, Int64?, Int64?, String?).self)
                last = id
                guard let json else {
                    unread += 1
                    continue
                }
                let record = try FileRecord.decoder.decode(FileRecord.self, from: Data(json.utf8))
                var sidecar: SidecarIdentity?
                if let sidecarName, let sidecarSize, let sidecarTime {
                    sidecar = SidecarIdentity(
                        name: Array(sidecarName.readableBytesView),
                        stamp: SidecarStamp(size: sidecarSize, mtimeNanoseconds: sidecarTime))
                }
                rows.append(
                    (
                        ClusterIndex.path(path), ClusterIndex.path(album), ClusterIndex.path(root), sidecar,
                        record
                    ))
            }
            return (rows, unread, last)
        }
    }
}
#endif
