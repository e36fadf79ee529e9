public import ArgumentParser
import TesseraImage
import TesseraLayout

// Lets `--style` and `--format` be parsed, listed in --help and completed from their names.
extension LayoutConfig.Style: ExpressibleByArgument {}

extension RenderOptions.Format: ExpressibleByArgument {}
