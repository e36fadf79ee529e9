/// Dates as a person reads them, from the wall clock the index records (never the machine's
/// zone or locale): "Sat 28 Sep 2023, 09:44 (UTC+2)", "September 2023".
enum FriendlyDate {
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// A section key: a day "2023-09-28" → "Thu 28 Sep 2023", a month "2023-09" → "September
    /// 2023", a year as it is; anything else unchanged.
    static func section(_ key: String) -> String {
        let parts = key.split(separator: "-").map { Int($0) }
        switch parts.count {
        case 3: return day(key) ?? key
        case 2:
            guard let year = parts[0], let month = parts[1], (1...12).contains(month) else { return key }
            return "\(months[month - 1]) \(year)"
        default: return key
        }
    }

    /// "Thu 28 Sep 2023" from the date at the start of `text` (`YYYY-MM-DD…`).
    static func day(_ text: String) -> String? {
        let digits = Array(text.utf8.prefix(10))
        guard digits.count == 10, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"),
            let year = Int(String(decoding: digits[0..<4], as: UTF8.self)),
            let month = Int(String(decoding: digits[5..<7], as: UTF8.self)),
            let day = Int(String(decoding: digits[8..<10], as: UTF8.self)),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return "\(weekdays[weekday(year: year, month: month, day: day)]) \(day) \(months[month - 1].prefix(3)) \(year)"
    }

    /// "Sat 28 Sep 2023, 09:44 (UTC+2)" from a capture time as written and its offset ("+02:00").
    static func moment(_ captured: String, offset: String?) -> String {
        guard let date = day(captured) else { return captured }
        let clock = Array(captured.utf8.dropFirst(11).prefix(5))
        var text = date
        if clock.count == 5, clock[2] == UInt8(ascii: ":") { text += ", " + String(decoding: clock, as: UTF8.self) }
        if let offset { text += " (\(zone(offset)))" }
        return text
    }

    /// "+02:00" → "UTC+2", "-03:30" → "UTC−3:30", "Z" or "+00:00" → "UTC".
    static func zone(_ offset: String) -> String {
        let bytes = Array(offset.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
            let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self))
        else { return offset == "Z" ? "UTC" : "UTC" + offset }
        if hours == 0 && minutes == 0 { return "UTC" }
        let sign = bytes[0] == UInt8(ascii: "+") ? "+" : "−"
        return "UTC\(sign)\(hours)" + (minutes > 0 ? ":" + String(decoding: bytes[4..<6], as: UTF8.self) : "")
    }

    /// Monday = 0 (the days-from-civil count of the proleptic Gregorian calendar; 1970-01-01 was a Thursday).
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return ((days % 7) + 7 + 3) % 7
    }
}
