import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraTestSupport
import Testing

/// The camera body's serial number, what pairs a RAW with its JPEG under another name: from
/// EXIF's `BodySerialNumber`, else from the maker note of a Canon or a Nikon, as exiftool reads
/// them (its SerialNumber).
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingNote))
struct SerialNumberTests {
    @Test(arguments: [
        ("media/xmp/sidecar/20240128_185808.JPG", "6009135"),  // EXIF (and the maker note too)
        ("formats/raw/Canon-R6-pruned.CR3", "093022004357"),  // EXIF, in a CR3's CMT2
        ("formats/raw/Nikon D7100 (head).nef", "7302381"),  // the Nikon note only
        ("formats/raw/Nikon.nef", "12345678"),  // the D70's tag
        ("formats/raw/Issue 247-1.nef", "NO= 1005a431"),  // as written (exiftool -n)
        ("formats/webp/exiv2-bug1199.webp", "2567806"),
        ("large/Canon EOS 1000D.jpg", "0330100138"),  // the Canon note only: ten digits
        ("camera/Apple iPhone 4.jpg", nil),
    ])
    func aBodysSerialNumberIsRead(file: String, serial: String?) throws {
        let metadata = try MetadataReader.read(at: FilePath(Corpus.path(file)))
        #expect(metadata.facts.camera.serialNumber == serial)
    }
}
