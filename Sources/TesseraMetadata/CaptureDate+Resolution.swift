import Foundation
public import TesseraFacts
import TesseraSystem
import TesseraVideo

/// Where a photo's capture date is decided.
extension CaptureDate {
    /// One place that may say when the photo was taken.
    private struct Candidate {
        var label: String
        var text: String
        var source: DateSource
        var parse: (inout [String]) -> (WallClock, UTCOffset?)?
        /// A date already resolved (a file name's), taken as it is.
        var resolved: CaptureDate?

        /// An EXIF date tag, with its sub-seconds and offset tags.
        static func exif(_ tag: ExifFields.DateTag?, _ label: String, _ source: DateSource) -> Candidate? {
            guard let tag else { return nil }
            return Candidate(
                label: "EXIF \(label)", text: tag.dateTime, source: source,
                parse: { warnings in
                    guard var clock = DateText.exif(tag.dateTime) else {
                        warnings.append(
                            DateText.isBlank(tag.dateTime)
                                ? "\(label) is blank; ignored"
                                : "\(label) \"\(tag.dateTime)\" is malformed; ignored")
                        return nil
                    }
                    if let subSeconds = tag.subSeconds.flatMap(DateText.subSeconds) { clock.fraction = subSeconds }
                    var offset: UTCOffset?
                    if let text = tag.offset, !text.trimmingSpaces.isEmpty, !DateText.isBlank(text) {
                        offset = UTCOffset(parsing: text)
                        if offset == nil { warnings.append("\(label) offset \"\(text)\" is malformed; ignored") }
                    }
                    return (clock, offset)
                })
        }

        /// A date written as text, read by `read`; text that is no date is a warning.
        static func text(
            _ text: String?, _ label: String, _ source: DateSource,
            _ read: @escaping (String) -> (WallClock, UTCOffset?)?
        ) -> Candidate? {
            guard let text else { return nil }
            return Candidate(
                label: label, text: text, source: source,
                parse: { warnings in
                    guard let date = read(text) else {
                        warnings.append("\(label) \"\(text)\" is not a date; ignored")
                        return nil
                    }
                    return date
                })
        }

        static func xmp(_ text: String?, _ label: String) -> Candidate? {
            Self.text(text, "XMP \(label)", .xmp, DateText.xmp)
        }

        /// A video container's `creation_time`: an instant in UTC; zero (1904 or 1970 in the file)
        /// means the camera did not set it.
        static func containerTime(_ text: String?, zone: TimeZone, warnings: inout [String]) -> Candidate? {
            guard let text else { return nil }
            guard let (clock, offset) = DateText.pngCreationTime(text) else {
                warnings.append("container creation_time \"\(text)\" is not a date; ignored")
                return nil
            }
            guard clock.year > 1970 else { return nil }
            let instant = clock.secondsAsUTC - Int64((offset?.minutes ?? 0) * 60)
            return Candidate(
                label: "container creation_time (UTC)", text: text, source: .containerUTC, parse: { _ in nil },
                resolved: CaptureDate(instantSeconds: instant, nanoseconds: 0, source: .containerUTC, timeZone: zone))
        }

        /// A PNG's `tIME` chunk, in UTC.
        static func pngTime(_ time: PNGHeader.Time?) -> Candidate? {
            guard let time else { return nil }
            let clock = WallClock(
                year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
                second: time.second)
            return Candidate(
                label: "PNG tIME", text: clock.iso8601 + "Z", source: .png,
                parse: { warnings in
                    guard clock.isValid else {
                        warnings.append("PNG tIME is not a valid date; ignored")
                        return nil
                    }
                    return (clock, UTCOffset(minutes: 0))
                })
        }

        /// A date in the file's name (`FilenameDate`).
        static func fileName(_ name: String, context: DateContext) -> Candidate? {
            let now = WallClock(utcSeconds: Int64(context.now.timeIntervalSince1970))
            let zone = context.timeZone
            var date: CaptureDate?
            if let clock = FilenameDate.parse(name, now: now) {
                date = CaptureDate(wallClock: clock, utcOffset: nil, source: .filename, timeZone: zone)
            } else if let (seconds, nanoseconds) = FilenameDate.instant(name, now: now) {
                date = CaptureDate(instantSeconds: seconds, nanoseconds: nanoseconds, source: .filename, timeZone: zone)
            }
            return date.map {
                Candidate(label: "file name", text: name, source: .filename, parse: { _ in nil }, resolved: $0)
            }
        }
    }

