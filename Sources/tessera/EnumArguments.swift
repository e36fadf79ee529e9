public import ArgumentParser
import TesseraAlbum
import TesseraImage
import TesseraLayout

// Lets `--style`, `--format` and `--originals` be parsed, listed in --help and completed from their names.
extension LayoutConfig.Style: ExpressibleByArgument {}

extension RenderOptions.Format: ExpressibleByArgument {}

extension AlbumBuilder.Originals: ExpressibleByArgument {}
