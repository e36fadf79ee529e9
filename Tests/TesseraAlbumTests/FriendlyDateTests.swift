import Testing

@testable import TesseraAlbum

/// Dates as the pages show them, from the wall clock the index records, with no locale or zone.
struct FriendlyDateTests {
    @Test func daysMonthsAndMomentsReadAsAPersonWouldSayThem() {
        #expect(FriendlyDate.moment("2023-09-28T09:44:03.886", offset: "+02:00") == "Thu 28 Sep 2023, 09:44 (UTC+2)")
        #expect(FriendlyDate.moment("2024-02-29T23:59:00", offset: "-03:30") == "Thu 29 Feb 2024, 23:59 (UTC−3:30)")
        #expect(FriendlyDate.moment("2000-01-01T00:00:00", offset: "+00:00") == "Sat 1 Jan 2000, 00:00 (UTC)")
        #expect(FriendlyDate.moment("1969-12-31T12:00:00", offset: nil) == "Wed 31 Dec 1969, 12:00")
        #expect(FriendlyDate.section("2023-09") == "September 2023")
        #expect(FriendlyDate.section("2023") == "2023")
        #expect(FriendlyDate.section("2023-13") == "2023-13")
        #expect(FriendlyDate.moment("not a date", offset: nil) == "not a date")
    }

    /// Against the Gregorian calendar for every day of four centuries.
    @Test func weekdaysAgreeWithTheCalendar() {
        var weekday = 5  // 1 January 1600 was a Saturday (Monday = 0)
        for year in 1600..<2000 {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            for (month, days) in [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31].enumerated() {
                for day in 1...days {
                    if FriendlyDate.weekday(year: year, month: month + 1, day: day) != weekday {
                        Issue.record("\(year)-\(month + 1)-\(day)")
                        return
                    }
                    weekday = (weekday + 1) % 7
                }
            }
        }
    }
}
