import TesseraTestSupport
import Testing

@testable import TesseraImage

/// Averaging tile by tile gives exactly the block means of the whole image, whatever the tiles,
/// the factor and the padding past the image's edge.
struct AreaReducerTests {
    @Test(arguments: [
        (width: 37, height: 29, tile: (w: 8, h: 8), factor: 3),
        (width: 37, height: 29, tile: (w: 37, h: 29), factor: 4),
        (width: 64, height: 48, tile: (w: 10, h: 7), factor: 1),
        (width: 50, height: 50, tile: (w: 16, h: 12), factor: 7),
        (width: 5, height: 3, tile: (w: 4, h: 4), factor: 8),
    ])
    func tilesAverageLikeTheWholeImage(width: Int, height: Int, tile: (w: Int, h: Int), factor: Int) {
        var random = SplitMix(seed: UInt64(width * 1000 + factor))
        let channels = 3, maximum = 1023
        let image = (0..<width * height * channels).map { _ in UInt16(random.next() % UInt64(maximum + 1)) }
        let columns = (width + tile.w - 1) / tile.w, rows = (height + tile.h - 1) / tile.h
        for keepsSamples in [false, true] {
            var reducer = AreaReducer(
                width: width, height: height, channels: channels, factor: factor, maximum: maximum,
                keepsSamples: keepsSamples,
                tileHeight: tile.h, columns: columns)
            for row in 0..<rows {
                for column in 0..<columns {
                    // A padded tile, as a grid's edge tiles are: garbage past the image's edge.
                    var bytes = [UInt8](repeating: 0xEE, count: tile.w * tile.h * channels * 2)
                    for y in 0..<tile.h where row * tile.h + y < height {
                        for x in 0..<tile.w where column * tile.w + x < width {
                            for c in 0..<channels {
                                let value = image[((row * tile.h + y) * width + column * tile.w + x) * channels + c]
                                bytes[((y * tile.w + x) * channels + c) * 2] = UInt8(value & 0xFF)
                                bytes[((y * tile.w + x) * channels + c) * 2 + 1] = UInt8(value >> 8)
                            }
                        }
                    }
                    bytes.withUnsafeBytes {
                        reducer.add(
                            $0.baseAddress!, stride: tile.w * channels * 2, sampleBytes: 2, x: column * tile.w,
                            y: row * tile.h,
                            tileWidth: tile.w, tileHeight: tile.h)
                    }
                }
            }
            let (outWidth, outHeight) = ((width + factor - 1) / factor, (height + factor - 1) / factor)
            #expect(reducer.outWidth == outWidth && reducer.outHeight == outHeight)
            for outY in 0..<outHeight {
                for outX in 0..<outWidth {
                    for c in 0..<channels {
                        var (sum, count) = (0, 0)
                        for y in outY * factor..<min(height, (outY + 1) * factor) {
                            for x in outX * factor..<min(width, (outX + 1) * factor) {
                                sum += Int(image[(y * width + x) * channels + c])
                                count += 1
                            }
                        }
                        let index = (outY * outWidth + outX) * channels + c
                        if keepsSamples {
                            #expect(Int(reducer.wide[index]) == (sum + count / 2) / count)
                        } else {
                            #expect(Int(reducer.narrow[index]) == (sum * 255 + count * maximum / 2) / (count * maximum))
                        }
                    }
                }
            }
        }
    }
}
