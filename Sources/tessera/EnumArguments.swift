public import ArgumentParser
import TesseraCommands
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraLayout

// Lets `--style`, `--format`, `--originals`, `--album-order` and `--kind` be parsed, listed in --help and
// completed from their names.
extension LayoutConfig.Style: ExpressibleByArgument {}

extension ImageFormat: ExpressibleByArgument {
    /// Those `--format` takes: the formats Tessera writes.
    static var allValueStrings: [String] { all(\.encodable).map(\.rawValue) }
}

extension AlbumOriginals: ExpressibleByArgument {}

extension AlbumOrder: ExpressibleByArgument {}

extension PhotoQuery.Media: ExpressibleByArgument {}
extension LayoutConfig.GroupBy: ExpressibleByArgument {}
extension PeopleRequest.Action: ExpressibleByArgument {}
