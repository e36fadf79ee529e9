import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraImage
@testable import TesseraJXL

/// JPEG XL files made here with cjxl from corpus photos: lossy and lossless, bare codestreams and
/// containers, recompressed JPEGs, progressive, animated, cut short.
///
/// Each is checked against what
/// Tessera makes of the photo it was made from.
@Suite(
    .enabled(if: JXLFixture.cjxl != nil, "cjxl (libjxl-tools) is not installed"),
    .enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct JXLTests {
    static func render(
        _ path: String, _ specs: [RenditionSpec], memoryLimit: Int? = nil, colorManagement: Bool = true
    ) throws -> (Renderer.Rendered, [RenditionSpec: PixelBuffer]) {
        var options = RenderOptions()
        options.format = .png
        options.colorManagement = colorManagement
        if let memoryLimit { options.memoryLimit = memoryLimit }
        let rendered = try Renderer(options: options).render(file: FilePath(path), specs: specs)
        var images: [RenditionSpec: PixelBuffer] = [:]
        for spec in specs {
            images[spec] = try PNGDecoder.decode(bytes: try #require(rendered.rendition(spec)?.bytes))
        }
        return (rendered, images)
    }

    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        RenditionCorpusTests.meanDifference(a.flattened(), b.flattened())
    }

    /// A JPEG XL failure names its file, as every other error about a file does.
    @Test func aContainerCutInsideABoxHeaderSaysWhichFile() throws {
        let bytes = JXLContainer.signature + [0, 0, 0, 40, 0x6A, 0x78]  // "jx…": eight bytes cut to six
        let outcome = FileReader.withBytes(bytes, path: "cut.jxl", mtime: .init(seconds: 0, nanoseconds: 0)) {
            reader in Result { () throws(JXLError) in try JXLContainer.read(reader) }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("a cut container was read")
            return
        }
        #expect(error.code == .truncated && error.path == "cut.jxl", "\(error)")
        #expect("\(error)" == "cut.jxl: the file ends inside a box header")
        #expect(PhotoError(jxl: error).description == "cut.jxl: the file ends inside a box header")
    }

    @Test func aRecompressedJPEGKeepsItsOrientationGreyProfileAndPixels() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        // Orientation 6 and a Generic Gray ICC profile: cjxl moves the orientation into the codestream.
        let source = Corpus.path("formats/icc/up_arrow_90cw_web.jpg")
        let jxl = try JXLFixture.make(source, as: "up.jxl", in: directory)
        let (rendered, images) = try Self.render(jxl, [.fit(200), .square(64)])
        let metadata = rendered.metadata
        #expect(metadata.format == .jxl && metadata.width == 400 && metadata.height == 280)
        #expect(metadata.orientation == 6 && metadata.displayWidth == 280 && metadata.displayHeight == 400)
        #expect(metadata.jxl?.container.jpegReconstruction == true && metadata.jxl?.info.isGray == true)
        #expect(metadata.hasICCProfile)
        let (_, reference) = try Self.render(source, [.fit(200), .square(64)])
        for spec in [RenditionSpec.fit(200), .square(64)] {
            let ours = try #require(images[spec]), theirs = try #require(reference[spec])
            #expect(ours.width == theirs.width && ours.height == theirs.height, "\(spec)")
            #expect(Self.meanDifference(ours, theirs) < 1, "\(spec)")
        }
    }

    @Test func compressedExifAndXMPBoxesGiveTheJPEGsFacts() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        let source = Corpus.path("media/xmp/embedded/digikam.jpg")
        let jxl = try JXLFixture.make(source, as: "digikam.jxl", in: directory)
        let ours = try MetadataReader.read(at: FilePath(jxl)), theirs = try MetadataReader.read(at: FilePath(source))
        #expect(ours.captureDate != nil && ours.captureDate == theirs.captureDate)
        #expect(ours.exif?.make == "FUJIFILM" && ours.exif?.model == theirs.exif?.model)
        #expect(
            ours.exif?.exposureTime == theirs.exif?.exposureTime && ours.exif?.gps != nil
                && ours.exif?.gps == theirs.exif?.gps)
        #expect(
            ours.xmp?.rating == 4 && ours.xmp?.keywords == theirs.xmp?.keywords && ours.xmp?.title == theirs.xmp?.title)
    }

    @Test func plainBoxesAroundABareCodestreamAreRead() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        let ppm = directory.appending("card.ppm")
        try JXLFixture.ppm(48, 32) { x, y in (UInt8(x * 5), UInt8(y * 7), 200) }.write(to: URL(fileURLWithPath: ppm))
        let bare = try JXLFixture.make(ppm, as: "bare.jxl", in: directory, ["-d", "0", "--container=0"])
        let codestream = [UInt8](try Data(contentsOf: URL(fileURLWithPath: bare)))
        #expect(codestream.starts(with: [0xFF, 0x0A]))
        // EXIF with a date and a camera; its TIFF header after the box's 4-byte offset of 0.
        let exif = try #require(
            try MetadataReader.read(at: FilePath(Corpus.path("media/xmp/embedded/digikam.jpg"))).jpeg?.exif)
        let xmp = Array(
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="2"/></rdf:RDF></x:xmpmeta>"#
                .utf8)
        // The XMP comes after the codestream, where a file's last boxes may be.
        let file = JXLFixture.container(
            codestream: codestream, before: [JXLFixture.box("Exif", [0, 0, 0, 0] + exif)],
            after: [JXLFixture.box("xml ", xmp)])
        let path = directory.appending("boxed.jxl")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let metadata = try MetadataReader.read(at: FilePath(path))
        #expect(
            metadata.jxl?.container.isContainer == true && metadata.exif?.make == "FUJIFILM"
                && metadata.xmp?.rating == 2)
        #expect(metadata.captureDate?.wallClock.iso8601.hasPrefix("2005-09-11") == true)
        // Lossless: every pixel as it was, in the bare file and the boxed one alike.
        for file in [bare, path] {
            let (rendered, images) = try Self.render(file, [.fit(48)])
            let image = try #require(images[.fit(48)])
            #expect(rendered.metadata.bitDepth == 8 && image.width == 48 && image.height == 32)
            #expect(image[10, 3].elementsEqual([50, 21, 200]) && image[47, 31].elementsEqual([235, 217, 200]))
        }
    }

    /// A codestream split into partial `jxlp` boxes with the EXIF between them, as encoders that
    /// stream their output write it.
    @Test func aCodestreamSplitIntoPartialBoxesIsReadWhole() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        let ppm = directory.appending("card.ppm")
        try JXLFixture.ppm(64, 40) { x, y in (UInt8(x * 3), UInt8(y * 6), UInt8((x + y) % 256)) }.write(
            to: URL(fileURLWithPath: ppm))
        let codestream = [UInt8](
            try Data(
                contentsOf: URL(
                    fileURLWithPath: try JXLFixture.make(
                        ppm, as: "bare.jxl", in: directory, ["-d", "0", "--container=0"]))))
        let exif = try #require(
            try MetadataReader.read(at: FilePath(Corpus.path("media/xmp/embedded/digikam.jpg"))).jpeg?.exif)
        let cut = codestream.count / 2
        func part(_ index: UInt32, _ bytes: ArraySlice<UInt8>) -> [UInt8] {
            JXLFixture.box(
                "jxlp",
                [UInt8(index >> 24), UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF)] + bytes)
        }
        let signature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        let file =
            signature + JXLFixture.box("ftyp", Array("jxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8))
            + JXLFixture.box("jxll", [5]) + part(0, codestream[..<cut]) + JXLFixture.box("Exif", [0, 0, 0, 0] + exif)
            + part(0x8000_0001, codestream[cut...])
        let path = directory.appending("parts.jxl")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let metadata = try MetadataReader.read(at: FilePath(path))
        #expect(
            metadata.width == 64 && metadata.height == 40 && metadata.exif?.make == "FUJIFILM"
                && metadata.warnings.isEmpty)
        let (_, images) = try Self.render(path, [.fit(64)])
        let image = try #require(images[.fit(64)])
        #expect(image[10, 3].elementsEqual([30, 18, 13]) && image[63, 39].elementsEqual([189, 234, 102]))
    }

    @Test func lossyWideGamutColoursComeOutAsTheJPEGs() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        // Adobe RGB: libjxl decodes its XYB straight to sRGB.
        let source = Corpus.path("formats/icc/Reagan.jpg")
        let jxl = try JXLFixture.make(source, as: "reagan.jxl", in: directory, ["-j", "0", "-d", "1"])
        let (rendered, images) = try Self.render(jxl, [.fit(200)])
        #expect(rendered.metadata.jxl?.info.isXYB == true && rendered.metadata.coding.contains("lossy"))
        let (_, reference) = try Self.render(source, [.fit(200)])
        let (_, unmanaged) = try Self.render(source, [.fit(200)], colorManagement: false)
        let ours = try #require(images[.fit(200)])
        let managedDifference = Self.meanDifference(ours, try #require(reference[.fit(200)]))
        let unmanagedDifference = Self.meanDifference(ours, try #require(unmanaged[.fit(200)]))
        #expect(
            managedDifference < 4 && managedDifference < unmanagedDifference,
            "\(managedDifference) \(unmanagedDifference)")
    }

    @Test func squaresComeFromTheDCAndLargeFitsFromTheWholeFrame() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        let source = Corpus.path("large/012mp-bus.jpg")
        let jxl = try JXLFixture.make(
            source, as: "bus.jxl", in: directory, ["-j", "0", "-d", "1", "-e", "3", "--progressive_dc=1"])
        let (small, squares) = try Self.render(jxl, [.square(256)])
        #expect(small.renditions.allSatisfy { $0.source == .jxlDC })
        let (large, fits) = try Self.render(jxl, [.fit(1600)])
        #expect(large.renditions.allSatisfy { $0.source == .decoded })
        let (_, reference) = try Self.render(source, [.square(256), .fit(1600)])
        #expect(Self.meanDifference(try #require(squares[.square(256)]), try #require(reference[.square(256)])) < 4)
        #expect(Self.meanDifference(try #require(fits[.fit(1600)]), try #require(reference[.fit(1600)])) < 4)
    }

    @Test func aFileCutShortShowsItsDCOrSaysItIsTruncated() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        let jxl = try JXLFixture.make(
            Corpus.path("large/012mp-bus.jpg"), as: "bus.jxl", in: directory, ["-j", "0", "-d", "1", "-e", "3"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jxl)))
        let cut = directory.appending("cut.jxl")
        try Data(bytes.prefix(bytes.count * 3 / 4)).write(to: URL(fileURLWithPath: cut))
        let (rendered, images) = try Self.render(cut, [.fit(1600)])
        #expect(rendered.warnings.contains { $0.contains("ends early") })
        #expect(images[.fit(1600)]?.width == 1600)
        let stub = directory.appending("stub.jxl")
        try Data(bytes.prefix(200)).write(to: URL(fileURLWithPath: stub))
        #expect { try Self.render(stub, [.fit(256)]) } throws: { ($0 as? PhotoError)?.code == .truncated }
        let garbage = directory.appending("garbage.jxl")
        try Data([0xFF, 0x0A] + (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
            .write(to: URL(fileURLWithPath: garbage))
        #expect(throws: PhotoError.self) { try Self.render(garbage, [.fit(256)]) }
    }

    @Test func anAnimationShowsItsFirstFrame() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        let ffmpeg = try #require(VideoFixture.ffmpeg)
        let apng = directory.appending("anim.apng")
        let process = try Process.run(
            URL(fileURLWithPath: ffmpeg),
            arguments: [
                "-v", "error", "-y", "-filter_complex",
                "color=c=red:s=64x48:d=0.2:r=10[a];color=c=blue:s=64x48:d=0.2:r=10[b];[a][b]concat=n=2:v=1:a=0,format=rgb24",
                "-plays", "0", "-f", "apng", apng,
            ])
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let jxl = try JXLFixture.make(apng, as: "anim.jxl", in: directory, ["-d", "0"])
        let (rendered, images) = try Self.render(jxl, [.fit(64)])
        #expect(rendered.metadata.jxl?.info.isAnimated == true && rendered.metadata.coding.hasSuffix("animated"))
        let pixel = try #require(images[.fit(64)])[32, 24]
        #expect(pixel.first ?? 0 > 240 && pixel.dropFirst().allSatisfy { $0 < 15 })
    }

    @Test func theMemoryBudgetIsCheckedBeforeDecoding() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        let jxl = try JXLFixture.make(
            Corpus.path("large/012mp-bus.jpg"), as: "bus.jxl", in: directory, ["-j", "0", "-d", "2", "-e", "1"])
        #expect { try Self.render(jxl, [.fit(256)], memoryLimit: 48 << 20) } throws: {
            ($0 as? PhotoError)?.code == .tooLarge && "\($0)".contains("MiB")
        }
    }

    /// A modular image whose squeeze transform (lossless `-p`, lossy modular) makes libjxl 0.7
    /// hold about 10 bytes a pixel per channel is budgeted for that, told from its frame header
    /// and the sizes its TOC gives its LF groups; everything else for about 4, through LF frames
    /// (progressive DC), permuted groups and a codestream split around metadata boxes.
    ///
    /// What cannot
    /// be told counts as squeezed.
    @Test func squeezedModularImagesAreBudgetedForWhatLibjxlHolds() throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        // Wider than one LF group (2048 pixels), as the photos that matter are.
        let ppm = directory.appending("wide.ppm")
        try JXLFixture.ppm(2100, 300) { x, y in
            (UInt8((x * 7 + y) & 255), UInt8((x ^ y) & 255), UInt8((x * y / 97) & 255))
        }
        .write(to: URL(fileURLWithPath: ppm))
        let small = directory.appending("small.ppm")
        try JXLFixture.ppm(400, 300) { x, y in (UInt8(x & 255), UInt8(y & 255), 90) }.write(
            to: URL(fileURLWithPath: small))
        let cases: [(String, String, [String], Bool)] = [
            ("lossless.jxl", ppm, ["-d", "0"], false),
            ("responsive.jxl", ppm, ["-d", "0", "-p"], true),
            ("modular.jxl", ppm, ["-d", "1", "-m", "1"], true),
            ("vardct.jxl", ppm, ["-d", "1"], false),
            ("lf-frame.jxl", ppm, ["-d", "1", "--progressive_dc=1"], false),
            ("centre-first.jxl", ppm, ["-d", "1", "--group_order=1"], false),
            ("centre-first-lossless.jxl", ppm, ["-d", "0", "--group_order=1"], true),
            ("one-lf-group.jxl", small, ["-d", "0"], true),
            ("recompressed.jxl", Corpus.path("formats/icc/Reagan.jpg"), [], false),
        ]
        for (name, source, arguments, squeezed) in cases {
            let jxl = try JXLFixture.make(source, as: name, in: directory, arguments)
            let decoder = try FileReader.withPhoto(at: FilePath(jxl)) { reader throws(PhotoError) in
                do throws(JXLError) {
                    return try JXLDecoder(stream: reader.stream(), codestream: JXLContainer.read(reader).codestream)
                } catch {
                    throw PhotoError(jxl: error)
                }
            }
            let info = try decoder.info()
            #expect(
                try decoder.memoryNeeded() == info.memoryNeeded(squeezed: squeezed) + JXLDecoder.inputReserve, "\(name)"
            )
        }
        // Allowed what a plain lossless image needs, and less than a squeezed one's budget,
        let limit = 16 << 20
        let (rendered, _) = try Self.render(directory.appending("lossless.jxl"), [.fit(256)], memoryLimit: limit)
        #expect(rendered.renditions.count == 1)
        // the squeezed image is refused before a pixel is decoded.
        #expect { try Self.render(directory.appending("responsive.jxl"), [.fit(256)], memoryLimit: limit) } throws: {
            ($0 as? PhotoError)?.code == .tooLarge && "\($0)".contains("MiB")
        }
    }

    /// A PQ image (lossless, so in PQ as stored; lossy, so XYB that libjxl gives back in PQ) is
    /// tone-mapped as a HEIF's is (BT.2390's EETF from the image's 1000-nit peak to 203 nits):
    /// 20 nits a dark grey, 203 nits just below white, 1000 nits white.
    ///
    /// Decoded as 8-bit sRGB
    /// instead, the lossless one came out 7, 39 and 89 (through its PQ profile), the lossy one
    /// 79, 231 and 255 (libjxl's own mapping, which clips).
    @Test(arguments: [["-d", "0"], ["-d", "1"]])
    func pqImagesAreToneMapped(encoding: [String]) throws {
        let directory = try TemporaryDirectory("jxl")
        defer { directory.remove() }
        // PQ code values of 20, 203 and 1000 nits (SMPTE ST 2084), in three bands.
        func pq(_ nits: Double) -> UInt16 {
            let (m1, m2, c1, c2, c3) = (
                2610.0 / 16384, 2523.0 / 4096 * 128, 3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32
            )
            let y = pow(nits / 10000, m1)
            return UInt16((pow((c1 + c2 * y) / (1 + c3 * y), m2) * 65535).rounded())
        }
        let bands = [pq(20), pq(203), pq(1000)]
        var bytes = Array("P6\n96 64\n65535\n".utf8)
        for _ in 0..<64 {
            for x in 0..<96 { for _ in 0..<3 { bytes += [UInt8(bands[x / 32] >> 8), UInt8(bands[x / 32] & 0xFF)] } }
        }
        let ppm = directory.appending("pq.ppm")
        try Data(bytes).write(to: URL(fileURLWithPath: ppm))
        let jxl = try JXLFixture.make(
            ppm, as: "pq.jxl", in: directory, encoding + ["-x", "color_space=RGB_D65_202_Rel_PeQ"])
        let (rendered, images) = try Self.render(jxl, [.fit(96)])
        #expect(rendered.metadata.hdrTransfer == .pq && rendered.metadata.coding.contains("Rec. 2100 PQ"))
        let image = try #require(images[.fit(96)])
        let (dark, white, bright) = (image[16, 32], image[48, 32], image[80, 32])
        #expect((84...92).contains(dark.first ?? 0), "\(Array(dark))")
        #expect(
            (220...240).contains(white.first ?? 0) && (bright.first ?? 0) >= 250, "\(Array(white)) \(Array(bright))")
    }
}
