import Foundation
import GRDB
import TesseraFacts

extension PhotoIndex {
    /// The copies among the indexed files that are present and were read (docs/DUPLICATES.md),
    /// as `DuplicateGroups.find` decides them.
    public func duplicateGroups(
        colourLimit: Double, colours: (_ placeholder: [UInt8]) -> [Double]?
    ) throws(IndexError) -> [DuplicateGroup] {
        DuplicateGroups.find(try duplicateCandidates(), colourLimit: colourLimit, colours: colours)
    }

    /// Every present, read file with what deciding copies needs of it.
    func duplicateCandidates() throws(IndexError) -> [DuplicateCandidate] {
        try read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, path, format, kind, display_width, display_height, size, mtime_ns, content_hash,
                        phash, captured_at, make, model, thumbhash
                    FROM photos
                    WHERE status IN ('ok', 'warning') AND missing_since_ms IS NULL AND content_hash IS NOT NULL
                    """)
            var found: [DuplicateCandidate] = []
            while let row = try rows.next() {
                found.append(
                    DuplicateCandidate(
                        id: row[0], pathBytes: [UInt8](row[1] as Data),
                        format: ImageFormat(rawValue: row[2]) ?? .unsupported, isVideo: row[3] as String? == "video",
                        width: row[4], height: row[5], bytes: row[6] ?? 0, mtimeNanoseconds: row[7] ?? 0,
                        contentHash: row[8], perceptualHash: (row[9] as Int64?).map { UInt64(bitPattern: $0) },
                        capturedAt: row[10], make: row[11], model: row[12],
                        placeholder: (row[13] as Data?).map { [UInt8]($0) }))
            }
            return found
        }
    }
}
