import Foundation
import GRDB
public import TesseraFacts

/// Where the index keeps each analysis's output (docs/INDEX.md, "Analyses"): the one place that
/// knows, for a new analysis, which columns or table it writes.
enum AnalysisStorage {
    /// The `photos` columns an output sets (none for one kept in a table of its own).
    static func columns(of output: AnalysisOutput) -> [String: (any DatabaseValueConvertible)?] {
        switch output {
        case .pictureHashes(let hash, let detail):
            ["phash": Int64(bitPattern: hash), "phash_detail": Data(detail.bytes)]
        case .faces: [:]
        }
    }

    /// Writes `output` of photo `id`: into its row's columns (unless `columns` is false: an
    /// upsert wrote them), or into its own table.
    static func write(_ output: AnalysisOutput, photo id: Int64, columns: Bool, _ db: Database) throws {
        switch output {
        case .faces(let faces):
            try PhotoIndex.replaceFaces(of: id, with: faces, db)
        case .pictureHashes:
            guard columns else { return }
            let values = Self.columns(of: output).sorted { $0.key < $1.key }
            try db.cachedStatement(
                sql: "UPDATE photos SET \(values.map { "\($0.key) = ?" }.joined(separator: ", ")) WHERE id = ?"
            ).execute(arguments: StatementArguments(values.map(\.value) + [id]))
        }
    }

    /// The columns of `photos` that hold outputs, for `outputs(_:)`.
    static let selection = "phash, phash_detail"

    /// The outputs recorded in a row that selected `selection` (in that order) from `first` on.
    static func outputs(_ row: Row, from first: Int) -> [AnalysisOutput] {
        var outputs: [AnalysisOutput] = []
        if let hash = row[first] as Int64?, let detail = (row[first + 1] as Data?).flatMap(DetailHash.init(bytes:)) {
            outputs.append(.pictureHashes(UInt64(bitPattern: hash), detail))
        }
        return outputs
    }

    /// The `state` key holding the version an analysis was last queued for.
    static func stateKey(_ name: AnalysisName) -> String { "analysis:\(name.rawValue)" }
}

/// One photo the analysis stage has to read again: its record (path, facts, renditions) and
/// the analyses it waits for.
public struct PendingAnalysis: Sendable {
    public var record: PhotoRecord
    public var analyses: [AnalysisName]
}

/// How far an analysis has come over the library, for `status`.
public struct AnalysisProgress: Sendable, Equatable, Codable {
    public var name: AnalysisName
    /// Photos waiting for it.
    public var pending: Int
    /// Photos it could not analyse, not tried again until they change.
    public var failed: Int
}

extension PhotoIndex {
    /// Queues every shown photo with renditions for each analysis whose version differs from the
    /// one it was last queued for (a new analysis, or a new version), and records the versions;
    /// how many photos were queued.
    public func enqueueAnalyses(_ versions: [AnalysisName: Int]) throws(IndexError) -> Int {
        try write { db in
            var queued = 0
            for (name, version) in versions.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let key = AnalysisStorage.stateKey(name)
                let recorded = try String.fetchOne(db, sql: "SELECT value FROM state WHERE key = ?", arguments: [key])
                guard recorded != String(version) else { continue }
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO analysis_queue (analysis, photo_id, version, failure)
                        SELECT ?, id, ?, NULL FROM photos WHERE \(PhotoSQL.shown()) AND thumbnail_key IS NOT NULL
                        """,
                    arguments: [name.rawValue, version])
                queued += db.changesCount
                try db.execute(
                    sql: "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", arguments: [key, String(version)])
            }
            return queued
        }
    }

    /// Up to `limit` shown photos after row `after` that wait for an analysis, in id order.
    public func pendingAnalyses(after: Int64, limit: Int) throws(IndexError) -> [PendingAnalysis] {
        try read { db in
            var names: [Int64: [AnalysisName]] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT q.photo_id, q.analysis FROM analysis_queue q JOIN photos p ON p.id = q.photo_id
                    WHERE q.failure IS NULL AND q.photo_id IN (
                        SELECT DISTINCT photo_id FROM analysis_queue
                        WHERE failure IS NULL AND photo_id > ? ORDER BY photo_id LIMIT ?)
                        AND \(PhotoSQL.shown("p"))
                    """,
                arguments: [after, limit])
            for row in rows { names[row[0], default: []].append(AnalysisName(rawValue: row[1])) }
            return try Self.photos(ids: names.keys.sorted(), db).map {
                PendingAnalysis(record: $0, analyses: names[$0.id] ?? [])
            }
        }
    }

    /// Records what the analysis stage found: each output in its photo's row, and the queue
    /// rows of what is done dropped (of what failed, kept with why).
    public func recordAnalyses(_ results: [Int64: [AnalysisResult]]) throws(IndexError) {
        try write { db in
            for (id, photoResults) in results.sorted(by: { $0.key < $1.key }) {
                try Self.record(photoResults, photo: id, db)
            }
        }
    }

    /// Writes `results` of photo `id`: outputs into its row (with `writingOutputs`; an upsert
    /// wrote them already) or their tables, and its queue rows as they say.
    static func record(
        _ results: [AnalysisResult], photo id: Int64, _ db: Database, writingOutputs: Bool = true
    ) throws {
        for result in results {
            if let output = result.output {
                try AnalysisStorage.write(output, photo: id, columns: writingOutputs, db)
            }
            switch result.outcome {
            case .done:
                try db.cachedStatement(sql: "DELETE FROM analysis_queue WHERE analysis = ? AND photo_id = ?")
                    .execute(arguments: [result.name.rawValue, id])
            case .pending, .failed:
                let failure: String? = if case .failed(let reason) = result.outcome { reason } else { nil }
                try db.cachedStatement(
                    sql: """
                        INSERT OR REPLACE INTO analysis_queue (analysis, photo_id, version, failure)
                        VALUES (?, ?, ?, ?)
                        """
                ).execute(arguments: [result.name.rawValue, id, result.version, failure])
            }
        }
    }

    /// What each analysis has still to do, and could not.
    public func analysisProgress() throws(IndexError) -> [AnalysisProgress] {
        try read(Self.analysisProgress)
    }

    static func analysisProgress(_ db: Database) throws -> [AnalysisProgress] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT q.analysis, count(*) FILTER (WHERE q.failure IS NULL), count(q.failure)
                FROM analysis_queue q JOIN photos p ON p.id = q.photo_id
                WHERE \(PhotoSQL.shown("p")) GROUP BY q.analysis ORDER BY q.analysis
                """
        ).map { AnalysisProgress(name: AnalysisName(rawValue: $0[0]), pending: $0[1], failed: $0[2]) }
    }
}
