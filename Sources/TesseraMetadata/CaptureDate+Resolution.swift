import TesseraSystem
import Foundation

/// Where a photo's capture date is decided.
extension CaptureDate {
    /// The capture date by precedence: EXIF original → digitized → PNG creation time →
    /// file name → EXIF DateTime → mtime. Blank and malformed dates are skipped with a warning.
    static func resolve(
        exif: ExifFields?, png: PNGHeader?, name: String, mtime: FileTime, context: DateContext,
        warnings: inout [String]
    ) -> CaptureDate {
        let zone = context.timeZone
        func fromExif(_ tag: ExifFields.DateTag?, _ label: String, _ source: DateSource) -> CaptureDate? {
            guard let tag else { return nil }
            guard var clock = DateText.exif(tag.dateTime) else {
                warnings.append(
                    DateText.isBlank(tag.dateTime)
                        ? "\(label) is blank; ignored" : "\(label) \"\(tag.dateTime)\" is malformed; ignored")
                return nil
            }
            if let subSeconds = tag.subSeconds.flatMap(DateText.subSeconds) {
                clock.fraction = subSeconds
            }
            var offset: UTCOffset?
            if let text = tag.offset, !text.trimmingSpaces.isEmpty, !DateText.isBlank(text) {
                offset = UTCOffset(parsing: text)
                if offset == nil { warnings.append("\(label) offset \"\(text)\" is malformed; ignored") }
            }
            return CaptureDate(wallClock: clock, utcOffset: offset, source: source, timeZone: zone)
        }
        if let date = fromExif(exif?.dateTimeOriginal, "DateTimeOriginal", .exifOriginal) { return date }
        if let date = fromExif(exif?.dateTimeDigitized, "DateTimeDigitized", .exifDigitized) { return date }
        if let text = png?.creationTime {
            if let (clock, offset) = DateText.pngCreationTime(text) {
                return CaptureDate(wallClock: clock, utcOffset: offset, source: .png, timeZone: zone)
            }
            warnings.append("PNG Creation Time \"\(text)\" is not a date; ignored")
        }
        if let time = png?.time {
            let clock = WallClock(
                year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
                second: time.second)
            if clock.isValid {
                return CaptureDate(wallClock: clock, utcOffset: UTCOffset(minutes: 0), source: .png, timeZone: zone)
            }
            warnings.append("PNG tIME is not a valid date; ignored")
        }
        let now = WallClock(utcSeconds: Int64(context.now.timeIntervalSince1970))
        if let clock = FilenameDate.parse(name, now: now) {
            return CaptureDate(wallClock: clock, utcOffset: nil, source: .filename, timeZone: zone)
        }
        if let (seconds, nanoseconds) = FilenameDate.instant(name, now: now) {
            return CaptureDate(instantSeconds: seconds, nanoseconds: nanoseconds, source: .filename, timeZone: zone)
        }
        if let date = fromExif(exif?.dateTime, "DateTime", .exifModified) { return date }
        return CaptureDate(
            instantSeconds: mtime.seconds, nanoseconds: mtime.nanoseconds, source: .mtime, timeZone: zone)
    }
}
