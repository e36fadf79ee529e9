/// Averages rows, as they arrive, down by a whole factor in both directions.
///
/// With alpha, colour is averaged premultiplied, so transparent pixels lend no colour.
struct BoxShrinker {
    /// An image already in memory, averaged down by `factor`.
    static func shrink(_ image: PixelBuffer, factor: Int) -> PixelBuffer {
        var shrinker = BoxShrinker(width: image.width, height: image.height, channels: image.channels, factor: factor)
        let rowBytes = image.width * image.channels
        for y in 0..<image.height {
            shrinker.add(image.pixels[y * rowBytes..<(y + 1) * rowBytes])
        }
        return shrinker.result()
    }

    let width, height, channels, factor: Int
    let outputWidth, outputHeight: Int
    private var sums: [UInt64]
    private var rowsInBlock = 0
    private var output: [UInt8]
    private var outputRow = 0

    init(width: Int, height: Int, channels: Int, factor: Int) {
        self.width = width
        self.height = height
        self.channels = channels
        self.factor = factor
        outputWidth = (width + factor - 1) / factor
        outputHeight = (height + factor - 1) / factor
        sums = [UInt64](repeating: 0, count: outputWidth * 4)
        output = [UInt8](repeating: 0, count: outputWidth * outputHeight * channels)
    }

    mutating func add(_ row: some Collection<UInt8>) {
        if factor == 1 {
            let start = outputRow * width * channels
            output.replaceSubrange(start..<start + width * channels, with: row)
            outputRow += 1
            return
        }
        let alpha = channels == 4
        row.withContiguousStorageIfAvailable { pixels in
            sums.withUnsafeMutableBufferPointer { sums in
                for x in 0..<width {
                    let p = x * channels, s = x / factor * 4
                    if alpha {
                        let a = UInt64(pixels[p + 3])
                        sums[s] += UInt64(pixels[p]) * a
                        sums[s + 1] += UInt64(pixels[p + 1]) * a
                        sums[s + 2] += UInt64(pixels[p + 2]) * a
                        sums[s + 3] += a
                    } else {
                        sums[s] += UInt64(pixels[p])
                        sums[s + 1] += UInt64(pixels[p + 1])
                        sums[s + 2] += UInt64(pixels[p + 2])
                    }
                }
            }
        }
        rowsInBlock += 1
        if rowsInBlock == factor || (outputRow * factor + rowsInBlock) == height { emitRow() }
    }

    private mutating func emitRow() {
        let start = outputRow * outputWidth * channels
        for block in 0..<outputWidth {
            let columns = min(factor, width - block * factor)
            let count = UInt64(columns * rowsInBlock)
            let s = block * 4, o = start + block * channels
            if channels == 4 {
                let a = sums[s + 3]
                for channel in 0..<3 { output[o + channel] = a == 0 ? 0 : UInt8((sums[s + channel] + a / 2) / a) }
                output[o + 3] = UInt8((a + count / 2) / count)
            } else {
                for channel in 0..<3 { output[o + channel] = UInt8((sums[s + channel] + count / 2) / count) }
            }
        }
        sums = [UInt64](repeating: 0, count: outputWidth * 4)
        rowsInBlock = 0
        outputRow += 1
    }

    func result() -> PixelBuffer {
        PixelBuffer(width: outputWidth, height: outputHeight, channels: channels, pixels: output)
    }
}
