/// Capture dates written into file names by cameras, phones and sync tools.
///
/// Recognised (the date and the time must both be present; separators vary):
/// - `IMG_20230714_183005`, `VID_…`, `20230714_183005`, `PXL_20230714_183005123`
///   (trailing milliseconds), `Screenshot_20230714-183005`
/// - `2023-07-14 18.30.05` (Dropbox), `2023-07-14_18-30-05`, `Screenshot_2023-07-14-18-30-05`
/// - `Screenshot 2023-07-14 at 18.30.05`, `Screen Shot 2023-07-14 at 6.30.05 PM` (macOS)
///
/// A date is plausible from 1990 to the year after `now`; anything else is
/// ignored, so camera counters such as `DSC_19041234` are not taken for dates.
public enum FilenameDate {
    /// The wall clock in `name` (a file name without directories), or nil.
    public static func parse(_ name: String, now: WallClock) -> WallClock? {
        let candidates = macOS(name).map { [$0] } ?? compact(name)
        return candidates.first { clock in
            clock.isValid && clock.year >= 1990 && clock.year <= now.year + 1
        }
    }

    /// Runs of `YYYY MM DD HH MM SS [mmm]` with optional single separators, not inside longer digit runs.
    private static func compact(_ name: String) -> [WallClock] {
        let pattern = #/(?:^|[^0-9])((?:19|20)[0-9]{2})[-_.]?([0-9]{2})[-_.]?([0-9]{2})[ _T.-]?([0-9]{2})[-_.:]?([0-9]{2})[-_.:]?([0-9]{2})(?:[-_.]?([0-9]{3}))?(?=[^0-9]|$)/#
        return name.matches(of: pattern).compactMap { match in
            let (_, year, month, day, hour, minute, second, millis) = match.output
            guard let year = Int(year), let month = Int(month), let day = Int(day), let hour = Int(hour),
                  let minute = Int(minute), let second = Int(second)
            else { return nil }
            return WallClock(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                fraction: millis.map(String.init))
        }
    }

    /// macOS screenshots: `2023-07-14 at 18.30.05`, or 12-hour `at 6.30.05 PM`.
    private static func macOS(_ name: String) -> WallClock? {
        let pattern = #/((?:19|20)[0-9]{2})-([0-9]{2})-([0-9]{2}) at ([0-9]{1,2})\.([0-9]{2})\.([0-9]{2})(?:[  ]?([AaPp][Mm]))?/#
        guard let match = name.firstMatch(of: pattern) else { return nil }
        let (_, year, month, day, hourText, minute, second, meridiem) = match.output
        guard let year = Int(year), let month = Int(month), let day = Int(day), var hour = Int(hourText),
              let minute = Int(minute), let second = Int(second)
        else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour %= 12
            if meridiem.lowercased() == "pm" { hour += 12 }
        }
        return WallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
