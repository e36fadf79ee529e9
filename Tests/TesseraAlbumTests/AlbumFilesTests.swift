import SystemPackage
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraAlbum

@Suite struct AlbumFilesTests {
    /// The list of files let go of is appended to as albums are written: a line cut short by a
    /// crash is not read as a file (its cache path would not match a rendition still shown).
    @Test func aListCutShortGivesOnlyItsWholeLines() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = OutputFolder(root: FilePath(directory.path))
        try AlbumFiles.addGone(["media/64/ab/ab12.jpg": "cache/64/ab/ab12.jpg", "originals/a/1-x.jpg": ""], in: output)
        try FileSystem.append(Array("media/64/cd/cd34.jpg\tcache/64/c".utf8), to: output.path(AlbumFiles.goneList))
        #expect(
            AlbumFiles.gone(in: output) == ["media/64/ab/ab12.jpg": "cache/64/ab/ab12.jpg", "originals/a/1-x.jpg": ""])
    }
}
