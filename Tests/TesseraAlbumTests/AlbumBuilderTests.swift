import Foundation
import Logging
import SystemPackage
import TesseraAlbum
import TesseraImage
import TesseraIndex
import TesseraMetadata
import TesseraService
import TesseraSystem
import TesseraTestSupport
import Testing

/// Album pages built from a real scan of real files.
struct AlbumBuilderTests {
    /// Two roots, each with a "Garden" of `count` photos; scanned into one index.
    static func twoGardens(in directory: TemporaryDirectory, count: Int) throws -> PhotoIndex {
        var configuration = Configuration(environment: ["HOME": directory.path])
        configuration.roots = ["north", "south"].map { FilePath(directory.appending($0)) }
        configuration.index = FilePath(directory.appending("index.sqlite"))
        configuration.cache = FilePath(directory.appending("cache"))
        configuration.renditions = [.square(64)]
        for (number, root) in configuration.roots.enumerated() {
            for photo in 0..<count {
                var exif = ExifBuilder()
                exif.dateTimeOriginal = .init(dateTime: "2023:0\(number + 1):1\(photo % 10) 10:00:00")
                let jpeg = try SampleImage.jpeg(SampleImage.pixels(width: 90, height: 60, seed: number * 100 + photo), exif: exif)
                try FileSystem.writeAtomically(jpeg, to: root.appending("Garden/\(number)-\(photo).jpg"))
            }
        }
        let index = try PhotoIndex(path: configuration.index)
        _ = try LibraryScanner(configuration: configuration, index: index, logger: Logger(label: "test")).scan(full: false, stop: StopFlag())
        return index
    }

    @Test func albumsOfTheSameNameUnderTwoRootsEachGetTheirOwnPhotos() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.twoGardens(in: directory, count: 10)
        let output = FilePath(directory.appending("site"))
        let summary = try AlbumBuilder(index: index, options: .init(output: output)).build()
        #expect(summary.albums == 2)
        let folders = try FileManager.default.contentsOfDirectory(atPath: output.appending("albums").string).sorted()
        #expect(folders.count == 2)
        for folder in folders {
            let page = try String(contentsOfFile: output.appending("albums/\(folder)/index.html").string, encoding: .utf8)
            #expect(page.contains("10 photos"))
            // Three breakpoint layouts of the same ten photos.
            #expect(page.components(separatedBy: "class=\"photo\"").count - 1 == 30, "\(folder)")
            #expect(page.contains("Garden/0-") != page.contains("Garden/1-"), "\(folder) mixes the two gardens")
        }
    }

    @Test func anUnchangedIndexWritesNoPageAgainAndAStopEndsTheBuild() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try Self.twoGardens(in: directory, count: 3)
        let builder = AlbumBuilder(index: index, options: .init(output: FilePath(directory.appending("site"))))
        #expect(try builder.build().written == 2)
        let again = try builder.build()
        #expect(again.written == 0 && again.unchanged == 2)
        #expect { try builder.build(shouldStop: { true }) } throws: { ($0 as? AlbumError)?.code == .stopped }
    }
}
