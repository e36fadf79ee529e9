public import TesseraFacts

/// Capture dates written into file names by cameras, phones and sync tools.
///
/// Recognised (the date and the time must both be present; separators vary):
/// - `IMG_20230714_183005`, `VID_…`, `20230714_183005`, `PXL_20230714_183005123`
///   (trailing milliseconds), `Screenshot_20230714-183005`
/// - `2023-07-14 18.30.05` (Dropbox), `2023-07-14_18-30-05`, `Screenshot_2023-07-14-18-30-05`
/// - `Screenshot 2023-07-14 at 18.30.05`, `Screen Shot 2023-07-14 at 6.30.05 PM` (macOS),
///   `WhatsApp Image 2023-07-14 at 18.30.05`
/// - `photo_2023-07-14_18-30-05` (Telegram), `signal-2023-07-14-183005` (Signal),
///   `viber_image_2023-07-14_18-30-05` (Viber)
/// - `IMG-20230714-WA0001`, `VID-…-WA0001` (WhatsApp: the date only, taken as midnight)
/// - `mmexport1689359405123` (WeChat), `FB_IMG_1689359405123` (Facebook), `wx_camera_…`:
///   milliseconds since 1970, an instant (see `instant(_:now:)`)
///
/// A date is plausible from 1990 to the year after `now`; anything else is
/// ignored, so camera counters such as `DSC_19041234` are not taken for dates.
public enum FilenameDate {
    /// The wall clock in `name` (a file name without directories), or nil.
    public static func parse(_ name: String, now: WallClock) -> WallClock? {
        let bytes = Array(name.utf8)
        // A year starts a candidate only where no digit precedes it, so a date
        // inside a longer digit run (a counter, a hash) is never picked.
        for start in bytes.indices where start == 0 || !isDigit(bytes[start - 1]) {
            var scanner = Scanner(bytes: bytes, index: start)
            guard let clock = scanner.dateTime(), clock.isValid, clock.year >= 1990, clock.year <= now.year + 1
            else { continue }
            return clock
        }
        return nil
    }

    /// Messenger exports named by the instant they were saved, in milliseconds since 1970:
    /// the seconds and nanoseconds since 1970, or nil.
    public static func instant(_ name: String, now: WallClock) -> (seconds: Int64, nanoseconds: Int)? {
        for prefix in ["mmexport", "FB_IMG_", "wx_camera_"] where name.hasPrefix(prefix) {
            let digits = name.utf8.dropFirst(prefix.utf8.count).prefix { isDigit($0) }
            guard digits.count == 13, let millis = Int64(String(decoding: digits, as: UTF8.self)) else { return nil }
            let seconds = millis / 1000
            let year = WallClock(utcSeconds: seconds).year
            guard year >= 2009, year <= now.year + 1 else { return nil }
            return (seconds, Int(millis % 1000) * 1_000_000)
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Reads one date and time at a position, by the patterns in the type's documentation.
    private struct Scanner {
        let bytes: [UInt8]
        var index: Int

        mutating func dateTime() -> WallClock? {
            guard let year = number(4), year / 100 == 19 || year / 100 == 20 else { return nil }
            skip(oneOf: "-_.")
            guard let month = number(2) else { return nil }
            skip(oneOf: "-_.")
            guard let day = number(2) else { return nil }
            if let clock = macOSTime(year: year, month: month, day: day) { return clock }
            // WhatsApp keeps the day only: IMG-20230714-WA0001.
            if consume("-WA") || consume("-wa"), digits(atLeast: 1) {
                return WallClock(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
            }
            skip(oneOf: " _T.-")
            guard let hour = number(2) else { return nil }
            skip(oneOf: "-_.:")
            guard let minute = number(2) else { return nil }
            skip(oneOf: "-_.:")
            guard let second = number(2) else { return nil }
            var fraction: String?
            let beforeFraction = index
            skip(oneOf: "-_.")
            if let millis = digits(exactly: 3) {
                fraction = millis
            } else {
                index = beforeFraction
            }
            guard atBoundary else { return nil }
            return WallClock(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction)
        }

        /// macOS screenshots: `YYYY-MM-DD at H.MM.SS[ AM|PM]`.
        private mutating func macOSTime(year: Int, month: Int, day: Int) -> WallClock? {
            let saved = index
            guard consume(" at "), var hour = number(1...2), consume("."), let minute = number(2), consume("."),
                let second = number(2)
            else {
                index = saved
                return nil
            }
            let beforeMeridiem = index
            if consume(" ") || consume("\u{202F}"), let pm = meridiem() {
                guard (1...12).contains(hour) else { return nil }
                hour = hour % 12 + (pm ? 12 : 0)
            } else {
                index = beforeMeridiem
            }
            return WallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        }

        private mutating func meridiem() -> Bool? {
            guard index + 1 < bytes.count, bytes[index + 1] | 0x20 == UInt8(ascii: "m") else { return nil }
            let letter = bytes[index] | 0x20
            guard letter == UInt8(ascii: "a") || letter == UInt8(ascii: "p") else { return nil }
            index += 2
            return letter == UInt8(ascii: "p")
        }

        private var atBoundary: Bool { index == bytes.count || !isDigit(bytes[index]) }

        private mutating func number(_ count: Int) -> Int? { number(count...count) }

        /// Between `counts.lowerBound` and `counts.upperBound` digits, as many as there are.
        private mutating func number(_ counts: ClosedRange<Int>) -> Int? {
            var value = 0, taken = 0
            while taken < counts.upperBound, index < bytes.count, isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
                taken += 1
            }
            return taken >= counts.lowerBound ? value : nil
        }

        private mutating func digits(exactly count: Int) -> String? {
            guard index + count <= bytes.count, bytes[index..<index + count].allSatisfy(isDigit),
                index + count == bytes.count || !isDigit(bytes[index + count])
            else { return nil }
            defer { index += count }
            return String(decoding: bytes[index..<index + count], as: UTF8.self)
        }

        private mutating func digits(atLeast count: Int) -> Bool {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - start >= count
        }

        private mutating func skip(oneOf separators: String) {
            if index < bytes.count, separators.utf8.contains(bytes[index]) { index += 1 }
        }

        private mutating func consume(_ literal: String) -> Bool {
            let expected = Array(literal.utf8)
            guard bytes[index...].starts(with: expected) else { return false }
            index += expected.count
            return true
        }
    }
}
