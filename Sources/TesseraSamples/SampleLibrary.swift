import Foundation
public import SystemPackage
public import TesseraFacts
import TesseraImage
import TesseraMetadata
import TesseraSystem

/// A small photo library made from scratch, for trying Tessera without photos of one's own.
///
/// Three albums of generated JPEGs with EXIF dates (some with offsets and
/// sub-seconds), every orientation, a PNG dated by its tIME chunk, a photo
/// dated only by its file name, and one file broken on purpose (`brokenFile`) that the scan
/// records as an error.
public enum SampleLibrary {
    /// The file made unreadable on purpose, to show how a scan reports one.
    public static let brokenFile = "Winter/broken-on-purpose.jpg"

    /// What the broken file is, for people trying the library.
    public static let brokenFileNote = """
        \(brokenFile) is broken on purpose: a JPEG cut off after its first 200 bytes, \
        to show how Tessera records a file it cannot read, with the reason, and goes on.
        """

    /// Writes the library below `root` and returns how many files it wrote.
    @discardableResult
    public static func write(to root: FilePath) throws(PhotoError) -> Int {
        var count = 0
        func put(_ bytes: [UInt8], _ relative: String) throws(PhotoError) {
            do {
                try FileSystem.writeAtomically(bytes, to: root.appending(relative))
            } catch {
                throw PhotoError(.io, path: root.appending(relative), error.reason)
            }
            count += 1
        }
        let albums = [("2024 Summer trip", 2024, 7), ("Garden", 2023, 4), ("Winter", 2022, 12)]
        for (albumIndex, (album, year, month)) in albums.enumerated() {
            for photo in 0..<8 {
                let seed = albumIndex * 10 + photo
                let landscape = photo % 3 != 0
                let (width, height) = landscape ? (1200, 800) : (800, 1200)
                var exif = ExifBuilder()
                exif.make = "Tessera"
                exif.model = "Sample Camera"
                exif.orientation = photo == 5 ? 6 : 1
                exif.dateTimeOriginal = .init(
                    dateTime: String(
                        format: "%04d:%02d:%02d %02d:%02d:00", year, month, 1 + photo / 3, 9 + photo, photo * 7),
                    subSeconds: photo % 2 == 0 ? "\(photo * 11)" : nil, offset: albumIndex == 0 ? "+02:00" : nil)
                let image = SampleImage.pixels(width: width, height: height, seed: seed)
                try put(try SampleImage.jpeg(image, exif: exif), "\(album)/IMG_\(1000 + seed).jpg")
            }
        }
        let png = try SampleImage.png(
            SampleImage.pixels(width: 640, height: 480, seed: 42, alpha: true),
            time: .init(year: 2023, month: 4, day: 9, hour: 16, minute: 20, second: 0))
        try put(png, "Garden/drawing.png")
        try put(
            try SampleImage.jpeg(SampleImage.pixels(width: 900, height: 900, seed: 7)), "Garden/IMG_20230410_101500.jpg"
        )
        let damaged = try SampleImage.jpeg(SampleImage.pixels(width: 400, height: 300, seed: 9))
        try put(Array(damaged.prefix(200)), brokenFile)
        return count
    }
}
