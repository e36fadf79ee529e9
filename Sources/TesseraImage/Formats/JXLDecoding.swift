import TesseraFacts
import TesseraJXL
import TesseraMetadata
import TesseraSystem

/// JPEG XL through libjxl: only the frame's DC when an eighth of the detail covers the plan; HDR is
/// tone-mapped.
enum JXLDecoding: PhotoDecoding {
    static let header: any PhotoHeader.Type = JXLHeader.self

    static func decode(
        _ reader: borrowing FileReader, _ request: DecodeRequest, by renderer: Renderer
    ) throws(PhotoError) -> Renderer.Decoded {
        let (metadata, plan, memory) = (request.metadata, request.plan, request.memory)
        let decoder: JXLDecoder, info: JXLImageInfo, needed: Int
        do throws(JXLError) {
            decoder = try JXLDecoder(stream: reader.stream(), codestream: metadata.jxl?.container.codestream)
            info = try decoder.info()
            needed = try decoder.memoryNeeded()
        } catch {
            throw PhotoError(jxl: error)
        }
        try Renderer.cover(needed, plan: plan, memory: memory, metadata: metadata)
        // A frame's DC is the image at 1/8 of its detail: enough when an eighth covers every rendition.
        let dcOnly = plan.jpegNumerator(width: info.width, height: info.height) == 1
        let image: JXLDecoder.Image
        do throws(JXLError) {
            image = try decoder.decode(dcOnly: dcOnly, memoryLimit: memory.held - plan.memoryNeeded)
        } catch {
            throw PhotoError(jxl: error)
        }
        // Averaged down only to twice what the plan needs: a box filter down to just above a
        // rendition leaves aliasing Lanczos cannot take out (SSIM 0.962 against 0.970 for a
        // 1024 fit of a 12 MP photo, bench/jxl.py), for 10 % more time.
        let factor = max(1, plan.shrinkFactor(width: image.width, height: image.height) / 2)
        if let transfer = info.transfer.flatMap(HDRTransfer.init(h273:)), !image.wide.isEmpty {
            // HDR: averaged down in 16 bits, then tone-mapped straight to sRGB, as HEIF's is.
            var reducer = AreaReducer(
                width: image.width, height: image.height, channels: image.channels, factor: factor, maximum: 65535,
                keepsSamples: true, tileHeight: image.height, columns: 1)
            image.wide.withUnsafeBytes { samples in
                // invariant: a non-empty array's buffer has a base address.
                reducer.add(
                    samples.baseAddress.unsafelyUnwrapped, stride: image.width * image.channels * 2, sampleBytes: 2,
                    x: 0, y: 0,
                    tileWidth: image.width, tileHeight: image.height)
            }
            let mapped = ToneMapping(transfer: transfer, primaries: info.primaries ?? 9).map(reducer)
            return Renderer.Decoded(
                image: mapped, scale: Double(reducer.outWidth) / Double(image.width),
                source: image.dcOnly ? .jxlDC : .decoded,
                warnings: image.warning.map { [$0] } ?? [])
        }
        let whole = PixelBuffer(
            width: image.width, height: image.height, channels: image.channels, pixels: image.pixels)
        return renderer.converted(
            .rgb(factor > 1 ? BoxShrinker.shrink(whole, factor: factor) : whole), profile: image.iccProfile,
            scale: 1 / Double(factor), source: image.dcOnly ? .jxlDC : .decoded,
            warnings: image.warning.map { [$0] } ?? [])
    }
}
