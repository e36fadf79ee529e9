public import Foundation
import GRDB
import TesseraMetadata

/// Capture dates resolved again when the time zone they depend on changes.
extension PhotoIndex {
    /// The `state` key of the time zone the index's dates were resolved in.
    public static let timeZoneKey = "time_zone"

    /// Resolves again, in `zone`, every capture date that depends on the time zone, and returns
    /// how many changed. A wall clock written without an offset (EXIF, a file name) keeps its
    /// clock and gets a new instant; a date from an instant (a file's mtime, a timestamp in a
    /// name) keeps its instant and gets a new clock and offset. Pixels are not touched.
    public func resolveDates(in zone: TimeZone) throws(IndexError) -> Int {
        try write { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, captured_at, utc_offset, date_source, sort_instant_ms FROM photos
                WHERE captured_at IS NOT NULL AND (utc_offset IS NULL OR date_source IN ('mtime', 'filename'))
                """)
            var changes: [(id: Int64, clock: String, offset: String?, instant: Int64)] = []
            while let row = try rows.next() {
                guard let source = (row["date_source"] as String?).flatMap(DateSource.init(rawValue:)),
                      let text = row["captured_at"] as String?, let instant = row["sort_instant_ms"] as Int64?
                else { continue }
                let offset = row["utc_offset"] as String?
                let date: CaptureDate
                if offset == nil {
                    guard let clock = DateText.exif(text) else { continue }
                    date = CaptureDate(wallClock: clock, utcOffset: nil, source: source, timeZone: zone)
                } else {
                    let seconds = instant >= 0 ? instant / 1000 : (instant - 999) / 1000
                    let milliseconds = Int(instant - seconds * 1000)
                    date = CaptureDate(instantSeconds: seconds, nanoseconds: milliseconds * 1_000_000, source: source, timeZone: zone)
                }
                let newOffset = date.utcOffset?.description
                if date.wallClock.iso8601 != text || newOffset != offset || date.instantMilliseconds != instant {
                    changes.append((row["id"], date.wallClock.iso8601, newOffset, date.instantMilliseconds))
                }
            }
            let update = try db.makeStatement(
                sql: "UPDATE photos SET captured_at = ?, utc_offset = ?, sort_instant_ms = ? WHERE id = ?")
            for change in changes {
                try update.execute(arguments: [change.clock, change.offset, change.instant, change.id])
            }
            return changes.count
        }
    }
}
