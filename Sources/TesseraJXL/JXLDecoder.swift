import CJXL
public import TesseraSystem

/// A JPEG XL file decoded by libjxl, reading the file as a stream: its header first, then, if
/// asked, the first frame's pixels, at full detail or from its DC (1/8 resolution) alone.
///
/// It owns the `JxlDecoder` and the input buffer libjxl reads from, and frees both on every
/// path. Orientation is left to the caller (libjxl is told to keep the stored frame), so that it
/// is applied once, as for every other format. Give each thread its own.
///
/// ```swift
/// let decoder = try JXLDecoder(stream: reader.stream())
/// let info = try decoder.info()
/// let image = try decoder.decode(dcOnly: true, memoryLimit: 192 << 20)
/// ```
public final class JXLDecoder {
    let decoder: OpaquePointer
    private let stream: ByteStream
    /// Where the codestream lies in the stream (a container's `jxlc` or `jxlp` boxes' content).
    private let codestream: [Range<Int64>]
    /// libjxl reads from here: what it has not processed yet, then the next bytes of the file.
    private var input: UnsafeMutableRawBufferPointer
    private var filled = 0
    private var atEnd = false
    var inputClosed = false
    var basic = JxlBasicInfo()
    var header: JXLImageInfo?
    /// Bytes the first frame's decode needs, once its header has been read.
    private var needed: Int?
    private var decoded = false
    /// Whether a frame's DC has been decoded, so that a flush can show it.
    private var sawDC = false
    /// The file's bytes given to libjxl at once while it decodes pixels.
    private static let readChunk = 1 << 20
    /// Room for the file's bytes in a decode's budget: a chunk, past what libjxl has not
    /// processed yet.
    static let inputReserve = 2 * readChunk

    /// What the decoder gives.
    public struct Image: Sendable {
        public var width: Int
        public var height: Int
        /// 3 (RGB) or 4 (RGBA, straight alpha).
        public var channels: Int
        /// 8-bit samples; empty for an HDR image, whose samples are `wide`.
        public var pixels: [UInt8]
        /// 16-bit samples of an HDR image, in its own transfer (PQ or HLG) and primaries.
        public var wide: [UInt16] = []
        /// The colour space of `pixels` as an ICC profile.
        public var iccProfile: [UInt8]?
        /// Whether only the frame's DC was decoded (an image of 1/8 the detail, at full size).
        public var dcOnly: Bool
        /// Set when the file ended early and what it held is shown.
        public var warning: String?
    }

