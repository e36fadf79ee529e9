public import Foundation
import GRDB
import TesseraFacts

/// Capture dates resolved again when the time zone they depend on changes.
extension PhotoIndex {
    /// Resolves again, in `zone`, every capture date that depends on the time zone, and returns
    /// how many changed.
    ///
    /// A wall clock written without an offset (EXIF, a file name) keeps its
    /// clock and gets a new instant; a date from an instant (a timestamp in a
    /// name) keeps its instant and gets a new clock and offset. Pixels are not touched.
    public func resolveDates(in zone: TimeZone) throws(IndexError) -> Int {
        try write { db in
            // In pages of ids, so that memory stays small at any library size.
            let page = try db.makeStatement(
                sql: """
                    SELECT id, captured_at, utc_offset, date_source, sort_instant_ms FROM photos
                    WHERE id > ? AND captured_at IS NOT NULL AND (utc_offset IS NULL OR date_source = 'filename')
                    ORDER BY id LIMIT 1000
                    """)
            let update = try db.makeStatement(
                sql: "UPDATE photos SET captured_at = ?, utc_offset = ?, sort_instant_ms = ? WHERE id = ?")
            var changed = 0
            var after: Int64 = 0
            while true {
                let rows = try Row.fetchAll(page, arguments: [after])
                guard let last = rows.last else { return changed }
                after = last["id"]
                for row in rows {
                    guard let date = Self.resolved(row, in: zone) else { continue }
                    try update.execute(arguments: [
                        date.wallClock.iso8601, date.utcOffset?.description, date.instantMilliseconds, row["id"],
                    ])
                    changed += 1
                }
            }
        }
    }

    /// The capture date of `row` resolved in `zone`; nil when it stays as it is.
    private static func resolved(_ row: Row, in zone: TimeZone) -> CaptureDate? {
        guard let source = (row["date_source"] as String?).flatMap(DateSource.init(rawValue:)),
            let text = row["captured_at"] as String?, let instant = row["sort_instant_ms"] as Int64?
        else { return nil }
        let offset = row["utc_offset"] as String?
        let date: CaptureDate
        if offset == nil {
            guard let clock = DateText.exif(text) else { return nil }
            date = CaptureDate(wallClock: clock, utcOffset: nil, source: source, timeZone: zone)
        } else {
            let seconds = instant >= 0 ? instant / 1000 : (instant - 999) / 1000
            let milliseconds = Int(instant - seconds * 1000)
            date = CaptureDate(
                instantSeconds: seconds, nanoseconds: milliseconds * 1_000_000, source: source, timeZone: zone)
        }
        let unchanged =
            date.wallClock.iso8601 == text && date.utcOffset?.description == offset
            && date.instantMilliseconds == instant
        return unchanged ? nil : date
    }
}
