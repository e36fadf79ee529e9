public import ArgumentParser
import TesseraLayout

// Lets `--style` be parsed, listed in --help and completed from the style names.
extension LayoutConfig.Style: ExpressibleByArgument {}
