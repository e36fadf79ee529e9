import CTurboJPEG
import TesseraMetadata

/// Encodes RGB pixels as baseline JPEG through TurboJPEG (tjCompress2), one handle per encoder.
final class JPEGEncoder {
    private let handle: tjhandle

    init() throws(PhotoError) {
        guard let handle = tjInitCompress() else {
            throw PhotoError(.encode, "cannot create a TurboJPEG compressor")
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// JPEG bytes for `image` (RGB) at `quality` 1–100, with 4:2:0 chroma subsampling
    /// below quality 90 and 4:4:4 from 90 up, as photo tools commonly do.
    func encode(_ image: PixelBuffer, quality: Int) throws(PhotoError) -> [UInt8] {
        precondition(image.channels == 3)  // invariant: the thumbnailer flattens alpha first
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let output { tjFree(output) } }
        let subsampling = quality >= 90 ? TJSAMP_444 : TJSAMP_420
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                &output, &size, Int32(subsampling.rawValue), Int32(max(1, min(100, quality))), 0)
        }
        guard status == 0, let output else {
            let cause = tjGetErrorStr2(handle).map { String(cString: $0) }
            throw PhotoError(.encode, "cannot encode the JPEG thumbnail", cause: cause)
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
