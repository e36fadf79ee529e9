import TesseraSystem

/// A date and time as a clock showed it, with no time zone attached.
public struct WallClock: Sendable, Hashable, Comparable, Codable {
    public var year, month, day, hour, minute, second: Int
    /// Sub-second digits as written (such as "239" for .239 s), or nil when unknown.
    public var fraction: String?

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: String? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fraction = fraction.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether every field lies in its calendar range (proleptic Gregorian, no leap seconds).
    public var isValid: Bool {
        (1...9999).contains(year) && (1...12).contains(month)
            && (1...WallClock.daysIn(month: month, year: year)).contains(day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }

    /// `YYYY-MM-DDTHH:MM:SS`, plus `.fff` (milliseconds) when sub-seconds are known.
    public var iso8601: String {
        var text = "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))"
        if let fraction {
            text += "." + String((fraction + "000").prefix(3))
        }
        return text
    }

    /// Milliseconds in the fraction (its first three digits).
    var milliseconds: Int64 {
        guard let fraction else { return 0 }
        return Int64(String((fraction + "000").prefix(3))) ?? 0
    }

    /// Seconds since 1970-01-01T00:00:00 if this clock showed UTC.
    public var secondsAsUTC: Int64 {
        // Days from civil, after H. Hinnant's public-domain date algorithms.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
    }

    /// The UTC clock `seconds` after the epoch.
    public init(utcSeconds seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(
            year: Int(year), month: Int(month), day: Int(day), hour: Int(secondOfDay / 3600),
            minute: Int(secondOfDay % 3600 / 60), second: Int(secondOfDay % 60))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (lhs: WallClock, rhs: WallClock) -> Bool {
        (lhs.secondsAsUTC, lhs.milliseconds) < (rhs.secondsAsUTC, rhs.milliseconds)
    }
}

func pad(_ value: Int, _ width: Int = 2) -> String {
    let digits = String(abs(value))
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// A UTC offset as EXIF OffsetTime* writes it: `±HH:MM`.
public struct UTCOffset: Sendable, Hashable, Codable, CustomStringConvertible {
    public var minutes: Int

    public init(minutes: Int) { self.minutes = minutes }

    /// Parses `+HH:MM`, `-HH:MM`, `+HHMM` or `Z`; nil for anything else, blanks included.
    public init?(parsing text: String) {
        let chars = Array(text.trimmingSpaces.utf8)
        if chars == [UInt8(ascii: "Z")] {
            self.minutes = 0
            return
        }
        guard chars.count == 6 || chars.count == 5, chars[0] == UInt8(ascii: "+") || chars[0] == UInt8(ascii: "-")
        else { return nil }
        let digits =
            chars.count == 6 && chars[3] == UInt8(ascii: ":")
            ? [chars[1], chars[2], chars[4], chars[5]] : Array(chars[1...])
        guard digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let hours = Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30)
        let mins = Int(digits[2] - 0x30) * 10 + Int(digits[3] - 0x30)
        guard hours <= 14, mins < 60 else { return nil }
        self.minutes = (hours * 60 + mins) * (chars[0] == UInt8(ascii: "-") ? -1 : 1)
    }

    /// `+02:00`, `-05:30`, `+00:00`.
    public var description: String {
        let sign = minutes < 0 ? "-" : "+"
        return "\(sign)\(pad(abs(minutes) / 60)):\(pad(abs(minutes) % 60))"
    }
}
