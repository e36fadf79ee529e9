import Foundation
import SystemPackage
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
        try Data(SampleImage.jpeg(SampleImage.pixels(width: 40, height: 30), exif: exif)).write(to: URL(fileURLWithPath: file))

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

        let result = try TesseraProcess.run(["inspect", "--json", good, text, truncated, directory.appending("missing.jpg")])
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
        let path = nameBytes.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: nameBytes.count) { $0 }) }
        try FileSystem.writeAtomically(png, to: path)
        nameBytes.removeLast()

        let result = try TesseraProcess.measure(bytes: [Array("inspect".utf8), Array("--json".utf8), nameBytes])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let encoded = try #require(report["pathBase64"] as? String)
        #expect(Data(base64Encoded: encoded) == Data(nameBytes))
        #expect((report["path"] as? String)?.contains("\u{FFFD}") == true)
    }
}
