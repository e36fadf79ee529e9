import TesseraFacts
import TesseraMetadata
import Testing

struct FilenameDateTests {
    static let now = WallClock(year: 2026, month: 11, day: 22, hour: 0, minute: 0, second: 0)

    @Test(arguments: [
        ("IMG_20230714_183005.jpg", "2023-07-14T18:30:05"),
        ("VID_20230714_183005.jpg", "2023-07-14T18:30:05"),
        ("20230714_183005.jpg", "2023-07-14T18:30:05"),
        ("PXL_20230714_183005123.jpg", "2023-07-14T18:30:05.123"),
        ("PXL_20230714_183005123.MP.jpg", "2023-07-14T18:30:05.123"),
        ("Screenshot_20230714-183005.png", "2023-07-14T18:30:05"),
        ("Screenshot_2023-07-14-18-30-05-123_com.example.png", "2023-07-14T18:30:05.123"),
        ("2023-07-14 18.30.05.jpg", "2023-07-14T18:30:05"),
        ("2023-07-14_18-30-05.jpg", "2023-07-14T18:30:05"),
        ("Screenshot 2023-07-14 at 18.30.05.png", "2023-07-14T18:30:05"),
        ("Screen Shot 2023-07-14 at 6.30.05 PM.png", "2023-07-14T18:30:05"),
        ("Screen Shot 2023-07-14 at 12.05.00 AM.png", "2023-07-14T00:05:00"),
        ("signal-2023-07-14-183005.jpg", "2023-07-14T18:30:05"),
        ("signal-2023-07-14-18-30-05-123.jpg", "2023-07-14T18:30:05.123"),
        ("IMG-20190812-WA0001.jpg", "2019-08-12T00:00:00"),
        ("VID-20190812-WA0123.mp4", "2019-08-12T00:00:00"),
        ("WhatsApp Image 2023-07-14 at 18.30.05.jpeg", "2023-07-14T18:30:05"),
        ("photo_2023-07-14_18-30-05.jpg", "2023-07-14T18:30:05"),
        ("viber_image_2023-07-14_18-30-05.jpg", "2023-07-14T18:30:05"),
    ])
    func recognisedPatterns(name: String, expected: String) {
        #expect(FilenameDate.parse(name, now: Self.now)?.iso8601 == expected)
    }

    @Test(arguments: [
        "DSC_0042.jpg",  // a counter, not a date
        "IMG_20230714.jpg",  // a date without a time
        "IMG_19850714_183005.jpg",  // before 1990: implausible for a file name
        "IMG_20990714_183005.jpg",  // in the future
        "IMG_20230231_183005.jpg",  // 31 February
        "IMG_20230714_253005.jpg",  // hour 25
        "120230714_1830051.jpg",  // inside a longer run of digits
        "holiday.jpg",
        "IMG-20190812-WA.jpg",  // WhatsApp's counter is missing
        "IMG-20190812-0001.jpg",  // a date and a counter, no WhatsApp mark
    ])
    func rejectedNames(name: String) {
        #expect(FilenameDate.parse(name, now: Self.now) == nil)
    }

    /// Messenger exports named by milliseconds since 1970 give an instant, exact to the millisecond.
    @Test(arguments: [
        ("mmexport1689359405123.jpg", 1_689_359_405 as Int64?, 123_000_000),
        ("FB_IMG_1689359405123.jpg", 1_689_359_405, 123_000_000),
        ("wx_camera_1689359405123.jpg", 1_689_359_405, 123_000_000),
        ("mmexport168935940512.jpg", nil, 0),  // 12 digits: not milliseconds
        ("FB_IMG_4102444800000.jpg", nil, 0),  // 2100: in the future
        ("IMG_1689359405123.jpg", nil, 0),  // no messenger's prefix
    ])
    func millisecondNames(name: String, seconds: Int64?, nanoseconds: Int) {
        let instant = FilenameDate.instant(name, now: Self.now)
        #expect(instant?.seconds == seconds)
        if seconds != nil { #expect(instant?.nanoseconds == nanoseconds) }
    }
}
