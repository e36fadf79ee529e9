import CHeif
import Foundation
import TesseraFacts

/// HEIF and AVIF through libheif (1.19 or later): the primary image, or a thumbnail of it,
/// decoded tile by tile and averaged down as it comes, so a grid (every phone HEIC) never has
/// its whole frame in memory; an image that is not a grid is one tile.
///
/// Decoded in the stored frame (libheif's transformations off): the renderer applies the
/// orientation the header derived from `irot` and `imir`, once, like any other photo's.
/// libheif reads from memory, so the file is read whole and counted against the budget.
/// One context per file; every handle and image is released on every path.
final class HEIFDecoder {
    private let context: OpaquePointer
    private let data: [UInt8]

    init(data: [UInt8]) throws(PhotoError) {
        guard heif_get_version_number() >= 0x0113_0000 else {
            let version = heif_get_version().map { String(cString: $0) } ?? "?"
            throw PhotoError(
                .unsupported, "libheif \(version) is too old: Tessera needs 1.19 or later (docs/INSTALL.md)")
        }
        guard let context = heif_context_alloc() else { throw PhotoError(.tooLarge, "cannot create a HEIF context") }
        self.context = context
        self.data = data
        // One thread: a worker is one core's share, and tiles are decoded one at a time anyway.
        heif_context_set_max_decoding_threads(context, 0)
        let status = self.data.withUnsafeBytes { bytes in
            // The bytes outlive the context: both belong to this object.
            heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil)
        }
        // Every property is set: a throw from here on still runs deinit, which frees the context.
        if status.code != heif_error_Ok { throw Self.error(status, "cannot read the HEIF file") }
    }

    deinit { heif_context_free(context) }

    /// The primary image, as stored or (`transformed`, not for grids) with libheif applying
    /// `irot`/`imir` itself: what a reader that trusts libheif shows, against which the
    /// orientation derived here is tested.
    func primary(transformed: Bool = false) throws(PhotoError) -> Image {
        var handle: OpaquePointer?
        let status = heif_context_get_primary_image_handle(context, &handle)
        guard status.code == heif_error_Ok, let handle else { throw Self.error(status, "no primary image") }
        return try Image(handle, owner: self, transformed: transformed, isThumbnail: false)
    }

    /// The primary's thumbnail image of stored size `width`×`height` (either way round; an error
    /// when there is none: never the primary instead, whose memory was not budgeted).
    func thumbnail(width: Int, height: Int) throws(PhotoError) -> Image {
        let primary = try primary()
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary.handle))
        var ids = [heif_item_id](repeating: 0, count: max(1, count))
        _ = heif_image_handle_get_list_of_thumbnail_IDs(primary.handle, &ids, Int32(count))
        for id in ids.prefix(count) {
            var candidate: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary.handle, id, &candidate).code == heif_error_Ok, let candidate
            else { continue }
            let image = try Image(candidate, owner: self, transformed: false, isThumbnail: true)
            if (image.width, image.height) == (width, height) || (image.width, image.height) == (height, width) {
                return image
            }
        }
        throw PhotoError(.corrupt, "HEIF thumbnail of \(width)×\(height) not found")
    }

    /// One image of the file and how it is tiled; owns its handle.
    final class Image {
        fileprivate let handle: OpaquePointer
        /// Keeps the context (and the file's bytes) alive while the handle is.
        private let owner: HEIFDecoder
        private let transformed: Bool
        let isThumbnail: Bool
        let width: Int
        let height: Int
        let tileWidth: Int
        let tileHeight: Int
        let columns: Int
        let rows: Int
        /// How far the first tile starts above and left of the image: a turned grid's padding
        /// (the part of the last tiles past the image) comes first.
        private let offset: (x: Int, y: Int)
        /// Bits per sample of the coded image.
        let bitDepth: Int
        let hasAlpha: Bool
        /// Coded samples per pixel (1.5 for 4:2:0, 3 for 4:4:4), in halves.
        private let halfSamples: Int
        /// Whether the coded Y′CbCr planes are turned into RGB here (see `addPlanes`); tests
        /// turn it off to compare with libheif's own conversion.
        var convertsPlanes: Bool
        /// Its own `nclx` colour description (ITU-T H.273 code points), if it has one.
        let nclx: (primaries: Int, transfer: Int, matrix: Int)?

        fileprivate init(
            _ handle: OpaquePointer, owner: HEIFDecoder, transformed: Bool, isThumbnail: Bool
        ) throws(PhotoError) {
            self.handle = handle
            self.owner = owner
            self.transformed = transformed
            self.isThumbnail = isThumbnail
            var profile: UnsafeMutablePointer<heif_color_profile_nclx>?
            if heif_image_handle_get_nclx_color_profile(handle, &profile).code == heif_error_Ok, let profile {
                nclx = (
                    Int(profile.pointee.color_primaries.rawValue),
                    Int(profile.pointee.transfer_characteristics.rawValue),
                    Int(profile.pointee.matrix_coefficients.rawValue)
                )
                heif_nclx_color_profile_free(profile)
            } else {
                nclx = nil
            }
            var tiling = heif_image_tiling()
            let status = heif_image_handle_get_image_tiling(handle, transformed ? 1 : 0, &tiling)
            (columns, rows) = (Int(tiling.num_columns), Int(tiling.num_rows))
            if columns == 1 && rows == 1 {
                // One tile, the image itself. libheif 1.19 gives an image that is not a grid the
                // other way round (turned when asked not to be), so the sizes are asked directly.
                (width, height) =
                    transformed
                    ? (Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
                    : (Int(heif_image_handle_get_ispe_width(handle)), Int(heif_image_handle_get_ispe_height(handle)))
                (tileWidth, tileHeight) = (width, height)
                offset = (0, 0)
            } else {
                (width, height) = (Int(tiling.image_width), Int(tiling.image_height))
                (tileWidth, tileHeight) = (Int(tiling.tile_width), Int(tiling.tile_height))
                offset = (Int(tiling.left_offset), Int(tiling.top_offset))
            }
            bitDepth = max(8, Int(heif_image_handle_get_luma_bits_per_pixel(handle)))
            hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
            var colorspace = heif_colorspace_undefined, chroma = heif_chroma_undefined
            _ = heif_image_handle_get_preferred_decoding_colorspace(handle, &colorspace, &chroma)
            let colour: Int =
                switch chroma {
                case heif_chroma_monochrome: 2
                case heif_chroma_420: 3
                case heif_chroma_422: 4
                default: 6
                }
            halfSamples = colour + (hasAlpha ? 2 : 0)
            // With alpha, libheif converts: its alpha plane may have another depth than the colour.
            convertsPlanes =
                bitDepth > 8 && !hasAlpha && colorspace == heif_colorspace_YCbCr
                && [heif_chroma_420, heif_chroma_422, heif_chroma_444].contains(chroma)
                && !YCbCrToRGB.otherMatrices.contains(nclx?.matrix ?? 2)
            // Every property is set: a throw from here on still runs deinit, which releases the handle.
            guard status.code == heif_error_Ok else {
                throw HEIFDecoder.error(status, "cannot read the HEIF image's tiling")
            }
            // libheif 1.19 describes a turned grid's tiles inconsistently (columns turned, tile sizes not).
            guard !transformed || columns * rows == 1 else { throw PhotoError(.unsupported, "a turned HEIF grid") }
            guard width > 0, height > 0, tileWidth > 0, tileHeight > 0, columns > 0, rows > 0,
                offset.x < tileWidth, offset.y < tileHeight,
                columns * tileWidth >= width + offset.x, rows * tileHeight >= height + offset.y
            else {
                throw PhotoError(
                    .corrupt,
                    "HEIF image of \(width)×\(height) in \(columns)×\(rows) tiles of \(tileWidth)×\(tileHeight)")
            }
            // Each tile is a decoder call: a grid of millions of tiny tiles would take hours, not
            // memory. Cameras and phones use a few hundred at most (a 200 MP grid: 768).
            guard columns * rows <= Self.maximumTiles else {
                throw PhotoError(
                    .unsupported, "HEIF grid of \(columns)×\(rows) tiles (at most \(Self.maximumTiles) are read)")
            }
        }

        deinit { heif_image_handle_release(handle) }

        static let maximumTiles = 16_384

        private var sampleBytes: Int { bitDepth > 8 ? 2 : 1 }

        /// PQ or HLG, which need tone mapping for an SDR rendition; nil for SDR.
        var hdrTransfer: HDRTransfer? { nclx.flatMap { HDRTransfer(h273: $0.transfer) } }

        /// Bytes a decode at `factor` needs: one tile as the codec gives it and as libheif copies
        /// it (coded planes twice); for an 8-bit image also its interleaved RGB(A) (libheif's own
        /// conversion of a deep image would pass through planar RGB too: 26 bytes a pixel measured
        /// for a 10-bit 4:4:4 AV1 frame, against 12 converted here); then the reducer's output and
        /// the rows it is summing.
        ///
        /// For an image that is not a grid, the tile is the whole frame.
        /// The decoder makes the frame its codec configuration says (`codedFrame` pixels) when
        /// that is larger than the tile the file declares.
        func memoryNeeded(factor: Int, keepsSamples: Bool, codedFrame: Int) -> Int {
            let tile = max(tileWidth.multipliedReportingOverflow(by: tileHeight).partialValue, codedFrame)
            let channels = hasAlpha ? 4 : 3
            let perPixel = convertsPlanes ? halfSamples : halfSamples + channels + (sampleBytes == 2 ? 4 : 0)
            let (decoding, overflow) = tile.multipliedReportingOverflow(by: sampleBytes * perPixel)
            guard !overflow, decoding < Int.max / 2 else { return Int.max / 2 }
            return decoding + tileWidth * channels * 2
                + AreaReducer.memoryNeeded(
                    width: width, height: height, channels: channels, factor: factor, keepsSamples: keepsSamples,
                    tileHeight: tileHeight, columns: columns)
        }

        /// Decodes every tile, row by row, into a reducer averaging by `factor` (at most 256, so
        /// no sum can overflow); `keepsSamples` keeps deep samples for tone mapping.
        func decode(factor: Int, keepsSamples: Bool) throws(PhotoError) -> AreaReducer {
            guard let options = heif_decoding_options_alloc() else { throw PhotoError(.tooLarge, "out of memory") }
            defer { heif_decoding_options_free(options) }
            options.pointee.ignore_transformations = transformed ? 0 : 1
            let channels = hasAlpha ? 4 : 3
            let wide = sampleBytes == 2
            let chroma =
                wide
                ? (hasAlpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                : (hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
            var reducer = AreaReducer(
                width: width, height: height, channels: channels, factor: min(max(factor, 1), 256),
                maximum: (1 << bitDepth) - 1, keepsSamples: keepsSamples && wide, tileHeight: tileHeight,
                columns: columns)
            for row in 0..<rows {
                for column in 0..<columns {
                    var image: OpaquePointer?
                    // On this worker's core alone: see `memoryNeeded`.
                    let status = HEIFDecoder.onOneCPU {
                        convertsPlanes
                            ? heif_image_handle_decode_image_tile(
                                handle, &image, heif_colorspace_undefined, heif_chroma_undefined, options,
                                UInt32(column), UInt32(row))
                            : heif_image_handle_decode_image_tile(
                                handle, &image, heif_colorspace_RGB, chroma, options, UInt32(column), UInt32(row))
                    }
                    guard status.code == heif_error_Ok, let image else {
                        throw HEIFDecoder.error(status, "cannot decode the HEIF image")
                    }
                    defer { heif_image_release(image) }
                    if convertsPlanes {
                        try addPlanes(of: image, column: column, row: row, to: &reducer)
                        continue
                    }
                    var stride: Int32 = 0
                    let (decodedWidth, decodedHeight) = (
                        Int(heif_image_get_width(image, heif_channel_interleaved)),
                        Int(heif_image_get_height(image, heif_channel_interleaved))
                    )
                    let (x, y) = (column * tileWidth - offset.x, row * tileHeight - offset.y)
                    // The part of the tile inside the image: a tile must cover it, and may be larger.
                    let (skipX, skipY) = (max(0, -x), max(0, -y))
                    guard decodedWidth >= min(tileWidth, width - x), decodedHeight >= min(tileHeight, height - y),
                        let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
                        Int(stride) >= decodedWidth * channels * sampleBytes
                    else {
                        throw PhotoError(
                            .corrupt, "HEIF tile \(column),\(row) decoded to \(decodedWidth)×\(decodedHeight)")
                    }
                    reducer.add(
                        UnsafeRawPointer(plane) + skipY * Int(stride) + skipX * channels * sampleBytes,
                        stride: Int(stride),
                        sampleBytes: sampleBytes, x: x + skipX, y: y + skipY,
                        tileWidth: min(decodedWidth, tileWidth) - skipX,
                        tileHeight: min(decodedHeight, tileHeight) - skipY)
                }
            }
            return reducer
        }

        /// Adds a tile decoded as its Y′CbCr planes, turned into 16-bit RGB a row at a time by
        /// the matrix its colour description names: libheif's own conversion of a deep image
        /// holds the frame four more times over (planar RGB, then interleaved).
        private func addPlanes(
            of image: OpaquePointer, column: Int, row: Int, to reducer: inout AreaReducer
        ) throws(PhotoError) {
            let chroma = heif_image_get_chroma_format(image)
            guard heif_image_get_colorspace(image) == heif_colorspace_YCbCr,
                let shift = [heif_chroma_444: (0, 0), heif_chroma_422: (1, 0), heif_chroma_420: (1, 1)][chroma]
            else { throw PhotoError(.corrupt, "HEIF tile \(column),\(row) is not the Y′CbCr its header says") }
            let depth = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_Y))
            guard depth == bitDepth, Int(heif_image_get_bits_per_pixel_range(image, heif_channel_Cb)) == depth,
                Int(heif_image_get_bits_per_pixel_range(image, heif_channel_Cr)) == depth
            else {
                throw PhotoError(
                    .corrupt, "HEIF tile \(column),\(row) decoded with \(depth)-bit samples, not \(bitDepth)")
            }
            var description: UnsafeMutablePointer<heif_color_profile_nclx>?
            var matrix = 2, fullRange = true, primaries: [Double] = []
            if heif_image_get_nclx_color_profile(image, &description).code == heif_error_Ok, let description {
                let nclx = description.pointee
                matrix = Int(nclx.matrix_coefficients.rawValue)
                fullRange = nclx.full_range_flag != 0
                primaries = [
                    nclx.color_primary_red_x, nclx.color_primary_red_y, nclx.color_primary_green_x,
                    nclx.color_primary_green_y,
                    nclx.color_primary_blue_x, nclx.color_primary_blue_y, nclx.color_primary_white_x,
                    nclx.color_primary_white_y,
                ].map(Double.init)
                heif_nclx_color_profile_free(description)
            }
            guard
                let conversion = YCbCrToRGB(matrix: matrix, fullRange: fullRange, bitDepth: depth, primaries: primaries)
            else {
                throw PhotoError(.unsupported, "a deep HEIF whose codec alone names matrix \(matrix) (not Y′CbCr)")
            }
            let (decodedWidth, decodedHeight) = (
                Int(heif_image_get_width(image, heif_channel_Y)), Int(heif_image_get_height(image, heif_channel_Y))
            )
            let (x, y) = (column * tileWidth - offset.x, row * tileHeight - offset.y)
            let (skipX, skipY) = (max(0, -x), max(0, -y))
            let (usedWidth, usedHeight) = (min(decodedWidth, tileWidth) - skipX, min(decodedHeight, tileHeight) - skipY)
            var strides: [Int32] = [0, 0, 0]
            guard decodedWidth >= min(tileWidth, width - x), decodedHeight >= min(tileHeight, height - y),
                Int(heif_image_get_width(image, heif_channel_Cb)) >= (decodedWidth + shift.0) >> shift.0,
                Int(heif_image_get_height(image, heif_channel_Cb)) >= (decodedHeight + shift.1) >> shift.1,
                Int(heif_image_get_width(image, heif_channel_Cr)) >= (decodedWidth + shift.0) >> shift.0,
                Int(heif_image_get_height(image, heif_channel_Cr)) >= (decodedHeight + shift.1) >> shift.1,
                let luma = heif_image_get_plane_readonly(image, heif_channel_Y, &strides[0]),
                let blue = heif_image_get_plane_readonly(image, heif_channel_Cb, &strides[1]),
                let red = heif_image_get_plane_readonly(image, heif_channel_Cr, &strides[2])
            else {
                throw PhotoError(.corrupt, "HEIF tile \(column),\(row) decoded to \(decodedWidth)×\(decodedHeight)")
            }
            let channels = 3
            var line = [UInt16](repeating: 0, count: usedWidth * channels)
            line.withUnsafeMutableBufferPointer { line in
                // invariant: a tile inside the image is at least one pixel wide.
                let out = line.baseAddress.unsafelyUnwrapped
                func row16(_ plane: UnsafePointer<UInt8>, _ stride: Int32, _ y: Int, _ x: Int) -> UnsafePointer<UInt16>
                {
                    UnsafeRawPointer(plane + y * Int(stride)).assumingMemoryBound(to: UInt16.self) + x
                }
                for index in 0..<usedHeight {
                    let (sourceY, chromaY) = (skipY + index, (skipY + index) >> shift.1)
                    // A chroma row starts at the sample covering the first pixel used; an odd
                    // skip is not met (a turned grid is refused, and only it skips columns).
                    conversion.convert(
                        y: row16(luma, strides[0], sourceY, skipX),
                        cb: row16(blue, strides[1], chromaY, skipX >> shift.0),
                        cr: row16(red, strides[2], chromaY, skipX >> shift.0), shift: shift.0, width: usedWidth,
                        into: out)
                    reducer.add(
                        UnsafeRawPointer(out), stride: usedWidth * channels * 2, sampleBytes: 2, x: x + skipX,
                        y: y + sourceY,
                        tileWidth: usedWidth, tileHeight: 1)
                }
            }
        }
    }

    /// Runs `body` with the calling thread allowed on one CPU (the one it is on), then as before.
    ///
    /// dav1d, given no thread count by libheif, starts a thread for each CPU it may use, and
    /// with several it keeps a whole frame's coefficients beside the picture: a 20 MP 10-bit
    /// 4:4:4 AVIF took 527 MB on two CPUs and 257 MB on one. A worker is one core's share of
    /// the scan anyway. Best effort: where the mask cannot be read or set, `body` just runs.
    fileprivate static func onOneCPU<Result>(_ body: () -> Result) -> Result {
        // 1,024 CPUs, as glibc's cpu_set_t.
        var before = [UInt](repeating: 0, count: 1024 / UInt.bitWidth)
        let bytes = UInt(before.count * MemoryLayout<UInt>.size)
        let cpu = Int(tessera_current_cpu())
        guard cpu >= 0, cpu < 1024, tessera_thread_cpus(&before, bytes, 0) > 0 else { return body() }
        var one = [UInt](repeating: 0, count: before.count)
        one[cpu / UInt.bitWidth] = 1 << UInt(cpu % UInt.bitWidth)
        guard tessera_thread_cpus(&one, bytes, 1) == 0 else { return body() }
        defer { _ = tessera_thread_cpus(&before, bytes, 1) }
        return body()
    }

    fileprivate static func error(_ status: heif_error, _ what: String) -> PhotoError {
        let message =
            status.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
            ?? "error \(status.code.rawValue)"
        if status.code == heif_error_Unsupported_feature && status.subcode == heif_suberror_Unsupported_codec {
            // libheif 1.19 loads its decoders as plugins, which Debian packages apart.
            return PhotoError(
                .unsupported, what,
                cause: "\(message); is libheif's decoder plugin installed "
                    + "(libheif-plugin-libde265 for HEVC, libheif-plugin-dav1d for AV1)?")
        }
        let code: PhotoError.Code =
            switch status.code {
            case heif_error_Unsupported_feature, heif_error_Unsupported_filetype: .unsupported
            case heif_error_Memory_allocation_error: .tooLarge
            default: .corrupt
            }
        return PhotoError(code, what, cause: message)
    }
}