    /// The capture date by precedence (docs/METADATA.md): EXIF DateTimeOriginal → EXIF
    /// DateTimeDigitized → XMP exif:DateTimeOriginal → xmp:CreateDate → photoshop:DateCreated
    /// → PNG Creation Time → PNG tIME → file name → EXIF DateTime; nil (undated) when none
    /// holds a date.
    ///
    /// Blank and malformed dates are skipped with a warning.
    ///
    /// A wall clock without its offset takes one from, in order: the EXIF offset tag of its
    /// own date, `OffsetTime` (for DateTimeOriginal), an XMP date of the same wall clock that has
    /// one, and the GPS time stamp (the difference rounded to 15 minutes: source `gps-offset`).
    static func resolve(
        exif: ExifFields?, xmp: XMPFields?, png: PNGHeader?, video: VideoFacts? = nil, name: String,
        context: DateContext,
        warnings: inout [String], explanations: inout [FactExplanation]
    ) -> CaptureDate? {
        // A video's own dates come first, as EXIF's do for a photo: the camera's clock.
        let candidates = [
            Candidate.text(
                video?.tags["com.apple.quicktime.creationdate"], "QuickTime creationdate", .quicktime,
                DateText.pngCreationTime),
            Candidate.containerTime(video?.tags["creation_time"], zone: context.timeZone, warnings: &warnings),
            Candidate.exif(exif?.dateTimeOriginal, "DateTimeOriginal", .exifOriginal),
            Candidate.exif(exif?.dateTimeDigitized, "DateTimeDigitized", .exifDigitized),
            Candidate.xmp(xmp?.dateTimeOriginal, "exif:DateTimeOriginal"),
            Candidate.xmp(xmp?.createDate, "xmp:CreateDate"),
            Candidate.xmp(xmp?.dateCreated, "photoshop:DateCreated"),
            Candidate.text(png?.creationTime, "PNG Creation Time", .png, DateText.pngCreationTime),
            Candidate.pngTime(png?.time),
            Candidate.fileName(name, context: context),
            Candidate.exif(exif?.dateTime, "DateTime", .exifModified),
        ].compactMap { $0 }
        return choose(
            candidates, exif: exif, xmp: xmp, context: context, warnings: &warnings, explanations: &explanations)
    }

    /// The first candidate that holds a date, with the offset found for it; the others, and why
    /// each lost, for `explain`.
    private static func choose(
        _ candidates: [Candidate], exif: ExifFields?, xmp: XMPFields?, context: DateContext,
        warnings: inout [String], explanations: inout [FactExplanation]
    ) -> CaptureDate? {
        let zone = context.timeZone
        var chosen: CaptureDate?
        var rule = "no date in the file or its name: undated"
        var considered: [FactExplanation.Candidate] = []
        var offsetExplanation: FactExplanation?
        // The candidate whose zone the chosen date took, though its own date lost.
        var offsetGiver: String?
        for candidate in candidates {
            guard chosen == nil else {
                let outcome =
                    candidate.label == offsetGiver ? "lower precedence; gave the UTC offset" : "lower precedence"
                considered.append(.init(source: candidate.label, value: candidate.text, outcome: outcome))
                continue
            }
            if let date = candidate.resolved {
                chosen = date
                rule =
                    candidate.source == .filename
                    ? "date in the file name" : "\(candidate.label), in \(zone.identifier)"
                considered.append(.init(source: candidate.label, value: candidate.text, outcome: "chosen"))
                continue
            }
            guard let (clock, ownOffset) = candidate.parse(&warnings) else {
                considered.append(.init(source: candidate.label, value: candidate.text, outcome: "not a date"))
                continue
            }
            var offset = ownOffset
            var source = candidate.source
            var offsetRule = ownOffset.map { _ in "\(candidate.label) carries it" }
            if offset == nil, candidate.source == .exifOriginal, let text = exif?.dateTime?.offset,
                let tagged = UTCOffset(parsing: text)
            {
                offset = tagged
                offsetRule = "EXIF OffsetTime"
            }
            if offset == nil, let match = xmpOffset(for: clock, in: xmp) {
                offset = match.offset
                offsetRule = "XMP \(match.label) (the same wall clock) gives it"
                offsetGiver = "XMP \(match.label)"
            }
            if offset == nil, let instant = exif?.gpsInstant, let derived = gpsOffset(clock: clock, gpsInstant: instant)
            {
                offset = derived
                source = .gpsOffset
                offsetRule = "derived from the GPS time stamp (rounded to 15 minutes)"
            }
            chosen = CaptureDate(wallClock: clock, utcOffset: offset, source: source, timeZone: zone)
            rule = candidate.label
            considered.append(.init(source: candidate.label, value: candidate.text, outcome: "chosen"))
            if context.explaining {
                offsetExplanation = FactExplanation(
                    fact: "utc offset", value: offset?.description,
                    rule: offsetRule ?? "none recorded: the wall clock is read in \(zone.identifier)")
            }
        }
        if context.explaining {
            considered.append(.init(source: "file mtime", value: "", outcome: "never a capture date"))
            explanations.append(
                FactExplanation(
                    fact: "date", value: chosen.map { $0.wallClock.iso8601 } ?? "undated", rule: rule,
                    candidates: considered))
            if let offsetExplanation { explanations.append(offsetExplanation) }
        }
        return chosen
    }

