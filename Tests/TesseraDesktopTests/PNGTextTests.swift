import TesseraDesktop
import TesseraSamples
import Testing

struct PNGTextTests {
    @Test func textIsReplacedAfterTheHeaderAndReadBack() throws {
        let png = try SampleImage.png(SampleImage.pixels(width: 4, height: 3))
        let first = try #require(
            PNGText.replacing([("Thumb::URI", "file:///a%20b.jpg"), ("Thumb::MTime", "1700000000")], in: png))
        #expect(PNGText.entries(of: first) == ["Thumb::URI": "file:///a%20b.jpg", "Thumb::MTime": "1700000000"])
        // Replacing drops the old entries, and Latin-1 text round-trips.
        let second = try #require(PNGText.replacing([("Software", "Tessera é")], in: first))
        #expect(PNGText.entries(of: second) == ["Software": "Tessera é"])
        #expect(second.count < first.count + 40)
    }

    @Test func damagedOrUnwritableInputGivesNil() throws {
        let png = try SampleImage.png(SampleImage.pixels(width: 4, height: 3))
        var damaged = png
        damaged[20] ^= 0xFF  // inside IHDR: its CRC no longer matches
        #expect(PNGText.replacing([("Key", "value")], in: damaged) == nil)
        #expect(PNGText.replacing([("Key", "value")], in: Array(png.prefix(40))) == nil)
        #expect(PNGText.replacing([("Key", "not Latin-1: 東京")], in: png) == nil)
        #expect(PNGText.replacing([("", "an empty keyword")], in: png) == nil)
        #expect(PNGText.entries(of: damaged).isEmpty)
    }
}

/// What a scan records of the desktop cache's folders, for the next one to notice deletions.
struct DesktopCountsTests {
    @Test func countsRoundTripThroughTheirRecordAndADropIsSeen() {
        let counts = DesktopThumbnailCache.Counts([.large: 120, .xLarge: 118])
        #expect(counts.recorded == #"{"large":120,"x-large":118}"#)
        let read = DesktopThumbnailCache.Counts(recorded: counts.recorded)
        #expect(read == counts)
        let now = DesktopThumbnailCache.Counts([.large: 120, .xLarge: 3])
        #expect(now.dropped(since: read, in: [.large, .xLarge]))
        #expect(!now.dropped(since: read, in: [.large]))
        #expect(!counts.dropped(since: now, in: [.large, .xLarge]))
    }

    @Test func aRecordThatCannotBeReadIsNoCounts() {
        for text in [nil, "", "large=120,x-large=118", "{\"huge\":3}", "[1]", "{\"large\":\"many\"}"] {
            #expect(DesktopThumbnailCache.Counts(recorded: text).bySize.isEmpty, "\(text ?? "nil")")
        }
    }
}
