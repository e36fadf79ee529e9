import CHeif
import Foundation
import TesseraMetadata

/// HEIF and AVIF through libheif: the primary image, or a thumbnail of it, as 8-bit RGB(A).
///
/// Decoded in the stored frame (libheif's transformations off): the renderer applies the
/// orientation the header derived from `irot` and `imir`, once, like any other photo's.
/// libheif reads from memory, so the file is read whole and counted against the budget.
/// One context per file; every handle and image is released on every path.
final class HEIFDecoder {
    private let context: OpaquePointer
    private let data: [UInt8]

    init(data: [UInt8]) throws(PhotoError) {
        guard let context = heif_context_alloc() else { throw PhotoError(.tooLarge, "cannot create a HEIF context") }
        self.context = context
        self.data = data
        let status = self.data.withUnsafeBytes { bytes in
            // The bytes outlive the context: both belong to this object.
            heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil)
        }
        // Every property is set: a throw from here on still runs deinit, which frees the context.
        if status.code != heif_error_Ok { throw Self.error(status, "cannot read the HEIF file") }
    }

    deinit { heif_context_free(context) }

    /// Bytes a decode of a `width`×`height` image needs: the decoded planes (three full ones
    /// at worst), the interleaved RGB(A) image (16-bit samples above 8 bits), and the 8-bit copy
    /// handed back. libheif decodes whole frames: no smaller scale exists for HEVC or AV1.
    static func memoryNeeded(width: Int, height: Int, bitDepth: Int, alpha: Bool) -> Int {
        let (pixels, sample, channels) = (width * height, bitDepth > 8 ? 2 : 1, alpha ? 4 : 3)
        return pixels * 3 * sample + pixels * channels * sample + pixels * channels
    }

    /// Decodes the primary image, or its thumbnail of stored size `thumbnail` when given (an
    /// error when there is no such thumbnail: never the primary instead, whose memory was not
    /// budgeted).
    ///
    /// `transformed` lets libheif apply `irot`/`imir` itself: what a reader that trusts libheif
    /// shows, against which the orientation derived here is tested.
    func decode(
        thumbnail: (width: Int, height: Int)?, alpha: Bool, bitDepth: Int, transformed: Bool = false
    ) throws(PhotoError) -> PixelBuffer {
        var primary: OpaquePointer?
        var status = heif_context_get_primary_image_handle(context, &primary)
        guard status.code == heif_error_Ok, let primary else { throw Self.error(status, "no primary image") }
        defer { heif_image_handle_release(primary) }
        var handle = primary
        var thumbnailHandle: OpaquePointer?
        defer { if let thumbnailHandle { heif_image_handle_release(thumbnailHandle) } }
        if let thumbnail {
            let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
            var ids = [heif_item_id](repeating: 0, count: max(1, count))
            _ = heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count))
            for id in ids.prefix(count) {
                var candidate: OpaquePointer?
                guard heif_image_handle_get_thumbnail(primary, id, &candidate).code == heif_error_Ok, let candidate else { continue }
                // libheif gives the size after the thumbnail's own transformations.
                let size = (Int(heif_image_handle_get_width(candidate)), Int(heif_image_handle_get_height(candidate)))
                if size == (thumbnail.width, thumbnail.height) || size == (thumbnail.height, thumbnail.width) {
                    thumbnailHandle = candidate
                    handle = candidate
                    break
                }
                heif_image_handle_release(candidate)
            }
            guard thumbnailHandle != nil else { throw PhotoError(.corrupt, "HEIF thumbnail of \(thumbnail.width)×\(thumbnail.height) not found") }
        }
        guard let options = heif_decoding_options_alloc() else { throw PhotoError(.tooLarge, "out of memory") }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = transformed ? 0 : 1
        let channels = alpha ? 4 : 3
        // Deeper images come as 16-bit samples and are narrowed here (libheif 1.15's own
        // narrowing gives black for some 10-bit files).
        let wide = bitDepth > 8
        let chroma = wide
            ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
            : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        var image: OpaquePointer?
        status = heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options)
        guard status.code == heif_error_Ok, let image else { throw Self.error(status, "cannot decode the HEIF image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        let sampleBytes = wide ? 2 : 1
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= width * channels * sampleBytes
        else { throw PhotoError(.corrupt, "HEIF image decoded to nothing") }
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
        pixels.withUnsafeMutableBufferPointer { out in
            // invariant: a non-empty array's buffer has a base address.
            let base = out.baseAddress.unsafelyUnwrapped
            for row in 0..<height {
                let source = plane + row * Int(stride), target = base + row * width * channels
                if !wide {
                    target.update(from: source, count: width * channels)
                    continue
                }
                let shift = max(0, min(8, bits - 8))
                for index in 0..<width * channels {
                    let value = Int(source[2 * index]) | Int(source[2 * index + 1]) << 8
                    target[index] = UInt8(min(255, (value + (shift > 0 ? 1 << (shift - 1) : 0)) >> shift))
                }
            }
        }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }

    private static func error(_ status: heif_error, _ what: String) -> PhotoError {
        let message = status.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
            ?? "error \(status.code.rawValue)"
        let code: PhotoError.Code = switch status.code {
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype: .unsupported
        case heif_error_Memory_allocation_error: .tooLarge
        default: .corrupt
        }
        return PhotoError(code, what, cause: message)
    }
}