    /// The offset of an XMP date that shows the same wall clock (to the second).
    private static func xmpOffset(for clock: WallClock, in xmp: XMPFields?) -> (offset: UTCOffset, label: String)? {
        let dates = [
            ("exif:DateTimeOriginal", xmp?.dateTimeOriginal), ("xmp:CreateDate", xmp?.createDate),
            ("photoshop:DateCreated", xmp?.dateCreated),
        ]
        for case let (label, text?) in dates {
            if let (other, offset) = DateText.xmp(text), let offset, other.secondsAsUTC == clock.secondsAsUTC {
                return (offset, label)
            }
        }
        return nil
    }

    /// The camera clock's offset from UTC, from a GPS fix taken at the same moment: their
    /// difference rounded to 15 minutes (every zone in use is a multiple), within ±14 hours.
    static func gpsOffset(clock: WallClock, gpsInstant: Int64) -> UTCOffset? {
        let difference = Double(clock.secondsAsUTC - gpsInstant) / 60
        let minutes = Int((difference / 15).rounded()) * 15
        guard abs(minutes) <= 14 * 60 else { return nil }
        return UTCOffset(minutes: minutes)
    }
}

extension DateText {
    /// An XMP date (ISO 8601 as XMP restricts it: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, then
    /// `THH:MM`, `:SS`, `.s…` and a zone `Z` or `±HH:MM`), or the EXIF-style text some
    /// writers put there.
    ///
    /// A date without a time is taken at midnight.
    public static func xmp(_ text: String) -> (WallClock, UTCOffset?)? {
        let trimmed = text.trimmingSpaces
        if trimmed.count >= 19, let date = pngCreationTime(trimmed) {
            return date
        }
        let chars = Array(trimmed.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(chars[index]) else { return nil }
                value = value * 10 + Int(chars[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0
        var index = 4
        if index < chars.count {
            guard chars[index] == UInt8(ascii: "-"), let value = number(5..<7) else { return nil }
            month = value
            index = 7
        }
        if index < chars.count {
            guard chars[index] == UInt8(ascii: "-"), let value = number(8..<10) else { return nil }
            day = value
            index = 10
        }
        var offset: UTCOffset?
        if index < chars.count {
            // Hours and minutes without seconds; a zone may follow.
            guard chars[index] == UInt8(ascii: "T"), let h = number(11..<13), chars.count >= 16,
                chars[13] == UInt8(ascii: ":"), let m = number(14..<16)
            else { return nil }
            (hour, minute) = (h, m)
            if chars.count > 16 {
                let zone = String(decoding: chars[16...], as: UTF8.self)
                guard let parsed = zone == "Z" ? UTCOffset(minutes: 0) : UTCOffset(parsing: zone) else { return nil }
                offset = parsed
            }
        }
        let clock = WallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: 0)
        guard clock.isValid, year > 0 else { return nil }
        return (clock, offset)
    }
}
