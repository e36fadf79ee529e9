import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSamples
import TesseraTestSupport
import Testing

@testable import TesseraImage

private let heifEnc = ["/usr/bin/heif-enc", "/usr/local/bin/heif-enc"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}
private let heifDec = ["/usr/bin/heif-dec", "/usr/local/bin/heif-dec"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// A HEIF's clean aperture (`clap`) crops the stored image before its rotation: made here with
/// heif-enc, which writes `clap` for an odd-sized image and `irot` for an EXIF orientation, and
/// whose crop is then widened into a real one by rewriting the box's fractions in place.
@Suite(
    .enabled(
        if: heifEnc != nil && heifDec != nil,
        "heif-enc and heif-dec (libheif-examples, libheif-plugin-x265) are not installed"))
struct HEIFCleanApertureTests {

    /// A 401×301 photo turned by orientation 6, cropped to 200×120 around a point right of and
    /// above the centre.
    static func croppedHEIC(
        in directory: TemporaryDirectory, fractions: [Int32] = [200, 1, 120, 1, 61, 1, -40, 1]
    ) throws -> FilePath {
        var exif = ExifBuilder()
        exif.orientation = 6
        let jpeg = directory.appending("photo.jpg")
        try Data(SampleImage.jpeg(SampleImage.pixels(width: 401, height: 301, seed: 3), exif: exif, quality: 95))
            .write(to: URL(fileURLWithPath: jpeg))
        let heic = directory.appending("photo.heic")
        let process = try Process.run(
            URL(fileURLWithPath: try #require(heifEnc)), arguments: ["-q", "95", "-o", heic, jpeg])
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: heic)))
        let clap = try #require((0..<bytes.count - 40).first { Array(bytes[$0..<$0 + 4]) == Array("clap".utf8) })
        // Width, height, horizontal and vertical offset of the centre, each numerator/denominator.
        for (index, value) in fractions.enumerated() {
            withUnsafeBytes(of: value.bigEndian) {
                bytes.replaceSubrange(clap + 4 + index * 4..<clap + 8 + index * 4, with: $0)
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: heic))
        return FilePath(heic)
    }

    @Test func theCropIsThePhotosSize() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let metadata = try MetadataReader.read(at: try Self.croppedHEIC(in: directory))
        // Stored 402×302 (heif-enc pads to even sizes): centred at (200.5 + 61, 150.5 − 40).
        let crop = try #require(metadata.heif?.cleanAperture)
        #expect((crop.x, crop.y, crop.width, crop.height) == (162, 51, 200, 120))
        #expect((metadata.width, metadata.height, metadata.orientation) == (200, 120, 6))
        #expect((metadata.displayWidth, metadata.displayHeight) == (120, 200))
        // Renditions made uncropped before are not taken for these.
        var uncropped = metadata
        var header = try #require(metadata.heif)
        header.cleanAperture = nil
        uncropped.header = header
        let settings = RenderSettings(renditions: [.square(256)], options: RenderOptions())
        #expect(
            settings.cacheKey(contentHash: "h", metadata: metadata)
                != settings.cacheKey(contentHash: "h", metadata: uncropped))
    }

    /// A clean aperture that cannot be is ignored in the header.
    ///
    /// One reaching out of the image
    /// still renders, whole; one with a zero denominator or a width past 2³¹, which libheif
    /// refuses to parse (heif-dec too), makes the photo an error with libheif's reason.
    @Test(
        arguments: [
            ([200, 1, 120, 1, 300, 1, 0, 1], true), ([Int32.max, 1, Int32.max, 1, Int32.min, 1, Int32.min, 1], true),
            ([200, 0, 120, 1, 0, 1, 0, 1], false), ([-200, 1, 120, 1, 0, 1, 0, 1], false),
        ] as [([Int32], Bool)])
    func aCleanApertureThatCannotBeIsIgnored(fractions: [Int32], renders: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.croppedHEIC(in: directory, fractions: fractions)
        let metadata = try MetadataReader.read(at: path)
        #expect(metadata.heif?.cleanAperture == nil && (metadata.width, metadata.height) == (402, 302))
        do {
            let rendered = try Renderer(options: RenderOptions()).render(file: path, specs: [.fit(100)])
            #expect(renders && rendered.rendition(.fit(100)).map { [$0.width, $0.height] } == [75, 100])
        } catch {
            #expect(!renders && error.code == .corrupt && error.reason.contains("fractional"), "\(error)")
        }
    }

    /// The rendition against heif-dec's (clap, then irot).
    @Test func renditionsShowTheCropTurnedAsLibheifDoes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.croppedHEIC(in: directory)
        var options = RenderOptions()
        options.format = .png
        let rendered = try Renderer(options: options).render(file: path, specs: [.fit(200), .fit(100)])
        let ours = try PNGDecoder.decode(bytes: try #require(rendered.rendition(.fit(200))?.bytes))
        // heif-dec decodes the whole image and applies the transformations itself (libheif's
        // tile-by-tile decode with transformations crops elsewhere, so it is not the reference).
        let png = directory.appending("theirs.png")
        let process = try Process.run(URL(fileURLWithPath: try #require(heifDec)), arguments: [path.string, png])
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let theirs = try PNGDecoder.decode(bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: png))))
        #expect((ours.width, ours.height) == (120, 200) && (theirs.width, theirs.height) == (120, 200))
        let difference = zip(ours.pixels, theirs.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(max(1, ours.pixels.count)) < 3)
        // A reduced decode is cropped in its own pixels, to the same frame.
        let small = try #require(rendered.rendition(.fit(100)))
        #expect((small.width, small.height) == (60, 100))
    }
}
