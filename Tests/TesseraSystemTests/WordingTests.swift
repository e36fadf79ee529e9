import TesseraSystem
import Testing

struct WordingTests {
    @Test(arguments: [
        (0.0, "0 s"), (-3, "0 s"), (Double.nan, "0 s"), (0.04, "0.04 s"), (0.999, "1.0 s"), (4.24, "4.2 s"),
        (42.4, "42 s"),
        (60, "1 min"), (80, "1 min 20 s"), (3599.6, "1 h"), (7500, "2 h 5 min"), (86_400, "1 day"),
        (273_600, "3 days 4 h"),
        (1e300, "11574074074 days 1 h"),
    ])
    func durationsHaveUnits(seconds: Double, text: String) {
        #expect(Wording.duration(seconds) == text)
    }

    @Test func countsAndNumbers() {
        #expect(
            Wording.count(1, "photo") == "1 photo" && Wording.count(0, "file") == "0 files"
                && Wording.count(2, "album") == "2 albums")
        #expect(
            Wording.number(5.6, decimals: 1) == "5.6" && Wording.number(18.0, decimals: 1) == "18"
                && Wording.number(0.349, decimals: 2) == "0.35")
        #expect(Wording.number(-84.6817253, decimals: 6) == "-84.681725")
    }

    @Test(arguments: [
        (Int64(812), "812 bytes"), (1, "1 byte"), (248_531, "249 kB"), (2_140_000, "2.1 MB"), (999_999, "1 MB"),
        (1_400_000_000, "1.4 GB"), (Int64.max, "9223372 TB"),
    ])
    func sizesInSIUnits(bytes: Int64, text: String) {
        #expect(Wording.size(bytes) == text)
    }
}