    /// Starts a decoder over `stream`, whose codestream lies at `codestream` (nil: all of it,
    /// a bare codestream); nothing is read yet.
    public init(stream: ByteStream, codestream: [Range<Int64>]? = nil) throws(JXLError) {
        guard let decoder = JxlDecoderCreate(nil) else {
            throw JXLError(.unsupported, "libjxl cannot create a decoder").at(stream.path)
        }
        self.decoder = decoder
        self.stream = stream
        self.codestream = codestream ?? [0..<stream.size]
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        let events =
            JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
            | JXL_DEC_FRAME_PROGRESSION.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
            JxlDecoderSetKeepOrientation(decoder, JXL_TRUE) == JXL_DEC_SUCCESS,
            JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE) == JXL_DEC_SUCCESS,
            JxlDecoderSetProgressiveDetail(decoder, kDC) == JXL_DEC_SUCCESS
        else { throw JXLError(.unsupported, "libjxl refuses the decoder's settings").at(stream.path) }
    }

    deinit {
        JxlDecoderDestroy(decoder)
        input.deallocate()
    }

    /// An error naming the file the decoder reads.
    func failure(_ code: JXLError.Code, _ message: String) -> JXLError {
        JXLError(code, message).at(stream.path)
    }

    /// Bytes decoding the first frame takes at its peak (the file's bytes read for it included),
    /// from its header: libjxl reads on to the end of the first shown frame's table of contents,
    /// and the frame headers up to there tell how it is coded (`JXLFrameLayout`).
    ///
    /// No pixel of it
    /// is decoded yet.
    public func memoryNeeded() throws(JXLError) -> Int {
        let info = try info()
        if let needed { return needed }
        let start = consumed()
        var tocEnd: Int64?
        while tocEnd == nil {
            let status = JxlDecoderProcessInput(decoder)
            if status == JXL_DEC_NEED_MORE_INPUT {
                guard try feed(chunk: 64 << 10, limit: 16 << 20) || closeInput() else {
                    throw failure(.truncated, "the file ends before its first frame")
                }
            } else if status == JXL_DEC_FRAME {
                tocEnd = consumed()
            } else if inputClosed {
                throw failure(.truncated, "the file ends before its first frame")
            } else {
                throw failure(.corrupt, "the first frame's header is damaged")
            }
        }
        var squeezed = true
        if let tocEnd, let start = offsetInCodestream(start), let end = offsetInCodestream(tocEnd) {
            let image = JXLFrameLayout.Image(
                width: info.width, height: info.height, isXYB: info.isXYB, extraChannels: info.extraChannels,
                isAnimated: info.isAnimated, hasTimecodes: basic.animation.have_timecodes != JXL_FALSE,
                preview: basic.have_preview != JXL_FALSE ? (Int(basic.preview.xsize), Int(basic.preview.ysize)) : nil)
            squeezed = JXLFrameLayout.mayBeSqueezed(image: image, start: start, tocEnd: end, read: codestreamBytes)
        }
        let (sum, overflow) = info.memoryNeeded(squeezed: squeezed).addingReportingOverflow(Self.inputReserve)
        let made = overflow ? .max : sum
        needed = made
        return made
    }

    /// Where in the stream libjxl has read to: what it was given, less what it has not
    /// processed (given back to it, at the start of the input buffer).
    private func consumed() -> Int64 {
        guard filled > 0 else { return stream.offset }
        takeBackInput()
        _ = JxlDecoderSetInput(decoder, input.baseAddress?.assumingMemoryBound(to: UInt8.self), filled)
        return stream.offset - Int64(filled)
    }

    /// Takes the input back from libjxl, keeping what it has not processed at the buffer's start.
    private func takeBackInput() {
        let unprocessed = filled > 0 ? JxlDecoderReleaseInput(decoder) : 0
        if unprocessed > 0 && unprocessed < filled, let base = input.baseAddress {
            base.copyMemory(from: base + (filled - unprocessed), byteCount: unprocessed)
        }
        filled = unprocessed
    }

    /// The codestream offset of stream position `position` (the end of one part is the start of
    /// the next).
    private func offsetInCodestream(_ position: Int64) -> Int? {
        var before: Int64 = 0
        for part in codestream {
            if part.contains(position) || part.upperBound == position {
                return Int(before + position - part.lowerBound)
            }
            before += Int64(part.count)
        }
        return nil
    }

    /// `count` codestream bytes from codestream offset `offset`, or nil when the file has fewer;
    /// the stream is left where it was.
    private func codestreamBytes(_ offset: Int, _ count: Int) -> [UInt8]? {
        let resume = stream.offset
        defer { stream.seek(to: resume) }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        var skipped: Int64 = 0
        for part in codestream where done < count {
            let length = Int64(part.count)
            let wanted = Int64(offset + done) - skipped
            skipped += length
            guard wanted < length else { continue }
            let take = Int(min(length - wanted, Int64(count - done)))
            stream.seek(to: part.lowerBound + wanted)
            let got = bytes.withUnsafeMutableBytes { buffer in
                stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done..<(done + take)]))
            }
            guard got == take else { return nil }
            done += take
        }
        return done == count ? bytes : nil
    }

    /// Decodes the first frame (an animation's first, composited) to 8-bit samples.
    ///
    /// - Parameter dcOnly: stop once the frame's DC is decoded, when libjxl can show it: the
    ///   rest of the file is then never read.
    /// - Parameter memoryLimit: bytes the decode may hold, checked before the image exists.
    /// - Throws: `.tooLarge` past `memoryLimit`; `.truncated` when the file ends before even the
    ///   DC of the frame; `.corrupt` when libjxl refuses the data.
    public func decode(dcOnly: Bool, memoryLimit: Int) throws(JXLError) -> Image {
        let info = try info()
        guard !decoded else { throw failure(.unsupported, "a JPEG XL decoder decodes once") }
        decoded = true
        let needed = try memoryNeeded()
        guard needed <= memoryLimit else {
            throw failure(
                .tooLarge,
                "a \(info.width)×\(info.height) JPEG XL image needs \(needed >> 20) MiB to decode, "
                    + "more than the \(memoryLimit >> 20) MiB allowed")
        }
        // Zeroed: a flush need not reach every pixel. An HDR image in 16 bits, for tone mapping.
        let count = info.width * info.height * info.channels
        var pixels = [UInt8](repeating: 0, count: info.isHDR ? 0 : count)
        var wide = [UInt16](repeating: 0, count: info.isHDR ? count : 0)
        let type = info.isHDR ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8
        let limit = memoryLimit - needed + Self.inputReserve
        let outcome =
            info.isHDR
            ? wide.withUnsafeMutableBytes { buffer in
                Result { () throws(JXLError) in
                    try run(into: buffer, type: type, info: info, dcOnly: dcOnly, inputLimit: limit)
                }
            }
            : pixels.withUnsafeMutableBytes { buffer in
                Result { () throws(JXLError) in
                    try run(into: buffer, type: type, info: info, dcOnly: dcOnly, inputLimit: limit)
                }
            }
        let (dc, warning) = try outcome.get()
        return Image(
            width: info.width, height: info.height, channels: info.channels, pixels: pixels, wide: wide,
            iccProfile: iccProfile(JXL_COLOR_PROFILE_TARGET_DATA), dcOnly: dc, warning: warning)
    }

    /// Runs libjxl until the first frame is in `buffer`, or its DC when that is enough: whether
    /// only the DC is, and a warning when the file ended early.
    private func run(
        into buffer: UnsafeMutableRawBufferPointer, type: JxlDataType, info: JXLImageInfo, dcOnly: Bool, inputLimit: Int
    ) throws(JXLError) -> (dc: Bool, warning: String?) {
        // 16-bit samples little-endian, as the reducer that averages them reads them.
        var format = JxlPixelFormat(
            num_channels: UInt32(info.channels), data_type: type,
            endianness: type == JXL_TYPE_UINT16 ? JXL_LITTLE_ENDIAN : JXL_NATIVE_ENDIAN, align: 0)
        var hasOutput = false
        while true {
            let status = JxlDecoderProcessInput(decoder)
            if status == JXL_DEC_NEED_MORE_INPUT {
                if try feed(chunk: Self.readChunk, limit: inputLimit) { continue }
                // The file ends early: the frame's DC, when complete, is still a picture of it.
                if sawDC, hasOutput, JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS {
                    return (true, "the file ends early: renditions show its image at 1/8 of its detail")
                }
                guard closeInput() else {
                    throw failure(
                        .truncated,
                        "the image data stops before the image is complete: the file is cut short or damaged")
                }
            } else if status == JXL_DEC_NEED_IMAGE_OUT_BUFFER {
                var size = 0
                guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS, size == buffer.count
                else {
                    throw failure(.corrupt, "the frame does not match the image's size")
                }
                guard JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, size) == JXL_DEC_SUCCESS else {
                    throw failure(.unsupported, "libjxl refuses the output format")
                }
                hasOutput = true
            } else if status == JXL_DEC_FRAME {
                continue
            } else if status == JXL_DEC_FRAME_PROGRESSION {
                sawDC = true
                if dcOnly, hasOutput, JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS { return (true, nil) }
            } else if status == JXL_DEC_FULL_IMAGE {
                return (false, nil)
            } else if status == JXL_DEC_SUCCESS {
                throw failure(.corrupt, "the file holds no frame")
            } else if inputClosed {
                // libjxl fails, rather than waiting, once told there is no more to come.
                throw failure(
                    .truncated, "the image data stops before the image is complete: the file is cut short or damaged")
            } else {
                throw failure(.corrupt, "libjxl cannot decode the image")
            }
        }
    }

    /// Gives libjxl the bytes it has not processed and up to `chunk` more; false at the end of
    /// the file.
    ///
    /// Throws `.tooLarge` when the bytes libjxl wants at
    /// once pass `limit`.
    func feed(chunk: Int, limit: Int) throws(JXLError) -> Bool {
        guard !atEnd else { return false }
        takeBackInput()
        if filled + chunk > input.count {
            guard filled + chunk <= limit else {
                throw failure(.tooLarge, "libjxl needs more than \(limit >> 20) MiB of the file at once")
            }
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: filled + chunk, alignment: 16)
            larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: input[..<filled]))
            input.deallocate()
            input = larger
        }
        let got = stream.read(into: UnsafeMutableRawBufferPointer(rebasing: input[filled..<(filled + chunk)]))
        filled += got
        guard
            JxlDecoderSetInput(decoder, input.baseAddress?.assumingMemoryBound(to: UInt8.self), filled)
                == JXL_DEC_SUCCESS
        else {
            throw failure(.corrupt, "libjxl refuses its input")
        }
        atEnd = got == 0
        return !atEnd
    }

    /// Tells libjxl the file has no more bytes, so that it finishes with what it holds (once:
    /// false when it was told already).
    ///
    /// Not done at once at the end of the file: libjxl flushes
    /// a partial frame only while it still waits for input.
    func closeInput() -> Bool {
        guard !inputClosed else { return false }
        JxlDecoderCloseInput(decoder)
        inputClosed = true
        return true
    }
}
