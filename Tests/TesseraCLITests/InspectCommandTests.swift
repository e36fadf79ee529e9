import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage
import TesseraMetadata
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

/// `tessera inspect` as a user runs it.
struct InspectCommandTests {
    @Test func jsonHasTheContractFieldsWithNulls() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var exif = ExifBuilder()
        exif.orientation = 6
        exif.make = "Maker"
        exif.model = "Model 1"
        exif.dateTimeOriginal = .init(dateTime: "2023:07:14 18:30:05", subSeconds: "25", offset: "+02:00")
        let file = directory.appending("a.jpg")
        try Data(SampleImage.jpeg(SampleImage.pixels(width: 40, height: 30), exif: exif)).write(
            to: URL(fileURLWithPath: file))

        let result = try TesseraProcess.run(["inspect", "--json", file])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["path"] as? String == file)
        #expect(object["format"] as? String == "jpeg")
        #expect(object["width"] as? Int == 40 && object["height"] as? Int == 30)
        #expect(object["orientation"] as? Int == 6)
        #expect(object["displayWidth"] as? Int == 30 && object["displayHeight"] as? Int == 40)
        #expect(object["capturedAt"] as? String == "2023-07-14T18:30:05.250")
        #expect(object["utcOffset"] as? String == "+02:00")
        #expect(object["dateSource"] as? String == "exif-original")
        #expect(object["make"] as? String == "Maker" && object["model"] as? String == "Model 1")
        #expect(object["gps"] is NSNull)
        #expect(object["error"] is NSNull)
        #expect((object["warnings"] as? [Any])?.isEmpty == true)
    }

    /// A photo's position is named offline (docs/PLACES.md); without the place data, `inspect`
    /// says why the place is unknown and still succeeds.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
    func thePositionIsNamedByTheInstalledPlaceData() throws {
        let berlin = Corpus.path("media/videos/quicktime-hvc1.mov")
        let json = try TesseraProcess.run(["inspect", "--json", berlin])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let place = try #require(object["place"] as? [String: Any], "\(json.stdout)")
        #expect(place["locality"] as? String == "Berlin" && place["countryCode"] as? String == "DE")
        #expect(place["near"] as? Bool == false)
        let text = try TesseraProcess.run(["inspect", Corpus.path("media/live/IMG_7943.HEIC")])
        #expect(text.stdout.contains("place         Brno, South Moravian, Czechia"), "\(text.stdout)")

        let missing = try TesseraProcess.run(
            ["inspect", berlin], environment: ["TESSERA_PLACES": "/nonexistent/places.bin"])
        #expect(missing.status == 0)
        #expect(
            missing.stdout.contains("place         unknown: the place data /nonexistent/places.bin: not installed"),
            "\(missing.stdout)")
    }

    @Test func badFilesAreReportedAndTheExitStatusSaysSo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = directory.appending("good.png")
        try Data(SampleImage.png(SampleImage.pixels(width: 8, height: 8))).write(to: URL(fileURLWithPath: good))
        let text = directory.appending("notes.jpg")
        try Data("just text".utf8).write(to: URL(fileURLWithPath: text))
        let truncated = directory.appending("cut.jpg")
        let jpeg = try SampleImage.jpeg(SampleImage.pixels(width: 64, height: 64))
        try Data(jpeg.prefix(40)).write(to: URL(fileURLWithPath: truncated))

        let result = try TesseraProcess.run([
            "inspect", "--json", good, text, truncated, directory.appending("missing.jpg"),
        ])
        #expect(result.status == 1)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 4)
        #expect(array[0]["error"] is NSNull && array[0]["format"] as? String == "png")
        #expect(array[1]["format"] as? String == "unsupported")
        #expect((array[2]["error"] as? String)?.contains("ends inside") == true)
        #expect(array[2]["format"] as? String == "jpeg")
        #expect((array[3]["error"] as? String)?.contains("cannot open") == true)
    }

    @Test func nonUTF8NamesRoundTripThroughBase64() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // "caf\xE9.png": Latin-1 é, invalid as UTF-8.
        var nameBytes = Array(directory.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".png".utf8)
        let png = try SampleImage.png(SampleImage.pixels(width: 8, height: 8))
        nameBytes.append(0)
        let path = nameBytes.withUnsafeBufferPointer {
            FilePath(
                platformString: $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: nameBytes.count) { $0 })
        }
        try FileSystem.writeAtomically(png, to: path)
        nameBytes.removeLast()

        let result = try TesseraProcess.measure(bytes: [Array("inspect".utf8), Array("--json".utf8), nameBytes])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let encoded = try #require(report["pathBase64"] as? String)
        #expect(Data(base64Encoded: encoded) == Data(nameBytes))
        #expect((report["path"] as? String)?.contains("\u{FFFD}") == true)
    }

    @Test func filesFromAListKeepTheirExactNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let png = try SampleImage.png(SampleImage.pixels(width: 8, height: 6))
        // A name with a newline and one that is not UTF-8: only a NUL-separated list carries them.
        let names: [[UInt8]] = [
            Array("plain.png".utf8), Array("two\nlines.png".utf8), Array("caf".utf8) + [0xE9] + Array(".png".utf8),
        ]
        let paths: [[UInt8]] = names.map { Array(directory.path.utf8) + [0x2F] + $0 }
        for path in paths { try FileSystem.writeAtomically(png, to: FilePath(rawBytes: path)) }
        let listed: [UInt8] = paths.flatMap { $0 + [0] }

        let fromStandardInput = try TesseraProcess.run(["inspect", "--json", "--files-from", "-"], input: Data(listed))
        #expect(fromStandardInput.status == 0, Comment(rawValue: fromStandardInput.stderr))
        let reports = try #require(
            try JSONSerialization.jsonObject(with: Data(fromStandardInput.stdout.utf8)) as? [[String: Any]])
        // `pathBase64` carries a name that is not UTF-8; `path` the others.
        let reported: [[UInt8]] = reports.map { report in
            (report["pathBase64"] as? String).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
                ?? Array((report["path"] as? String ?? "").utf8)
        }
        #expect(reported == paths)
        #expect(reports.allSatisfy { $0["width"] as? Int == 8 && $0["error"] is NSNull })

        // One per line, as `find -print` writes them, beside a file named on the command line.
        let list = directory.appending("list.txt")
        try Data("\(directory.appending("plain.png"))\n\n\(directory.appending("missing.png"))\n".utf8).write(
            to: URL(fileURLWithPath: list))
        let fromFile = try TesseraProcess.run([
            "inspect", "--json", directory.appending("plain.png"), "--files-from", list,
        ])
        #expect(fromFile.status == 1)
        let mixed = try #require(try JSONSerialization.jsonObject(with: Data(fromFile.stdout.utf8)) as? [[String: Any]])
        #expect(mixed.map { $0["error"] is NSNull } == [true, true, false])

        let nothing = try TesseraProcess.run(["inspect"])
        #expect(nothing.status == 64 && nothing.stderr.contains("--files-from"))
        let unreadable = try TesseraProcess.run(["inspect", "--files-from", directory.appending("no-list")])
        #expect(
            unreadable.status != 0 && unreadable.stderr.contains("no-list")
                && unreadable.stderr.contains("No such file"))
    }

    /// Files named among options and after `--` (a name starting with "-") are read in the order given, then the list's.
    @Test func filesKeepTheirOrderAmongOptions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let png = try SampleImage.png(SampleImage.pixels(width: 8, height: 6))
        for name in ["a.png", "b.png", "-c.png", "d.png", "e.png"] {
            try FileSystem.writeAtomically(png, to: FilePath(directory.appending(name)))
        }
        let list = directory.appending("list")
        try Data("e.png\n".utf8).write(to: URL(fileURLWithPath: list))
        let result = try TesseraProcess.run(
            ["inspect", "a.png", "--json", "b.png", "--files-from", list, "--", "-c.png", "d.png"],
            in: URL(fileURLWithPath: directory.path))
        #expect(result.status == 0, Comment(rawValue: result.stderr))
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(reports.map { $0["path"] as? String } == ["a.png", "b.png", "-c.png", "d.png", "e.png"])
    }

    /// The text is for people: every fact of the JSON, grouped, make and model as the file has
    /// them, numbers rounded (the JSON keeps them exact).
    @Test func textShowsEveryFactGroupedAndRounded() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var exif = ExifBuilder()
        (exif.make, exif.model, exif.orientation) = ("NIKON CORPORATION", "NIKON D90", 6)
        exif.dateTimeOriginal = .init(dateTime: "2023:09:28 09:44:12", subSeconds: "5", offset: "+02:00")
        exif.gps = .init(latitude: 34.05960833333333, longitude: -84.681725, altitude: 261.0165326184093)
        let photo = directory.appending("d90.jpg")
        try FileSystem.writeAtomically(
            try SampleImage.jpeg(SampleImage.pixels(width: 800, height: 600), exif: exif), to: FilePath(photo))
        let text = try TesseraProcess.run(["inspect", photo]).stdout
        let expected = [
            "  File\n    format        JPEG, baseline 3ch 8-bit (photo)\n",
            "  Image\n    size          800 × 600 px (0.5 MP)\n    orientation   6, rotate 90 CW → shown 600 × 800\n",
            "  Capture\n    date          2023-09-28 09:44:12.500 +02:00\n    date from     EXIF, when the photo was taken\n",
            "  Camera and exposure\n    make          NIKON CORPORATION\n    model         NIKON D90\n",
            "  Place\n    position      34.059608, -84.681725\n    altitude      261 m\n",
        ]
        for part in expected { #expect(text.contains(part), "\(part) in:\n\(text)") }
        // The JSON keeps everything exactly.
        let json = try TesseraProcess.run(["inspect", "--json", photo]).stdout
        #expect(
            json.contains("NIKON CORPORATION") && json.contains("34.0596083") && json.contains("\"altitude\" : 261.0"))
        // A camera's exposure, with its 35 mm equivalent.
        guard Corpus.isAvailable else { return print(Corpus.missingNote) }
        let canon = try TesseraProcess.run(["inspect", Corpus.path("formats/icc/Canon PowerShot A560.jpg")]).stdout
        #expect(canon.contains("    exposure      1/50 s, f/2.6, ISO 80, 5.8 mm (35 mm equivalent)\n"), "\(canon)")
    }

    /// A file the index holds: its album, status and renditions, in the text and in the JSON.
    @Test func anIndexedFileShowsItsRenditions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 1, width: 400)
        let store = ScanCommandTests.store(directory)
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        // (through a relative path, from the folder above the photo)
        let text = try TesseraProcess.run(["inspect", "p0.jpg"] + store, in: URL(fileURLWithPath: photos + "/album0"))
            .stdout
        #expect(text.contains("  In the index\n    album         album0\n    status        ok\n"), "\(text)")
        let square = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("    256 square    256 × 256, from ") })
        let path = String(square.split(separator: ": ", maxSplits: 1)[1])
        #expect(FileManager.default.fileExists(atPath: path), "\(square)")
        let json = try JSONSerialization.jsonObject(
            with: Data(try TesseraProcess.run(["inspect", "--json", photos + "/album0/p0.jpg"] + store).stdout.utf8))
        #expect(((json as? [String: Any])?["renditions"] as? [Any])?.count == 4, "\(json)")
    }

    /// The configuration's index is consulted only when it opens: one of an older schema (until
    /// the next scan migrates it) leaves `inspect` reading files as ever; one named with --index
    /// must open.
    @Test func anIndexThatCannotBeReadNowDoesNotStopInspect() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photos = try ScanCommandTests.library(in: directory, count: 1, width: 200)
        let store = ScanCommandTests.store(directory)
        #expect(try TesseraProcess.run(["scan", photos] + store).status == 0)
        let index = directory.appending("index.sqlite")
        let older = Process()
        older.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        older.arguments = [index, "PRAGMA user_version = 9"]
        try older.run()
        older.waitUntilExit()
        let config = directory.appending("tessera.yaml")
        try "index: \(index)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let photo = photos + "/album0/p0.jpg"
        let configured = try TesseraProcess.run(["inspect", photo, "--config", config])
        #expect(
            configured.status == 0 && configured.stdout.contains("  Image\n")
                && !configured.stdout.contains("In the index"),
            "\(configured.stdout) \(configured.stderr)")
        let named = try TesseraProcess.run(["inspect", photo, "--index", index])
        #expect(named.status != 0 && named.stderr.contains("needs a scan to migrate it"), "\(named.stderr)")
    }

    /// `--files-from <(find …)` hands Tessera a pipe, and an empty list may be /dev/null: neither is a regular file.
    @Test func aListIsReadFromAPipeOrADevice() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photo = directory.appending("a.png")
        try FileSystem.writeAtomically(
            try SampleImage.png(SampleImage.pixels(width: 8, height: 6)), to: FilePath(photo))
        let fifo = directory.appending("list")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            // Opening blocks until Tessera opens the other end.
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data("\(photo)\n".utf8))
                try? handle.close()
            }
        }
        writer.start()
        let fromPipe = try TesseraProcess.run(["inspect", "--json", "--files-from", fifo])
        #expect(fromPipe.status == 0, Comment(rawValue: fromPipe.stderr))
        #expect(fromPipe.stdout.contains(#""width" : 8"#))
        let empty = try TesseraProcess.run(
            ["inspect", "a.png", "--files-from", "/dev/null"], in: URL(fileURLWithPath: directory.path))
        #expect(empty.status == 0, Comment(rawValue: empty.stderr))
    }

    /// The JSON is written by Tessera's own encoder: what a JSON parser reads back must be the
    /// exact text of the file, in Foundation's layout, with empty arrays as `[]`.
    @Test func jsonTextEscapesWhatItMustAndKeepsTheRest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let photo = directory.appending("a.png")
        try Data(SampleImage.png(SampleImage.pixels(width: 4, height: 4))).write(to: URL(fileURLWithPath: photo))
        let title = "\"Quay\" \\ 1/2\tdusk\nVýlet 港"
        let escapedInXML = title.replacingOccurrences(of: "\t", with: "&#9;").replacingOccurrences(
            of: "\n", with: "&#10;")
        try Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(escapedInXML)</rdf:li></rdf:Alt></dc:title>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8
        ).write(to: URL(fileURLWithPath: directory.appending("a.xmp")))

        let result = try TesseraProcess.run(["inspect", "--json", photo, photo])
        #expect(result.status == 0, Comment(rawValue: result.stderr))
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(reports.map { $0["title"] as? String } == [title, title])
        #expect(result.stdout.contains(#""title" : "\"Quay\" \\ 1/2\tdusk\nVýlet 港""#))
        #expect(result.stdout.hasPrefix("[\n  {\n    \""))
        #expect(result.stdout.contains("\n    \"keywords\" : [],\n") && result.stdout.hasSuffix("\n  }\n]\n"))
        let keys = result.stdout.split(separator: "\n").filter { $0.hasPrefix("    \"") }.prefix(while: {
            !$0.contains("\"width\"")
        })
        #expect(
            keys.map { String($0) } == keys.map { String($0) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}
