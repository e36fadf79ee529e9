/// Averages an image that arrives in tiles down by a whole factor, each output pixel the mean of
/// its `factor`×`factor` block (fewer at the right and bottom edges), so only the output and the
/// rows still being summed are ever in memory, never the whole image.
///
/// Tiles come row by row, left to right within a row. An output row is written out once the last
/// column's tile has passed its block's last source row, so the rows in progress are those one
/// row of tiles spans: with a single column of tiles (an image that is one tile), one or two.
struct AreaReducer {
    let width: Int
    let height: Int
    let channels: Int
    let factor: Int
    let outWidth: Int
    let outHeight: Int
    /// The largest sample value of the input (255 for 8 bits, 1023 for 10).
    let maximum: Int
    /// Whether the output keeps the input's samples (16-bit) instead of 8-bit ones.
    let keepsSamples: Bool

    private let slots: Int
    private var sums: [UInt32]
    private(set) var narrow: [UInt8] = []
    private(set) var wide: [UInt16] = []

    /// `tileHeight` sizes the rows in progress; `columns` is the number of tiles in a row.
    init(
        width: Int, height: Int, channels: Int, factor: Int, maximum: Int, keepsSamples: Bool, tileHeight: Int,
        columns: Int
    ) {
        // invariant: the decoder checks the tiling.
        precondition(width > 0 && height > 0 && factor > 0 && tileHeight > 0)
        self.width = width
        self.height = height
        self.channels = channels
        self.factor = factor
        self.maximum = maximum
        self.keepsSamples = keepsSamples
        outWidth = (width + factor - 1) / factor
        outHeight = (height + factor - 1) / factor
        slots = columns > 1 ? (tileHeight + factor - 1) / factor + 1 : 2
        sums = [UInt32](repeating: 0, count: outWidth * slots * channels)
        if keepsSamples {
            wide = [UInt16](repeating: 0, count: outWidth * outHeight * channels)
        } else {
            narrow = [UInt8](repeating: 0, count: outWidth * outHeight * channels)
        }
    }

    /// Bytes a reducer with these settings holds: its output and the sums of the rows in progress.
    static func memoryNeeded(
        width: Int, height: Int, channels: Int, factor: Int, keepsSamples: Bool, tileHeight: Int, columns: Int
    ) -> Int {
        let outWidth = (width + factor - 1) / factor, outHeight = (height + factor - 1) / factor
        let slots = columns > 1 ? (tileHeight + factor - 1) / factor + 1 : 2
        return outWidth * outHeight * channels * (keepsSamples ? 2 : 1) + outWidth * slots * channels * 4
    }

    /// The 8-bit output as an image (not for a reducer that keeps samples).
    var image: PixelBuffer {
        precondition(!keepsSamples)  // invariant: callers ask the samples of a reducer that keeps them
        return PixelBuffer(width: outWidth, height: outHeight, channels: channels, pixels: narrow)
    }

    /// Adds the tile whose top-left pixel is (`x`, `y`): `tileWidth`×`tileHeight` interleaved pixels
    /// of `sampleBytes` (1, or 2 little-endian) per sample, rows `stride` bytes apart.
    ///
    /// Parts outside
    /// the image (a grid's padded right and bottom tiles) are ignored.
    mutating func add(
        _ pixels: UnsafeRawPointer, stride: Int, sampleBytes: Int, x: Int, y: Int, tileWidth: Int, tileHeight: Int
    ) {
        let columns = min(tileWidth, width - x), rows = min(tileHeight, height - y)
        guard columns > 0, rows > 0 else { return }
        let lastColumn = x + tileWidth >= width
        let (factor, channels, slots, outWidth, height) = (factor, channels, slots, outWidth, height)
        // Moved out while rows are written from them (no copy).
        var sums: [UInt32] = []
        swap(&sums, &self.sums)
        defer { swap(&sums, &self.sums) }
        sums.withUnsafeMutableBufferPointer { sums in
            // invariant: the sums hold at least one row (outWidth ≥ 1, slots ≥ 2).
            let sums = sums.baseAddress.unsafelyUnwrapped
            for row in 0..<rows {
                let sourceY = y + row, outY = sourceY / factor
                let line = sums + (outY % slots) * outWidth * channels
                let source = pixels + row * stride
                var outX = x / factor, inBlock = x % factor
                var target = line + outX * channels
                for column in 0..<columns {
                    let base = column * channels
                    for channel in 0..<channels {
                        let sample =
                            sampleBytes == 1
                            ? UInt32(source.load(fromByteOffset: base + channel, as: UInt8.self))
                            : UInt32(source.load(fromByteOffset: 2 * (base + channel), as: UInt8.self))
                                | UInt32(source.load(fromByteOffset: 2 * (base + channel) + 1, as: UInt8.self)) << 8
                        target[channel] &+= sample
                    }
                    inBlock += 1
                    if inBlock == factor {
                        (inBlock, outX) = (0, outX + 1)
                        target += channels
                    }
                }
                if lastColumn && (sourceY + 1 == min((outY + 1) * factor, height)) {
                    finish(row: outY, from: line)
                }
            }
        }
    }

    /// Writes output row `row` from its sums, and clears them for the row that reuses the slot.
    private mutating func finish(row: Int, from line: UnsafeMutablePointer<UInt32>) {
        let blockHeight = min(factor, height - row * factor)
        let start = row * outWidth * channels
        for outX in 0..<outWidth {
            let count = min(factor, width - outX * factor) * blockHeight
            for channel in 0..<channels {
                let index = outX * channels + channel
                let sum = Int(line[index])
                if keepsSamples {
                    wide[start + index] = UInt16((sum + count / 2) / count)
                } else {
                    // Scaled to 8 bits exactly: 1023 is 255, not 255.75.
                    narrow[start + index] = UInt8((sum * 255 + count * maximum / 2) / (count * maximum))
                }
                line[index] = 0
            }
        }
    }
}
