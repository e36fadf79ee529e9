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
    ])
    func rejectedNames(name: String) {
        #expect(FilenameDate.parse(name, now: Self.now) == nil)
    }
}
