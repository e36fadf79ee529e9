import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraMetadata

/// Capture-date resolution on generated files whose metadata is known exactly.
struct CaptureDateTests {
    static let utc = DateContext(
        timeZone: TimeZone(identifier: "UTC") ?? .current, now: Date(timeIntervalSince1970: 1.9e9))
    static let image = SampleImage.pixels(width: 16, height: 12)

    static func read(
        _ bytes: [UInt8], name: String = "photo.jpg", mtime: FileTime = .init(seconds: 1_600_000_000, nanoseconds: 0),
        context: DateContext = utc
    ) throws -> PhotoMetadata {
        try MetadataReader.read(contents: bytes, path: FilePath(name), mtime: mtime, context: context)
    }

    @Test func originalWinsAndKeepsItsOwnOffsetAndSubSeconds() throws {
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: "2023:07:14 18:30:05", subSeconds: "042", offset: "+02:00")
        exif.dateTimeDigitized = .init(dateTime: "2023:07:15 09:00:00", offset: "-05:00")
        exif.dateTime = .init(dateTime: "2024:01:01 00:00:00", subSeconds: "9", offset: "+09:00")
        let meta = try Self.read(SampleImage.jpeg(Self.image, exif: exif))
        #expect(meta.captureDate?.source == .exifOriginal)
        #expect(meta.captureDate?.wallClock.iso8601 == "2023-07-14T18:30:05.042")
        #expect(meta.captureDate?.utcOffset?.description == "+02:00")
        // 2023-07-14T16:30:05.042Z
        #expect(meta.captureDate?.instantMilliseconds == 1_689_352_205_042)
    }

    @Test func digitizedNeverBorrowsTheOriginalsOffset() throws {
        var exif = ExifBuilder()
        exif.dateTimeDigitized = .init(dateTime: "2023:07:15 09:00:00")
        exif.dateTime = .init(dateTime: "2023:07:15 09:00:00", offset: "+09:00")
        let meta = try Self.read(SampleImage.jpeg(Self.image, exif: exif))
        #expect(meta.captureDate?.source == .exifDigitized)
        #expect(meta.captureDate?.utcOffset == nil)
        // Read in the configured zone (UTC here) since no offset belongs to this tag.
        #expect(meta.captureDate?.instantMilliseconds == 1_689_411_600_000)
    }

    @Test(arguments: ["    :  :     :  :  ", "0000:00:00 00:00:00", "", "2023:13:45 25:61:00", "yesterday"])
    func blankZeroAndMalformedDatesAreSkippedWithAWarning(text: String) throws {
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: text)
        exif.dateTimeDigitized = .init(dateTime: "2020:02:29 12:00:00")
        let meta = try Self.read(SampleImage.jpeg(Self.image, exif: exif))
        #expect(meta.captureDate?.source == .exifDigitized)
        #expect(meta.captureDate?.wallClock.iso8601 == "2020-02-29T12:00:00")
        #expect(meta.warnings.contains { $0.contains("DateTimeOriginal") })
    }

    @Test func fileNameComesBeforeExifDateTimeAndAPhotoWithoutADateIsUndated() throws {
        var exif = ExifBuilder()
        exif.dateTime = .init(dateTime: "2024:05:01 10:00:00")
        let named = try Self.read(SampleImage.jpeg(Self.image, exif: exif), name: "IMG_20230714_183005.jpg")
        #expect(named.captureDate?.source == .filename)
        #expect(named.captureDate?.wallClock.iso8601 == "2023-07-14T18:30:05")
        let modified = try Self.read(SampleImage.jpeg(Self.image, exif: exif), name: "holiday.jpg")
        #expect(modified.captureDate?.source == .exifModified)
        let plain = try Self.read(
            SampleImage.jpeg(Self.image), name: "holiday.jpg",
            mtime: .init(seconds: 1_600_000_000, nanoseconds: 250_000_000))
        // Its mtime (a copy's, a download's, a scan's) says nothing of when the photo was taken.
        #expect(plain.captureDate == nil)
    }

    @Test func localTimeWithoutOffsetUsesTheConfiguredZoneAcrossDST() throws {
        let berlin = DateContext(timeZone: try #require(TimeZone(identifier: "Europe/Berlin")), now: Date())
        var exif = ExifBuilder()
        exif.dateTimeOriginal = .init(dateTime: "2023:07:14 18:30:05")
        let summer = try Self.read(SampleImage.jpeg(Self.image, exif: exif), context: berlin)
        #expect(summer.captureDate?.instantMilliseconds == 1_689_352_205_000)  // 16:30:05Z (CEST, +2)
        exif.dateTimeOriginal = .init(dateTime: "2023:01:14 18:30:05")
        let winter = try Self.read(SampleImage.jpeg(Self.image, exif: exif), context: berlin)
        #expect(winter.captureDate?.instantMilliseconds == 1_673_717_405_000)  // 17:30:05Z (CET, +1)
    }

    @Test func pngCreationTimeThenTime() throws {
        let created = try Self.read(
            SampleImage.png(
                Self.image, time: .init(year: 2021, month: 3, day: 4, hour: 5, minute: 6, second: 7),
                creationTime: "Fri, 14 Jul 2023 18:30:05 +0200"), name: "a.png")
        #expect(created.captureDate?.source == .png)
        #expect(created.captureDate?.wallClock.iso8601 == "2023-07-14T18:30:05")
        #expect(created.captureDate?.utcOffset?.description == "+02:00")
        let timed = try Self.read(
            SampleImage.png(Self.image, time: .init(year: 2021, month: 3, day: 4, hour: 5, minute: 6, second: 7)),
            name: "a.png")
        #expect(timed.captureDate?.wallClock.iso8601 == "2021-03-04T05:06:07")
        #expect(timed.captureDate?.utcOffset?.description == "+00:00")
    }

    @Test(arguments: [false, true])
    func pngExifAndBothByteOrders(bigEndian: Bool) throws {
        var exif = ExifBuilder()
        exif.bigEndian = bigEndian
        exif.orientation = 8
        exif.make = "Tessera"
        exif.model = "Test Camera"
        exif.dateTimeOriginal = .init(dateTime: "2022:12:31 23:59:59", subSeconds: "5", offset: "-03:30")
        exif.gps = .init(latitude: -33.8568, longitude: 151.2153, altitude: -12.5)
        let meta = try Self.read(SampleImage.png(Self.image, exif: exif), name: "p.png")
        #expect(meta.orientation == 8)
        #expect((meta.displayWidth, meta.displayHeight) == (12, 16))
        #expect(meta.captureDate?.wallClock.iso8601 == "2022-12-31T23:59:59.500")
        #expect(meta.captureDate?.utcOffset?.description == "-03:30")
        #expect(meta.exif?.model == "Test Camera")
        let gps = try #require(meta.exif?.gps)
        #expect(abs(gps.latitude + 33.8568) < 1e-4 && abs(gps.longitude - 151.2153) < 1e-4)
        #expect(gps.altitude == -12.5)
    }

    @Test(arguments: [0, 9, 65535])
    func invalidOrientationIsOneWithAWarning(value: Int) throws {
        var exif = ExifBuilder()
        exif.orientation = value
        let meta = try Self.read(SampleImage.jpeg(Self.image, exif: exif))
        #expect(meta.orientation == 1)
        #expect(meta.warnings.contains { $0.contains("orientation \(value)") })
    }

    @Test func mangledExifBlocksNeverCrash() throws {
        // Deterministic mutations of a real EXIF block: flipped bytes, truncations,
        // self-referencing offsets. Each must give metadata (maybe with warnings) or an error.
        var exif = ExifBuilder()
        exif.orientation = 6
        exif.dateTimeOriginal = .init(dateTime: "2023:07:14 18:30:05", subSeconds: "1", offset: "+01:00")
        exif.gps = .init(latitude: 1, longitude: 2)
        let tiff = exif.tiff()
        let whole = ExifReader.read(tiff: tiff)
        #expect(whole.orientation == 6 && whole.dateTimeOriginal != nil && whole.gps != nil)
        var generator = SplitMix(seed: 42)
        for round in 0..<400 {
            var mutated = tiff
            switch round % 4 {
            case 0: mutated = Array(mutated.prefix(Int(generator.next() % UInt64(mutated.count))))
            case 1:
                for _ in 0..<4 {
                    mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            case 2:
                mutated.replaceSubrange(4..<8, with: [8, 0, 0, 0])  // IFD0 pointing at itself
                mutated[Int(8 + generator.next() % UInt64(mutated.count - 8))] ^= 0xFF
            default: mutated += [UInt8](repeating: 0xFF, count: Int(generator.next() % 64))
            }
            let fields = ExifReader.read(tiff: mutated)
            // A cut block keeps only what it still holds whole: nothing read from it is invented.
            if round % 4 == 0 {
                #expect(fields.orientation == nil || fields.orientation == whole.orientation)
                #expect(fields.dateTimeOriginal.map { $0.dateTime == whole.dateTimeOriginal?.dateTime } ?? true)
                #expect(fields.gps == nil || fields.gps == whole.gps)
            }
        }
    }
}
