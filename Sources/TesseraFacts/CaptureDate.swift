public import Foundation
import TesseraSystem

/// Where a photo's capture date came from, strongest first.
public enum DateSource: String, Sendable, Codable, CaseIterable {
    case exifOriginal = "exif-original"
    /// An EXIF date whose UTC offset was derived from the GPS time stamp.
    case gpsOffset = "gps-offset"
    case exifDigitized = "exif-digitized"
    case xmp
    case png
    case filename
    case exifModified = "exif-modified"
    /// A video's QuickTime `com.apple.quicktime.creationdate`: the local time with its offset.
    case quicktime
    /// A video container's `creation_time` (`mvhd`, Matroska DateUTC): an instant in UTC, shown
    /// in the configured time zone.
    case containerUTC = "container-utc"
    /// No date in the file or its name; the file's mtime is kept apart, never as a capture date.
    case undated

    /// Where the date came from, for people: "EXIF, when the photo was taken".
    public var explanation: String {
        switch self {
        case .exifOriginal: "EXIF, when the photo was taken"
        case .gpsOffset: "EXIF, when the photo was taken; its time zone from the GPS clock"
        case .exifDigitized: "EXIF, when the photo was digitised"
        case .xmp: "XMP, as the photo's tools recorded it"
        case .png: "the PNG's own time"
        case .filename: "a guess from the file name"
        case .exifModified: "a guess from EXIF's last-modified time"
        case .quicktime: "the video's own time, as the camera recorded it"
        case .containerUTC: "the video's own time, recorded in UTC and shown in this time zone"
        case .undated: "undated: nothing in the file or its name says when"
        }
    }

    /// The date is guessed (from a name or a modification time), not recorded as the capture's.
    public var isGuess: Bool { [.filename, .exifModified, .undated].contains(self) }
}

/// When a photo was taken: the wall clock as recorded, its UTC offset when known,
/// and an instant to sort by.
///
/// The sort instant is exact when the offset is known. Otherwise the wall
/// clock is read in the configured time zone (by default the system's), which
/// is what the photographer's camera most likely showed at home.
public struct CaptureDate: Sendable, Hashable, Codable {
    public var wallClock: WallClock
    public var utcOffset: UTCOffset?
    public var source: DateSource
    /// Milliseconds since the Unix epoch.
    public var instantMilliseconds: Int64

    public init(wallClock: WallClock, utcOffset: UTCOffset?, source: DateSource, timeZone: TimeZone) {
        self.wallClock = wallClock
        self.utcOffset = utcOffset
        self.source = source
        let asUTC = wallClock.secondsAsUTC
        let offsetSeconds: Int64
        if let utcOffset {
            offsetSeconds = Int64(utcOffset.minutes) * 60
        } else {
            // Two rounds find the offset in force at that local time, across DST changes.
            let first = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(asUTC))))
            offsetSeconds = Int64(
                timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(asUTC - first))))
        }
        self.instantMilliseconds = (asUTC - offsetSeconds) * 1000 + wallClock.milliseconds
    }

    /// The local wall clock of an instant (a timestamp in a file name) in `timeZone`, offset included.
    public init(instantSeconds: Int64, nanoseconds: Int, source: DateSource, timeZone: TimeZone) {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instantSeconds)))
        var clock = WallClock(utcSeconds: instantSeconds + Int64(offset))
        let millis = max(0, min(999, nanoseconds / 1_000_000))
        clock.fraction = pad(millis, 3)
        self.wallClock = clock
        self.utcOffset = UTCOffset(minutes: offset / 60)
        self.source = source
        self.instantMilliseconds = instantSeconds * 1000 + Int64(millis)
    }
}

/// Parsing of the date strings found in EXIF and PNG text.
public enum DateText {
    /// The wall clock in an EXIF date (`YYYY:MM:DD HH:MM:SS`), tolerating `-`, `/` or `.` in
    /// the date part and `T` as the separator; nil when blank, all zero or malformed.
    public static func exif(_ text: String) -> WallClock? {
        let chars = Array(text.trimmingSpaces.utf8)
        guard chars.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let c = chars[index]
                guard (0x30...0x39).contains(c) else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
        let dateSeparators: Set<UInt8> = Set(":-/.".utf8)
        guard dateSeparators.contains(chars[4]), dateSeparators.contains(chars[7]),
            chars[10] == UInt8(ascii: " ") || chars[10] == UInt8(ascii: "T"),
            chars[13] == UInt8(ascii: ":"), chars[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var fraction: String?
        if chars.count > 20, chars[19] == UInt8(ascii: ".") {
            fraction = subSeconds(String(decoding: chars[20...], as: UTF8.self))
        }
        let clock = WallClock(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction)
        return clock.isValid ? clock : nil
    }

    /// The leading digits of an EXIF SubSecTime value, or nil when it has none.
    public static func subSeconds(_ text: String) -> String? {
        let digits = text.trimmingSpaces.prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : String(digits)
    }

    /// Whether an EXIF date field holds no date at all (blank or zeros), as opposed to a malformed one.
    public static func isBlank(_ text: String) -> Bool {
        text.allSatisfy { $0 == " " || $0 == "0" || $0 == ":" || $0 == "\0" || $0 == "-" || $0 == "T" }
    }

    /// A PNG "Creation Time" text: RFC 1123 (`Fri, 14 Jul 2023 18:30:05 +0000`, as the
    /// PNG specification suggests), ISO 8601 or EXIF style.
    ///
    /// Returns the clock and its offset.
    public static func pngCreationTime(_ text: String) -> (WallClock, UTCOffset?)? {
        let trimmed = text.trimmingSpaces
        if let clock = exif(String(trimmed.prefix(19))) {
            let rest = String(trimmed.dropFirst(19))
            var fraction: String?
            var remainder = Substring(rest)
            if remainder.first == "." {
                let digits = remainder.dropFirst().prefix { $0.isASCII && $0.isNumber }
                fraction = digits.isEmpty ? nil : String(digits)
                remainder = remainder.dropFirst(1 + digits.count)
            }
            var withFraction = clock
            withFraction.fraction = fraction
            let offset = remainder.isEmpty ? nil : UTCOffset(parsing: String(remainder))
            return (withFraction, offset)
        }
        return rfc1123(trimmed)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func rfc1123(_ text: String) -> (WallClock, UTCOffset?)? {
        // [Day,] DD Mon YYYY HH:MM[:SS] [zone]
        var words = text.split(separator: " ").map(String.init)
        if let first = words.first, first.hasSuffix(",") { words.removeFirst() }
        guard words.count >= 4, let day = Int(words[0]),
            let month = months.firstIndex(of: words[1].lowercased().prefix(3).description),
            let year = Int(words[2])
        else { return nil }
        let time = words[3].split(separator: ":").compactMap { Int($0) }
        guard time.count == 2 || time.count == 3 else { return nil }
        let clock = WallClock(
            year: year, month: month + 1, day: day, hour: time[0], minute: time[1],
            second: time.count == 3 ? time[2] : 0)
        guard clock.isValid else { return nil }
        var offset: UTCOffset?
        if words.count >= 5 {
            let zone = words[4]
            offset =
                ["GMT", "UT", "UTC", "Z"].contains(zone.uppercased()) ? UTCOffset(minutes: 0) : UTCOffset(parsing: zone)
        }
        return (clock, offset)
    }
}
