public import SystemPackage
import TesseraImage
public import TesseraIndex
import TesseraMetadata
import TesseraSystem

extension LibraryScanner {
    /// Files read by others (a cluster's workers), recorded in this scanner's index as one scan
    /// of `roots` records them: the same rows, then the same albums, stacks and copies.
    public struct Import: ~Copyable {
        let scanner: LibraryScanner
        let id: Int64
        var counts = ScanCounts()

        /// Writes `updates` in one transaction.
        public mutating func add(_ updates: [FileUpdate]) throws(ScanError) {
            do throws(IndexError) {
                try scanner.index.apply(updates, moves: [], scanID: id)
            } catch {
                throw ScanError(writingIndex: error)
            }
            for update in updates {
                counts.found += 1
                switch update.content {
                case .photo(_, let warnings, _):
                    counts.new += 1
                    if !warnings.isEmpty { counts.warnings += 1 }
                case .failed: counts.errors += 1
                case .unsupported: counts.unsupported += 1
                }
            }
        }

        /// Decides the albums, stacks and copies, and records the scan as finished.
        public consuming func finish() throws(ScanError) -> ScanCounts {
            do throws(IndexError) {
                try scanner.index.refreshAlbums()
                scanner.refreshGroups()
                scanner.refreshPlaces()
                try scanner.index.setState(StateKey.decoders, Renderer.decoders)
                try scanner.index.setState(StateKey.readers, MetadataReader.version)
                try scanner.index.finishScan(id: id, counts: counts, state: .finished)
            } catch {
                throw ScanError(writingIndex: error)
            }
            return counts
        }
    }

    /// Begins recording files read elsewhere under `roots`.
    public func importing(roots: [FilePath]) throws(ScanError) -> Import {
        let scan: (id: Int64, recovered: Bool)
        do throws(IndexError) {
            scan = try index.beginScan(roots: roots, full: false)
        } catch {
            throw ScanError(writingIndex: error)
        }
        _ = try resolveDatesIfTheTimeZoneChanged()
        return Import(scanner: self, id: scan.id)
    }
}
